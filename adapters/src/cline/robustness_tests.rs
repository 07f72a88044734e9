//! Malformed Cline payloads (both dialects): errors name the field and
//! never echo content, and no input makes the parsers panic.

use serde_json::json;

use super::parse_tests::{parse_fixture, with};
use super::{parse_legacy, parse_sdk};
use crate::testing::{self, wrong};
use crate::{Dialect, ParseErrorKind};

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

/// Every truncation and retyped field of every fixture: the parser
/// returns and never panics.
#[test]
fn never_panics_on_truncated_or_retyped_fields() {
    testing::never_panics_on_truncated_or_retyped_fields("cline", parse_fixture);
}
