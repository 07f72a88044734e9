//! Every Cline fixture (SDK and `legacy.*`) parses to the expected
//! canonical event; malformed payloads give errors that name the field and
//! never echo content.

use serde_json::{Map, Value, json};

use super::{parse_legacy, parse_sdk};
use crate::testing::{self, Case, fixture};
use crate::{Dialect, EventKind, HookEvent, ParseError, ToolClass};

const ROOT: &str = "/home/dev/acme-api";

const CASES: &[Case] = &[
    ("agent_abort", EventKind::TaskAbort, false, None),
    ("agent_end", EventKind::TaskComplete, false, None),
    ("agent_error", EventKind::TaskError, false, None),
    ("agent_resume", EventKind::SessionResume, false, None),
    ("agent_start", EventKind::SessionStart, false, None),
    ("legacy.Notification", EventKind::Notification, false, None),
    (
        "legacy.PostToolUse",
        EventKind::PostToolUse,
        true,
        Some(("execute_command", ToolClass::Shell)),
    ),
    ("legacy.PreCompact", EventKind::PreCompact, false, None),
    (
        "legacy.PreToolUse",
        EventKind::PreToolUse,
        true,
        Some(("write_to_file", ToolClass::FileWrite)),
    ),
    ("legacy.TaskCancel", EventKind::TaskAbort, false, None),
    ("legacy.TaskComplete", EventKind::TaskComplete, false, None),
    ("legacy.TaskResume", EventKind::SessionResume, false, None),
    ("legacy.TaskStart", EventKind::SessionStart, true, None),
    (
        "legacy.UserPromptSubmit",
        EventKind::PromptSubmit,
        true,
        None,
    ),
    ("pre_compact", EventKind::PreCompact, false, None),
    ("prompt_submit", EventKind::PromptSubmit, false, None),
    ("session_shutdown", EventKind::SessionEnd, false, None),
    (
        "tool_call",
        EventKind::PreToolUse,
        true,
        Some(("run_commands", ToolClass::Shell)),
    ),
    (
        "tool_result",
        EventKind::PostToolUse,
        true,
        Some(("run_commands", ToolClass::Shell)),
    ),
    (
        "session_shutdown.no_reason",
        EventKind::SessionEnd,
        false,
        None,
    ),
    // A failing command is no `tool_failure`: Cline sets no
    // `tool_result.error`, only `success: false` in each output entry.
    (
        "tool_result.failed_command",
        EventKind::PostToolUse,
        true,
        Some(("run_commands", ToolClass::Shell)),
    ),
    (
        "tool_result.output_list",
        EventKind::PostToolUse,
        true,
        Some(("run_commands", ToolClass::Shell)),
    ),
];

/// The payloads captured from the real Cline CLI 3.0.65
/// (`<event>.<variant>`), with their own session and work dir and no
/// version: the CLI always sends `clineVersion: ""`.
const CAPTURED: &[(&str, &str, &str)] = &[
    (
        "session_shutdown.no_reason",
        "1796019334431_fy90a",
        "/tmp/agents/runs/cline-cancel/work",
    ),
    (
        "tool_result.failed_command",
        "1796018977382_o0x7a",
        "/tmp/agents/runs/cline-failcmd/work",
    ),
    (
        "tool_result.output_list",
        "1796019325072_s134f",
        "/tmp/agents/runs/cline-baseline/work",
    ),
];

/// Parses a fixture by its file name: `legacy.*` is the legacy dialect.
pub(super) fn parse_fixture(stem: &str, bytes: &[u8]) -> Result<HookEvent, ParseError> {
    if stem.starts_with("legacy.") {
        parse_legacy(bytes)
    } else {
        parse_sdk(bytes)
    }
}

pub(super) fn event(stem: &str) -> HookEvent {
    parse_fixture(stem, &fixture(&format!("cline/{stem}.json"))).unwrap()
}

#[test]
fn every_fixture_parses_to_its_canonical_event() {
    testing::check_parsed_fixtures("cline", CASES, parse_fixture, |stem, event| {
        let captured = CAPTURED.iter().find(|(name, _, _)| *name == stem);
        let (dialect, native, session, version, cwd) =
            match (stem.strip_prefix("legacy."), captured) {
                (Some(native), _) => (
                    Dialect::ClineLegacy,
                    native,
                    "1755685867412",
                    Some("3.36.0"),
                    ROOT,
                ),
                (None, Some((_, session, cwd))) => {
                    let native = stem.split_once('.').map_or(stem, |(native, _)| native);
                    (Dialect::ClineSdk, native, *session, None, *cwd)
                }
                (None, None) => (
                    Dialect::ClineSdk,
                    stem,
                    "sess_01J9ZQ4X7K2M8N3P5R6T",
                    Some("2.4.0"),
                    ROOT,
                ),
            };
        assert_eq!(event.dialect, dialect, "{stem}");
        assert_eq!(event.native_event, native);
        assert_eq!(event.session_id.as_deref(), Some(session), "{stem}");
        assert_eq!(event.agent_version.as_deref(), version, "{stem}");
        assert_eq!(event.cwd.as_deref(), Some(cwd), "{stem}");
    });
}

#[test]
fn event_specific_fields_are_lifted() {
    let call = event("tool_call");
    assert!(call.capabilities.deny && call.capabilities.input_rewrite && !call.capabilities.ask);
    let tool = call.tool.unwrap();
    assert_eq!(tool.command.as_deref(), Some("npm test"));
    assert_eq!(tool.call_id.as_deref(), Some("call_7f3a9b"));
    assert_eq!(tool.input, json!({"commands": ["npm test"]}));

    let result = event("tool_result").tool.unwrap();
    assert_eq!(
        result.output.as_deref(),
        Some("PASS src/orders.test.ts (12 tests)")
    );
    assert_eq!(result.duration_ms, Some(4187));
    assert_eq!(result.error, None);
    // The real CLI's failing command: the error is only in the output list.
    let failed = event("tool_result.failed_command").tool.unwrap();
    assert_eq!(failed.error, None);
    assert!(failed.output.unwrap().contains(r#""success":false"#));

    assert_eq!(
        event("agent_error").reason.as_deref(),
        Some("Provider returned 500 Internal Server Error")
    );
    assert_eq!(
        event("prompt_submit").prompt.as_deref(),
        Some("Add input validation to the /orders endpoint")
    );
    assert_eq!(
        event("agent_end").text.as_deref(),
        Some("Validation added; all tests pass.")
    );

    let pre = event("legacy.PreToolUse");
    assert_eq!(pre.model.as_deref(), Some("claude-sonnet-4-5"));
    assert_eq!(
        pre.tool.unwrap().file_path.as_deref(),
        Some("src/validate.js")
    );
    assert!(!pre.capabilities.input_rewrite);
    let post = event("legacy.PostToolUse").tool.unwrap();
    assert_eq!(
        (post.command.as_deref(), post.duration_ms),
        (Some("npm test"), Some(3450))
    );
    assert_eq!(
        event("legacy.TaskStart").prompt.as_deref(),
        Some("Add input validation to the /orders endpoint")
    );
    assert_eq!(
        event("legacy.Notification").reason.as_deref(),
        Some("Cline has a question for you")
    );
}

/// A Cline fixture after `edit`.
pub(super) fn with(stem: &str, edit: impl FnOnce(&mut Map<String, Value>)) -> Vec<u8> {
    testing::edited_fixture(&format!("cline/{stem}.json"), edit)
}

#[test]
fn tools_are_classified_from_sdk_and_legacy_shapes() {
    let sdk = |name: &str, input: Value| {
        let payload = with("tool_call", |m| {
            m.insert(
                "tool_call".into(),
                json!({"id": "c1", "name": name, "input": input}),
            );
        });
        parse_sdk(&payload).unwrap().tool.unwrap()
    };
    let many = sdk("run_commands", json!({"commands": ["npm ci", "npm test"]}));
    assert_eq!(many.command.as_deref(), Some("npm ci\nnpm test"));
    let read = sdk(
        "read_files",
        json!({"files": [{"path": "a.ts"}, {"path": "b.ts"}]}),
    );
    assert_eq!(
        (read.class, read.file_path.as_deref()),
        (ToolClass::FileRead, Some("a.ts"))
    );
    assert_eq!(read.paths, ["a.ts", "b.ts"], "every file, not the first");
    let patch =
        "*** Begin Patch\n*** Update File: src/a.ts\n@@\n*** Add File: .env\n+X=1\n*** End Patch";
    assert_eq!(
        sdk("apply_patch", json!({ "input": patch })).paths,
        ["src/a.ts", ".env"]
    );
    let edit = sdk("editor", json!({"command": "create", "path": "src/x.ts"}));
    assert_eq!(
        (edit.class, edit.file_path.as_deref()),
        (ToolClass::FileWrite, Some("src/x.ts"))
    );
    assert_eq!(
        sdk("apply_patch", json!({"input": "*** Begin Patch"})).class,
        ToolClass::FileWrite
    );
    assert_eq!(
        sdk("search_codebase", json!({"queries": ["x"]})).class,
        ToolClass::Search
    );
    assert_eq!(
        sdk("fetch_web_content", json!({"requests": []})).class,
        ToolClass::Web
    );
    assert_eq!(sdk("ask_question", json!({})).class, ToolClass::Other);
    let mcp = sdk("mcp__github__create_issue", json!({}));
    assert_eq!(
        (mcp.class, mcp.mcp_server.as_deref()),
        (ToolClass::Mcp, Some("github"))
    );

    // Without `tool_call`, the legacy-style mirror (stringified values).
    let mirror = with("tool_call", |m| {
        m.remove("tool_call");
    });
    let tool = parse_sdk(&mirror).unwrap().tool.unwrap();
    assert_eq!(
        (tool.name.as_str(), tool.command.as_deref()),
        ("run_commands", Some("npm test"))
    );

    let legacy_mcp = with("legacy.PreToolUse", |m| {
        m.insert(
            "preToolUse".into(),
            json!({"toolName": "use_mcp_tool", "parameters": {"server_name": "db", "tool_name": "q", "arguments": "{\"path\": \".env\"}"}}),
        );
    });
    let tool = parse_legacy(&legacy_mcp).unwrap().tool.unwrap();
    assert_eq!(
        (
            tool.class,
            tool.mcp_server.as_deref(),
            tool.paths.as_slice()
        ),
        (ToolClass::Mcp, Some("db"), [".env".to_owned()].as_slice())
    );
}

#[test]
fn failed_tools_are_tool_failures() {
    let sdk = with("tool_result", |m| {
        m["tool_result"]["error"] = json!("exit code 1");
    });
    let event = parse_sdk(&sdk).unwrap();
    assert_eq!(event.kind, EventKind::ToolFailure);
    assert_eq!(event.tool.unwrap().error.as_deref(), Some("exit code 1"));
    let legacy = with("legacy.PostToolUse", |m| {
        m["postToolUse"]["success"] = json!(false);
    });
    let event = parse_legacy(&legacy).unwrap();
    assert_eq!(event.kind, EventKind::ToolFailure);
    assert_eq!(
        event.tool.unwrap().error.as_deref(),
        Some("All tests passed")
    );
}

#[test]
fn session_and_cwd_fall_back_and_subagents_are_named() {
    let payload = with("tool_call", |m| {
        m.remove("sessionContext");
        m.remove("workspaceInfo");
        m.insert("parent_agent_id".into(), json!("agent_parent"));
    });
    let event = parse_sdk(&payload).unwrap();
    assert_eq!(
        event.session_id.as_deref(),
        Some("sess_01J9ZQ4X7K2M8N3P5R6T")
    );
    assert_eq!(event.cwd.as_deref(), Some(ROOT));
    assert_eq!(event.subagent_id.as_deref(), Some("agent_01J9ZQ4XAB"));
    assert_eq!(
        parse_sdk(&fixture("cline/tool_call.json"))
            .unwrap()
            .subagent_id,
        None
    );
}

#[test]
fn unknown_events_are_other_and_not_blocking() {
    for event in [
        parse_sdk(br#"{"hookName":"something_new","taskId":"t"}"#).unwrap(),
        parse_legacy(br#"{"hookName":"SomethingNew","taskId":"t"}"#).unwrap(),
    ] {
        assert_eq!(event.kind, EventKind::Other);
        assert!(!event.blocking);
    }
}
