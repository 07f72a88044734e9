//! Malformed Cursor payloads: errors name the field and never echo
//! content, and no input makes the parser panic.

use serde_json::{Value, json};

use super::parse;
use super::parse_tests::with;
use crate::testing::fixtures;
use crate::{Dialect, ParseErrorKind};

#[test]
fn malformed_fields_are_named_without_echoing_content() {
    let secret = "sk-live-DO-NOT-LOG";
    let cases: Vec<(Vec<u8>, ParseErrorKind)> = vec![
        (
            format!(r#"{{"hook_event_name":7,"prompt":"{secret}"}}"#).into_bytes(),
            wrong("hook_event_name", "a string"),
        ),
        (
            br#"{"conversation_id":"c"}"#.to_vec(),
            ParseErrorKind::MissingField("hook_event_name".into()),
        ),
        (
            with("beforeShellExecution", |m| {
                m.insert("command".into(), json!([secret]));
            }),
            wrong("command", "a string"),
        ),
        (
            with("preToolUse", |m| {
                m.insert("tool_input".into(), json!(42));
            }),
            wrong("tool_input", "an object or a JSON string"),
        ),
        (
            with("preToolUse", |m| {
                m.insert("tool_input".into(), json!({"command": {"x": secret}}));
            }),
            wrong("tool_input.command", "a string"),
        ),
        (
            with("beforeSubmitPrompt", |m| {
                m.insert("workspace_roots".into(), json!(secret));
            }),
            wrong("workspace_roots", "an array of strings"),
        ),
        (
            with("stop", |m| {
                m.insert("loop_count".into(), json!(-1));
            }),
            wrong("loop_count", "a non-negative integer"),
        ),
        (
            with("afterFileEdit", |m| {
                m.insert("edits".into(), json!(secret));
            }),
            wrong("edits", "an array"),
        ),
    ];
    for (payload, expected) in cases {
        let err = parse(&payload).unwrap_err();
        assert_eq!(err.dialect, Dialect::Cursor);
        assert_eq!(err.kind, expected);
        assert!(!err.to_string().contains(secret), "{err}");
    }
    assert!(matches!(
        parse(b"{\"hook_event_name\":").unwrap_err().kind,
        ParseErrorKind::NotJson { .. }
    ));
    assert_eq!(parse(b"[1]").unwrap_err().kind, ParseErrorKind::NotAnObject);
}

fn wrong(field: &str, expected: &'static str) -> ParseErrorKind {
    ParseErrorKind::WrongType {
        field: field.into(),
        expected,
    }
}

/// Every truncation of every fixture, and every field (top level and one
/// level down) replaced by each JSON type in turn: the parser returns,
/// `Ok` or `Err`, and never panics.
#[test]
fn never_panics_on_truncated_or_retyped_fields() {
    let replacements = [
        json!(null),
        json!(1.5),
        json!(-3),
        json!(true),
        json!("x"),
        json!([1]),
        json!({"a": 1}),
    ];
    for (stem, bytes) in fixtures("cursor") {
        for end in 0..bytes.len() {
            let _ = parse(&bytes[..end]);
        }
        let value: Value = serde_json::from_slice(&bytes).unwrap();
        for (key, inner) in value.as_object().unwrap() {
            for replacement in &replacements {
                let payload = with(&stem, |m| {
                    m.insert(key.clone(), replacement.clone());
                });
                let _ = parse(&payload);
                let Value::Object(inner) = inner else {
                    continue;
                };
                for inner_key in inner.keys() {
                    let payload = with(&stem, |m| {
                        m[key.as_str()][inner_key.as_str()] = replacement.clone();
                    });
                    let _ = parse(&payload);
                }
            }
        }
    }
}
