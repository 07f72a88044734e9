//! Malformed Cline payloads (both dialects): errors name the field and
//! never echo content, and no input makes the parsers panic.

use serde_json::{Value, json};

use super::parse_tests::{parse_fixture, with};
use super::{parse_legacy, parse_sdk};
use crate::testing::fixtures;
use crate::{Dialect, ParseErrorKind};

fn wrong(field: &str, expected: &'static str) -> ParseErrorKind {
    ParseErrorKind::WrongType {
        field: field.into(),
        expected,
    }
}

#[test]
fn malformed_fields_are_named_without_echoing_content() {
    let secret = "ghp_DO_NOT_LOG";
    let sdk_cases = [
        (
            with("tool_call", |m| {
                m["tool_call"]["input"]["commands"] = json!(secret.len());
            }),
            wrong("tool_call.input.commands", "an array of strings"),
        ),
        (
            with("tool_call", |m| {
                m.insert("tool_call".into(), json!(secret));
            }),
            wrong("tool_call", "an object"),
        ),
        (
            with("tool_call", |m| {
                m["tool_call"]["name"] = json!([secret]);
            }),
            wrong("tool_call.name", "a string"),
        ),
        (
            with("tool_call", |m| {
                m["sessionContext"]["rootSessionId"] = json!(1);
            }),
            wrong("sessionContext.rootSessionId", "a string"),
        ),
        (
            with("tool_result", |m| {
                m["tool_result"]["durationMs"] = json!(secret);
            }),
            wrong("tool_result.durationMs", "a number"),
        ),
        (
            with("agent_start", |m| {
                m.insert("hookName".into(), json!({"x": secret}));
            }),
            wrong("hookName", "a string"),
        ),
        (
            with("tool_call", |m| {
                m.remove("tool_call");
                m.remove("preToolUse");
            }),
            ParseErrorKind::MissingField("tool_call".into()),
        ),
    ];
    for (payload, expected) in sdk_cases {
        let err = parse_sdk(&payload).unwrap_err();
        assert_eq!((err.dialect, &err.kind), (Dialect::ClineSdk, &expected));
        assert!(!err.to_string().contains(secret), "{err}");
    }
    let legacy_cases = [
        (
            with("legacy.PreToolUse", |m| {
                m["preToolUse"]["parameters"] = json!([secret]);
            }),
            wrong("preToolUse.parameters", "an object"),
        ),
        (
            with("legacy.PreToolUse", |m| {
                m["preToolUse"]["parameters"]["path"] = json!(7);
            }),
            wrong("preToolUse.parameters.path", "a string"),
        ),
        (
            with("legacy.TaskStart", |m| {
                m["taskStart"]["taskMetadata"]["initialTask"] = json!(7);
            }),
            wrong("taskStart.taskMetadata.initialTask", "a string"),
        ),
        (
            with("legacy.PostToolUse", |m| {
                m["postToolUse"]["success"] = json!(secret);
            }),
            wrong("postToolUse.success", "a boolean"),
        ),
        (
            with("legacy.UserPromptSubmit", |m| {
                m.insert("workspaceRoots".into(), json!(secret));
            }),
            wrong("workspaceRoots", "an array of strings"),
        ),
        (
            with("legacy.PreToolUse", |m| {
                m.remove("preToolUse");
            }),
            ParseErrorKind::MissingField("preToolUse".into()),
        ),
    ];
    for (payload, expected) in legacy_cases {
        let err = parse_legacy(&payload).unwrap_err();
        assert_eq!((err.dialect, &err.kind), (Dialect::ClineLegacy, &expected));
        assert!(!err.to_string().contains(secret), "{err}");
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
    for (stem, bytes) in fixtures("cline") {
        for end in 0..bytes.len() {
            let _ = parse_fixture(&stem, &bytes[..end]);
        }
        let value: Value = serde_json::from_slice(&bytes).unwrap();
        for (key, inner) in value.as_object().unwrap() {
            for replacement in &replacements {
                let payload = with(&stem, |m| {
                    m.insert(key.clone(), replacement.clone());
                });
                let _ = parse_fixture(&stem, &payload);
                let Value::Object(inner) = inner else {
                    continue;
                };
                for inner_key in inner.keys() {
                    let payload = with(&stem, |m| {
                        m[key.as_str()][inner_key.as_str()] = replacement.clone();
                    });
                    let _ = parse_fixture(&stem, &payload);
                }
            }
        }
    }
}
