//! Every Cursor fixture parses to the expected canonical event; malformed
//! payloads give errors that name the field and never echo content.

use serde_json::{Value, json};

use super::{parse, render};
use crate::testing::{self, Case, Suite};
use crate::{Dialect, EventKind, ToolClass};

pub(super) const SUITE: Suite = Suite {
    dir: "cursor",
    dialect: Dialect::Cursor,
    parse: |_, bytes| parse(bytes),
    render,
};

const SESSION: &str = "74676b03-2f7e-4a1b-9d3c-6e5f4a3b2c1d";
const ROOT: &str = "/Users/dev/acme-web";

const CASES: &[Case] = &[
    ("afterAgentResponse", EventKind::AgentResponse, false, None),
    ("afterAgentThought", EventKind::AgentThought, false, None),
    (
        "afterFileEdit",
        EventKind::FileEdit,
        false,
        Some(("Write", ToolClass::FileWrite)),
    ),
    (
        "afterMCPExecution",
        EventKind::PostToolUse,
        false,
        Some(("query", ToolClass::Mcp)),
    ),
    (
        "afterShellExecution",
        EventKind::PostToolUse,
        false,
        Some(("Shell", ToolClass::Shell)),
    ),
    (
        "afterTabFileEdit",
        EventKind::FileEdit,
        false,
        Some(("TabWrite", ToolClass::FileWrite)),
    ),
    (
        "beforeMCPExecution",
        EventKind::PreToolUse,
        true,
        Some(("query", ToolClass::Mcp)),
    ),
    (
        "beforeReadFile",
        EventKind::FileRead,
        true,
        Some(("Read", ToolClass::FileRead)),
    ),
    (
        "beforeShellExecution",
        EventKind::PreToolUse,
        true,
        Some(("Shell", ToolClass::Shell)),
    ),
    ("beforeSubmitPrompt", EventKind::PromptSubmit, true, None),
    (
        "beforeTabFileRead",
        EventKind::FileRead,
        true,
        Some(("TabRead", ToolClass::FileRead)),
    ),
    (
        "postToolUse",
        EventKind::PostToolUse,
        true,
        Some(("Shell", ToolClass::Shell)),
    ),
    (
        "postToolUseFailure",
        EventKind::ToolFailure,
        false,
        Some(("Read", ToolClass::FileRead)),
    ),
    ("preCompact", EventKind::PreCompact, false, None),
    (
        "preToolUse",
        EventKind::PreToolUse,
        true,
        Some(("Shell", ToolClass::Shell)),
    ),
    ("sessionEnd", EventKind::SessionEnd, false, None),
    ("sessionStart", EventKind::SessionStart, true, None),
    ("stop", EventKind::Stop, true, None),
    (
        "subagentStart",
        EventKind::SubagentStart,
        true,
        Some(("Task", ToolClass::Subagent)),
    ),
    ("subagentStop", EventKind::SubagentStop, true, None),
    ("workspaceOpen", EventKind::Other, false, None),
];

#[test]
fn every_fixture_parses_to_its_canonical_event() {
    SUITE.check_parsed(CASES, |stem, event| {
        assert_eq!(event.native_event, stem);
        assert_eq!(event.agent_version.as_deref(), Some("3.9.16"), "{stem}");
        assert_eq!(event.cwd.as_deref(), Some(ROOT), "{stem}");
        assert_eq!(event.workspace_roots, vec![ROOT.to_owned()], "{stem}");
        let session = (stem != "workspaceOpen").then_some(SESSION);
        assert_eq!(event.session_id.as_deref(), session, "{stem}");
    });
}

#[test]
fn event_specific_fields_are_lifted() {
    let get = |stem: &str| {
        let bytes = testing::fixture(&format!("cursor/{stem}.json"));
        parse(&bytes).unwrap()
    };
    let shell = get("beforeShellExecution").tool.unwrap();
    assert_eq!(
        shell.command.as_deref(),
        Some("git push --force origin main")
    );
    assert_eq!(
        shell.input,
        json!({"command": "git push --force origin main", "cwd": ROOT})
    );

    let mcp = get("beforeMCPExecution").tool.unwrap();
    assert_eq!(
        mcp.input,
        json!({"sql": "DELETE FROM orders WHERE id = 42"})
    );
    assert_eq!(mcp.mcp_server.as_deref(), Some("npx -y @acme/postgres-mcp"));

    let post = get("postToolUse").tool.unwrap();
    assert_eq!(post.duration_ms, Some(728));
    assert_eq!(post.command.as_deref(), Some("npm test -- checkout"));
    assert_eq!(
        post.call_id.as_deref(),
        Some("d024a132-85b4-4c79-80f0-6b2e2fffc1fe")
    );

    let failure = get("postToolUseFailure");
    let failed = failure.tool.unwrap();
    assert_eq!(
        failed.error.as_deref(),
        Some("Reading .env files is blocked by policy.")
    );
    assert_eq!(
        failed.file_path.as_deref(),
        Some("/Users/dev/acme-web/.env")
    );
    assert_eq!(failure.reason.as_deref(), Some("permission_denied"));

    let read = get("beforeReadFile").tool.unwrap();
    assert_eq!(
        read.file_path.as_deref(),
        Some("/Users/dev/acme-web/config/secrets.env")
    );

    let stop = get("stop").stop.unwrap();
    assert_eq!(
        (stop.status.as_deref(), stop.loop_count, stop.continuing),
        (Some("completed"), Some(0), false)
    );

    let prompt = get("beforeSubmitPrompt");
    assert_eq!(
        prompt.prompt.as_deref(),
        Some("Fix the failing checkout test")
    );
    assert!(prompt.capabilities.deny && !prompt.capabilities.context);

    let pre = get("preToolUse").capabilities;
    assert!(pre.deny && pre.input_rewrite && !pre.ask && !pre.context);
    let gate = get("beforeShellExecution").capabilities;
    assert!(gate.deny && gate.ask && !gate.input_rewrite);
}

/// A Cursor fixture after `edit`.
pub(super) fn with(stem: &str, edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> Vec<u8> {
    testing::edited_fixture(&format!("cursor/{stem}.json"), edit)
}

#[test]
fn mcp_tool_input_may_be_an_object_or_non_json_text() {
    let object = with("beforeMCPExecution", |m| {
        m.insert("tool_input".into(), json!({"sql": "SELECT 1"}));
    });
    assert_eq!(
        parse(&object).unwrap().tool.unwrap().input,
        json!({"sql": "SELECT 1"})
    );
    let text = with("beforeMCPExecution", |m| {
        m.insert("tool_input".into(), json!("not json"));
    });
    assert_eq!(parse(&text).unwrap().tool.unwrap().input, json!("not json"));
}

#[test]
fn cwd_and_session_fall_back() {
    // `cwd: ""` (observed) falls back to the first workspace root.
    let event = parse(&testing::fixture("cursor/preToolUse.json")).unwrap();
    assert_eq!(event.cwd.as_deref(), Some(ROOT));
    let explicit = with("beforeShellExecution", |m| {
        m.insert("cwd".into(), json!("/tmp/elsewhere"));
        m.remove("conversation_id");
        m.insert("session_id".into(), json!("s-2"));
    });
    let event = parse(&explicit).unwrap();
    assert_eq!(event.cwd.as_deref(), Some("/tmp/elsewhere"));
    assert_eq!(event.session_id.as_deref(), Some("s-2"));
}

#[test]
fn subagent_followup_only_after_a_completed_run() {
    let failed = with("subagentStop", |m| {
        m.insert("status".into(), json!("error"));
    });
    let event = parse(&failed).unwrap();
    assert!(!event.capabilities.followup);
    assert!(!event.blocking);
    let looping = with("stop", |m| {
        m.insert("loop_count".into(), json!(2));
    });
    let stop = parse(&looping).unwrap().stop.unwrap();
    assert!(stop.continuing);
}

#[test]
fn unknown_events_are_other_and_not_blocking() {
    let event = parse(br#"{"hook_event_name":"afterSomethingNew","conversation_id":"c"}"#).unwrap();
    assert_eq!(event.kind, EventKind::Other);
    assert!(!event.blocking);
    assert_eq!(event.native_event, "afterSomethingNew");
}
