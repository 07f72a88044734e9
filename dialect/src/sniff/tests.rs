//! Tests for the top-level scanner, including fuzzing with proptest.

use super::*;
use proptest::prelude::*;

#[test]
fn reads_top_level_keys_and_strings() {
    let doc = br#" {"a": 1, "hook_event_name" : "PreToolUse", "nested": {"hookName": "x", "s": "}\"{"}, "list": [1, {"k": "]"}], "last": "v"} "#;
    let top = scan(doc).unwrap();
    assert!(top.complete());
    for key in ["a", "hook_event_name", "nested", "list", "last"] {
        assert!(top.has_key(key), "{key}");
    }
    assert!(!top.has_key("hookName"), "nested keys are not top-level");
    assert!(!top.has_key("k"));
    assert_eq!(
        top.string_value("hook_event_name").as_deref(),
        Some("PreToolUse")
    );
    assert_eq!(top.string_value("last").as_deref(), Some("v"));
    assert_eq!(top.string_value("a"), None, "not a string");
    assert_eq!(top.string_value("nested"), None);
}

#[test]
fn unescapes_values_and_keys() {
    let doc = br#"{"k\u0065y": "a\"b\\c\/d\n\t\u00e9\ud83d\ude00\u00", "x": "\q"}"#;
    let top = scan(doc).unwrap();
    assert!(top.has_key("key"));
    assert_eq!(
        top.string_value("key").as_deref(),
        Some("a\"b\\c/d\n\té😀\u{FFFD}00")
    );
    assert_eq!(top.string_value("x").as_deref(), Some("\u{FFFD}"));
}

#[test]
fn lone_surrogates_and_bad_utf8_become_replacement_chars() {
    let top = scan(b"{\"a\": \"\\ud800x\", \"b\": \"\xff\"}").unwrap();
    assert_eq!(top.string_value("a").as_deref(), Some("\u{FFFD}x"));
    assert_eq!(top.string_value("b").as_deref(), Some("\u{FFFD}"));
}

#[test]
fn not_an_object() {
    for doc in [&b""[..], b"   ", b"[]", b"\"{\"", b"null", b"x{}"] {
        assert!(scan(doc).is_none(), "{doc:?}");
    }
    assert!(
        scan(b"\xEF\xBB\xBF {}").unwrap().complete(),
        "BOM is skipped"
    );
}

#[test]
fn truncated_documents_keep_the_entries_read_so_far() {
    let doc = br#"{"hookName": "tool_call", "tool_call": {"id": "#;
    let top = scan(doc).unwrap();
    assert!(!top.complete());
    assert_eq!(top.string_value("hookName").as_deref(), Some("tool_call"));
    assert!(
        !top.has_key("tool_call"),
        "incomplete entry is not recorded"
    );
    let top = scan(br#"{"a": "unterminated"#).unwrap();
    assert!(!top.has_key("a"));
    let top = scan(br#"{"a": 12"#).unwrap();
    assert!(!top.has_key("a"), "a number may go on: not recorded");
}

#[test]
fn malformed_documents_stop_at_the_damage() {
    let top = scan(br#"{"a": "1" "b": "2"}"#).unwrap();
    assert!(!top.complete());
    assert!(top.has_key("a"));
    assert!(!top.has_key("b"));
    assert!(!scan(br#"{"a": ]}"#).unwrap().complete());
    assert!(!scan(br#"{"a" 1}"#).unwrap().complete());
}

#[test]
fn deep_nesting_does_not_recurse() {
    let mut doc = b"{\"a\": ".to_vec();
    doc.extend(std::iter::repeat_n(b'[', 1_000_000));
    doc.extend(std::iter::repeat_n(b']', 1_000_000));
    doc.extend_from_slice(b", \"b\": \"ok\"}");
    let top = scan(&doc).unwrap();
    assert!(top.complete());
    assert_eq!(top.string_value("b").as_deref(), Some("ok"));
}

#[test]
fn key_count_is_capped() {
    let mut doc = String::from("{");
    for i in 0..(MAX_KEYS + 10) {
        doc.push_str(&format!("\"k{i}\": {i},"));
    }
    doc.push_str("\"end\": \"yes\"}");
    let top = scan(doc.as_bytes()).unwrap();
    assert!(top.complete());
    assert!(top.has_key("k0"));
    assert!(!top.has_key("end"), "keys past the cap are not recorded");
}

proptest! {
    #[test]
    fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Some(top) = scan(&bytes) {
            let _ = top.string_value("hookName");
            let _ = top.has_key("hook_event_name");
        }
    }

    #[test]
    fn never_panics_on_json_like_bytes(
        parts in proptest::collection::vec(
            prop_oneof![
                Just("{"), Just("}"), Just("["), Just("]"), Just("\""), Just("\\"),
                Just(":"), Just(","), Just(" "), Just("\\u"), Just("d83d"), Just("hookName"),
                Just("1"), Just("é"),
            ],
            0..64,
        )
    ) {
        let doc = format!("{{{}", parts.concat());
        if let Some(top) = scan(doc.as_bytes()) {
            let _ = top.string_value("hookName");
            let _ = top.string_value("\"");
        }
    }

    #[test]
    fn agrees_with_serde_on_valid_objects(
        map in proptest::collection::btree_map("[a-zA-Z_\"\\\\é\u{1F600}\n]{0,8}", "[ -~é\u{1F600}\n\"\\\\]{0,16}", 0..8)
    ) {
        let doc = serde_json::to_string(&map).unwrap();
        let top = scan(doc.as_bytes()).unwrap();
        prop_assert!(top.complete());
        for (key, value) in &map {
            prop_assert_eq!(top.string_value(key), Some(value.clone()));
        }
    }
}
