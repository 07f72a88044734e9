//! Qwen Code adapter tests over the payloads captured from the real CLI
//! (0.24.4) in test_data/qwen-code: parsed and rendered goldens, the losses
//! measured there, and the fallback replies.

use serde_json::json;

use super::PROTOCOL;
use crate::testing::{self, Case, check_parsed_fixtures, check_replies, claude_protocol, fixture};
use crate::{
    Decision, Dialect, EventKind as K, FailMode, HookEvent, Loss, Permission, ToolClass, detect,
    fallback,
};

fn parse(payload: &[u8]) -> Result<HookEvent, crate::ParseError> {
    PROTOCOL.parse(payload)
}

fn render(event: &HookEvent, decision: &Decision) -> crate::Rendered {
    PROTOCOL.render(event, decision)
}

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(json!({"command": "npm test -- --ci", "is_background": false}))
}

fn event(stem: &str) -> HookEvent {
    parse(&fixture(&format!("qwen-code/{stem}.json"))).unwrap()
}

const SHELL: Option<(&str, ToolClass)> = Some(("run_shell_command", ToolClass::Shell));

#[rustfmt::skip]
const CASES: [Case; 7] = [
    ("Notification", K::Notification, false, None),
    ("PostToolUse", K::PostToolUse, false, SHELL),
    ("PreToolUse", K::PreToolUse, true, SHELL),
    ("SessionStart", K::SessionStart, false, None),
    ("Stop", K::Stop, true, None),
    ("UserPromptSubmit", K::PromptSubmit, true, None),
    ("UserPromptSubmit.continuation", K::PromptSubmit, true, None),
];

#[test]
fn captured_payloads_parse() {
    check_parsed_fixtures(
        "qwen-code",
        &CASES,
        |_, bytes| parse(bytes),
        |stem, event| {
            assert_eq!(event.dialect, Dialect::QwenCode, "{stem}");
            assert!(event.session_id.is_some(), "{stem}");
        },
    );
    let pre = event("PreToolUse");
    let tool = pre.tool.as_ref().unwrap();
    assert!(tool.command.as_deref().unwrap().starts_with("touch "));
    assert!(tool.call_id.as_deref().unwrap().starts_with("toolu_"));
    // The continuation before the tool-result turn has `prompt: ""`: no
    // prompt, so prompt policies do not judge an empty one.
    assert_eq!(event("UserPromptSubmit.continuation").prompt, None);
    assert!(event("UserPromptSubmit").prompt.is_some());
}

#[test]
fn replies_golden() {
    check_replies("qwen-code", parse, render, &samples());
}

#[test]
fn captured_payloads_are_detected_as_qwen_without_a_hint() {
    for (stem, bytes) in testing::fixtures("qwen-code") {
        // From the payload alone, and from the variables alone (Qwen also
        // sets GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR).
        let by_payload = detect(&bytes, None, &["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"]);
        assert_eq!(by_payload.unwrap().dialect, Dialect::QwenCode, "{stem}");
        let stripped = testing::edited_fixture(&format!("qwen-code/{stem}.json"), |map| {
            map.remove("timestamp");
        });
        let by_env = detect(&stripped, None, &["QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR"]);
        assert_eq!(by_env.unwrap().dialect, Dialect::QwenCode, "{stem}");
    }
}

/// Measured on 0.24.4: PreToolUse ignores `updatedInput` and
/// `additionalContext`; deny, ask and halt work as in Claude Code.
#[test]
fn pre_tool_use_loses_rewrite_and_context() {
    let pre = event("PreToolUse");
    let rewrite = render(&pre, &samples()[5].1);
    assert_eq!(rewrite.losses, [Loss::InputRewrite]);
    assert!(rewrite.reply.stdout.is_empty(), "nothing Qwen would read");
    let context = render(&pre, &samples()[4].1);
    assert_eq!(context.losses, [Loss::Context]);
    let deny = render(&pre, &samples()[2].1);
    let reply = testing::stdout_json(&deny);
    assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], "deny");
    let ask = Decision {
        permission: Permission::Ask,
        ..Decision::default()
    };
    let ask = testing::stdout_json(&render(&pre, &ask));
    assert_eq!(ask["hookSpecificOutput"]["permissionDecision"], "ask");
}

#[test]
fn tool_classes() {
    for (name, class) in [
        ("run_shell_command", ToolClass::Shell),
        ("read_file", ToolClass::FileRead),
        ("write_file", ToolClass::FileWrite),
        ("edit", ToolClass::FileWrite),
        ("grep_search", ToolClass::Search),
        ("glob", ToolClass::Search),
        ("web_fetch", ToolClass::Web),
        ("agent", ToolClass::Subagent),
        ("mcp__github__create_issue", ToolClass::Mcp),
        ("skill", ToolClass::Other),
        ("Bash", ToolClass::Other),
    ] {
        assert_eq!(super::tools::tool_class(name), class, "{name}");
    }
}

/// Fail-closed blocks exactly where a deny can be said; fail-open is the
/// neutral reply.
#[test]
fn fallback_agrees_with_the_capabilities() {
    claude_protocol::check_fallback_agrees(&PROTOCOL);
    let unknown = fallback(
        Some(Dialect::QwenCode),
        Some("TodoCreated"),
        FailMode::Closed,
        "x",
    );
    assert_eq!(unknown.exit_code, 2, "an unknown event blocks where it can");
}
