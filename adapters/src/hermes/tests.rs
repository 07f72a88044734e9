//! Hermes Agent adapter tests over the payloads captured from the real CLI
//! (0.19.0) in test_data/hermes: parsed and rendered goldens, the answers
//! measured there, detection and the fallback replies.

use serde_json::json;

use super::{PROTOCOL, parse, render};
use crate::testing::{Case, Suite, check_tool_classes, claude_protocol, stdout_json};
use crate::{Decision, Dialect, EventKind as K, HookEvent, Loss, ToolClass, detect};

const SUITE: Suite = Suite {
    dir: "hermes",
    dialect: Dialect::Hermes,
    parse: |_, bytes| parse(bytes),
    render,
};

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(json!({"command": "npm test -- --ci"}))
}

fn sample(name: &str) -> Decision {
    samples()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, decision)| decision)
        .unwrap_or_else(|| panic!("no sample {name}"))
}

fn event(stem: &str) -> HookEvent {
    SUITE.event(stem)
}

const SHELL: Option<(&str, ToolClass)> = Some(("terminal", ToolClass::Shell));

#[rustfmt::skip]
const CASES: [Case; 7] = [
    ("on_session_end", K::Stop, false, None),
    ("on_session_finalize", K::SessionEnd, false, None),
    ("on_session_start", K::SessionStart, false, None),
    ("post_llm_call", K::AgentResponse, false, None),
    ("post_tool_call", K::PostToolUse, false, SHELL),
    ("pre_llm_call", K::PromptSubmit, true, None),
    ("pre_tool_call", K::PreToolUse, true, SHELL),
];

#[test]
fn captured_payloads_parse() {
    SUITE.check_parsed(&CASES, |stem, event| {
        assert!(event.cwd.is_some(), "{stem}");
        assert!(event.session_id.is_some(), "{stem}");
    });
    let pre = event("pre_tool_call");
    let tool = pre.tool.as_ref().unwrap();
    assert!(tool.command.as_deref().unwrap().starts_with("echo hi"));
    assert_eq!(tool.call_id.as_deref(), Some("call_1"));
    let post = event("post_tool_call");
    let tool = post.tool.as_ref().unwrap();
    assert!(tool.output.as_deref().unwrap().contains("exit_code"));
    assert!(tool.duration_ms.is_some());
    assert_eq!(event("pre_llm_call").prompt.as_deref(), Some("run it"));
    assert_eq!(event("post_llm_call").text.as_deref(), Some("done"));
    assert_eq!(
        event("on_session_finalize").reason.as_deref(),
        Some("shutdown")
    );
    let end = event("on_session_end");
    assert_eq!(end.stop.unwrap().status.as_deref(), Some("completed"));
    assert_eq!(event("on_session_start").model.as_deref(), Some("fake"));
}

#[test]
fn replies_golden() {
    SUITE.check_replies(&samples());
}

#[test]
fn captured_payloads_are_detected_as_hermes_without_a_hint() {
    SUITE.check_detected(&["HERMES_HOME", "HERMES_SESSION_ID"], None);
    SUITE.check_detected(&[], None);
    // Without `extra`, the variables still say Hermes.
    SUITE.check_detected(&["HERMES_SESSION_ID"], Some("extra"));
    let bare = crate::testing::edited_fixture("hermes/pre_tool_call.json", |map| {
        map.remove("extra");
    });
    assert!(detect(&bare, None, &[]).map(|d| d.dialect) != Ok(Dialect::Hermes));
}

/// Measured on 0.19.0: a block stops the tool and the model reads the
/// reason as its result; `pre_llm_call` context reaches the model
/// appended to the user's message; nothing else is read.
#[test]
fn pre_tool_call_and_pre_llm_call_answers() {
    let pre = event("pre_tool_call");
    let deny = SUITE.rendered(&pre, &sample("deny"));
    assert!(deny.losses.is_empty(), "{:?}", deny.losses);
    let reply = stdout_json(&deny);
    assert_eq!(reply["decision"], "block");
    assert!(
        reply["reason"]
            .as_str()
            .unwrap()
            .contains("Production database")
    );
    assert_eq!(deny.reply.exit_code, 0);
    let ask = SUITE.rendered(&pre, &sample("ask"));
    assert_eq!(ask.losses, [Loss::Ask]);
    assert_eq!(stdout_json(&ask)["decision"], "block");
    let allow = SUITE.rendered(&pre, &sample("allow"));
    assert_eq!(allow.losses, [Loss::Allow]);
    assert!(allow.reply.stdout.is_empty());
    let rewrite = SUITE.rendered(&pre, &sample("rewrite"));
    assert_eq!(rewrite.losses, [Loss::InputRewrite]);
    let halt = SUITE.rendered(&pre, &sample("halt"));
    assert_eq!(halt.losses, [Loss::Halt]);
    assert_eq!(stdout_json(&halt)["decision"], "block");
    let context = SUITE.rendered(&pre, &sample("context"));
    assert_eq!(context.losses, [Loss::Context]);

    let llm = event("pre_llm_call");
    let context = SUITE.rendered(&llm, &sample("context"));
    assert!(context.losses.is_empty(), "{:?}", context.losses);
    assert_eq!(stdout_json(&context)["context"], "Deploy target: staging.");
    let deny = SUITE.rendered(&llm, &sample("deny"));
    assert_eq!(deny.losses, [Loss::Deny]);
    let start = SUITE.rendered(&event("on_session_start"), &sample("context"));
    assert_eq!(start.losses, [Loss::Context]);
}

#[test]
fn pre_verify_keeps_going_with_the_followup() {
    let verify = parse(br#"{"hook_event_name":"pre_verify","session_id":"s","cwd":"/"}"#).unwrap();
    let rendered = SUITE.rendered(&verify, &sample("followup"));
    assert!(rendered.losses.is_empty(), "{:?}", rendered.losses);
    let reply = stdout_json(&rendered);
    assert_eq!(reply["decision"], "block");
    assert_eq!(reply["reason"], "Run the test suite again.");
}

#[test]
fn file_tools_name_their_path() {
    let read = parse(
        br#"{"hook_event_name":"pre_tool_call","tool_name":"read_file","tool_input":{"path":".env"},"session_id":"s","cwd":"/w","extra":{}}"#,
    )
    .unwrap();
    let tool = read.tool.unwrap();
    assert_eq!(tool.class, ToolClass::FileRead);
    assert_eq!(tool.file_path.as_deref(), Some(".env"));
}

#[test]
fn tool_classes() {
    check_tool_classes(
        super::tools::tool_class,
        &[
            ("terminal", ToolClass::Shell),
            ("read_file", ToolClass::FileRead),
            ("write_file", ToolClass::FileWrite),
            ("patch", ToolClass::FileWrite),
            ("search_files", ToolClass::Search),
            ("web_search", ToolClass::Web),
            ("delegate_task", ToolClass::Subagent),
            ("execute_code", ToolClass::Other),
            ("Bash", ToolClass::Other),
        ],
    );
}

/// Fail-closed blocks exactly where a deny can be said; fail-open is the
/// neutral reply.
#[test]
fn fallback_agrees_with_the_capabilities() {
    SUITE.check_fallback(PROTOCOL.dialect.descriptor().events, |_, parsed| {
        parsed.capabilities.deny
    });
}
