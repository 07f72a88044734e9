//! Malformed Cursor payloads: errors name the field and never echo
//! content, and no input makes the parser panic.

use serde_json::json;

use super::parse;
use super::parse_tests::with;
use crate::testing::{self, wrong};
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

/// Every truncation and retyped field of every fixture: the parser
/// returns and never panics.
#[test]
fn never_panics_on_truncated_or_retyped_fields() {
    testing::never_panics_on_truncated_or_retyped_fields("cursor", |_, bytes| parse(bytes));
}
