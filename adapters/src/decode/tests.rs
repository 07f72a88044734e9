//! The lenient decoder: what `JSON.parse` accepts must parse, and the
//! property that every string `JSON.stringify` can write decodes.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

#[test]
fn accepts_what_javascript_writes() {
    let cases: &[(&[u8], Value)] = &[
        (br#"{"a":"ok"}"#, json!({"a": "ok"})),
        (
            br#"{"c":"cat .env \ud800"}"#,
            json!({"c": "cat .env \u{fffd}"}),
        ),
        (br#"{"c":"\udc00x"}"#, json!({"c": "\u{fffd}x"})),
        (br#"{"c":"\ud83d\ude00"}"#, json!({"c": "\u{1f600}"})),
        (
            br#"{"c":"\ud83d\ud83d\ude00"}"#,
            json!({"c": "\u{fffd}\u{1f600}"}),
        ),
        (br#"{"c":"\\ud800"}"#, json!({"c": "\\ud800"})),
        (b"\xEF\xBB\xBF{\"a\":1}", json!({"a": 1})),
        (b"{\"a\":\"\xff\"}", json!({"a": "\u{fffd}"})),
    ];
    for (payload, expected) in cases {
        let text = String::from_utf8_lossy(payload);
        assert_eq!(decode(payload).as_ref(), Ok(expected), "{text}");
    }
}

#[test]
fn numbers_beyond_f64_are_kept_as_text() {
    let value = decode(br#"{"n":1e400,"m":-123456789012345678901234567890}"#).unwrap();
    // serde_json spells the exponent with its sign; the digits are kept.
    assert_eq!(value["n"].to_string(), "1e+400");
    assert_eq!(value["m"].to_string(), "-123456789012345678901234567890");
}

#[test]
fn deep_nesting_parses_up_to_the_limit() {
    // Every recursive walk of a deep value (drop, serialize, compare) needs
    // stack in proportion to its depth: the gateway gives its threads
    // `STACK_SIZE`, and so does this test (in a debug build, the worst case).
    let worker = std::thread::Builder::new().stack_size(STACK_SIZE);
    let checked = worker.spawn(|| {
        for depth in [129, 10_000, MAX_DEPTH] {
            let payload = nested(depth);
            let value = decode(payload.as_bytes()).unwrap_or_else(|e| panic!("{depth}: {e:?}"));
            let again = serde_json::to_vec(&value).unwrap();
            assert_eq!(again, payload.as_bytes(), "{depth}");
            assert_eq!(value.clone(), value);
        }
        decode(nested(MAX_DEPTH + 1).as_bytes())
    });
    assert_eq!(checked.unwrap().join().unwrap(), Err(DecodeError::TooDeep));
}

#[test]
fn malformed_json_is_still_an_error() {
    for payload in [
        &b"{"[..],
        b"{\"a\":}",
        b"",
        b"{\"a\":\"\\uZZZZ\"}",
        b"{} {}",
        b"\xEF\xBB\xBF",
    ] {
        assert!(matches!(decode(payload), Err(DecodeError::Syntax { .. })));
    }
}

#[test]
fn the_scan_ignores_brackets_and_escapes_inside_strings() {
    let s = scan(br#"{"a":"[[[{\"\\ud800","b":[["\ud800x"]]}"#);
    assert_eq!(s.max_depth, 3);
    assert_eq!(s.lone_surrogates.len(), 1);
}

/// `{"a":[[...[1]...]]}` with `depth` levels in all.
fn nested(depth: usize) -> String {
    let inner = depth - 1;
    format!("{{\"a\":{}1{}}}", "[".repeat(inner), "]".repeat(inner))
}

/// A string as `JSON.stringify` writes it (ES2019 well-formed stringify:
/// lone surrogates as `\uXXXX`, pairs as UTF-8).
fn js_stringify(units: &[u16]) -> String {
    let mut out = String::from("\"");
    for unit in char::decode_utf16(units.iter().copied()) {
        match unit {
            Ok('"') => out.push_str("\\\""),
            Ok('\\') => out.push_str("\\\\"),
            Ok('\n') => out.push_str("\\n"),
            Ok('\r') => out.push_str("\\r"),
            Ok('\t') => out.push_str("\\t"),
            Ok('\u{8}') => out.push_str("\\b"),
            Ok('\u{c}') => out.push_str("\\f"),
            Ok(c) if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            Ok(c) => out.push(c),
            Err(lone) => out.push_str(&format!("\\u{:04x}", lone.unpaired_surrogate())),
        }
    }
    out.push('"');
    out
}

/// Code units biased towards the interesting ones.
fn unit() -> impl Strategy<Value = u16> {
    prop_oneof![
        0xD800u16..=0xDFFF,
        0u16..0x80,
        any::<u16>(),
        Just(u16::from(b'"')),
        Just(u16::from(b'\\')),
    ]
}

proptest! {
    #[test]
    fn every_string_javascript_writes_decodes(
        key in proptest::collection::vec(unit(), 0..8),
        value in proptest::collection::vec(unit(), 0..64),
        depth in 0usize..300,
    ) {
        let payload = format!(
            "{{{}:{}{}{}}}",
            js_stringify(&key),
            "[".repeat(depth),
            js_stringify(&value),
            "]".repeat(depth),
        );
        let decoded = decode(payload.as_bytes());
        prop_assert!(decoded.is_ok(), "{payload}: {decoded:?}");
        let decoded = decoded.unwrap();
        let object = decoded.as_object().unwrap();
        let (k, mut v) = object.iter().next().unwrap();
        prop_assert_eq!(k, &String::from_utf16_lossy(&key));
        for _ in 0..depth {
            v = &v[0];
        }
        let expected = String::from_utf16_lossy(&value);
        prop_assert_eq!(v.as_str(), Some(expected.as_str()));
    }
}
