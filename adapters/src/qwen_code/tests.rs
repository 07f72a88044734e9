//! Qwen Code adapter tests over the payloads captured from the real CLI
//! (0.24.4) in test_data/qwen-code: parsed and rendered goldens, the losses
//! measured there, and the fallback replies.

use serde_json::json;

use super::PROTOCOL;
use crate::fallback;
use crate::testing::{Case, Suite, check_tool_classes, claude_protocol, stdout_json};
use crate::{Decision, Dialect, EventKind as K, FailMode, HookEvent, Loss, Permission, ToolClass};

const SUITE: Suite = Suite {
    dir: "qwen-code",
    dialect: Dialect::QwenCode,
    parse: |_, bytes| PROTOCOL.parse(bytes),
    render: |event, decision| PROTOCOL.render(event, decision),
};

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(json!({"command": "npm test -- --ci", "is_background": false}))
}

fn event(stem: &str) -> HookEvent {
    SUITE.event(stem)
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
    SUITE.check_parsed(&CASES, |stem, event| {
        assert!(event.session_id.is_some(), "{stem}");
    });
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
    SUITE.check_replies(&samples());
}

/// From the payload alone, and from the variables alone (Qwen also sets
/// GEMINI_PROJECT_DIR and CLAUDE_PROJECT_DIR).
#[test]
fn captured_payloads_are_detected_as_qwen_without_a_hint() {
    SUITE.check_detected(&["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"], None);
    SUITE.check_detected(
        &["QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR"],
        Some("timestamp"),
    );
}

/// Measured on 0.24.4: PreToolUse ignores `updatedInput` and
/// `additionalContext`; deny, ask and halt work as in Claude Code.
#[test]
fn pre_tool_use_loses_rewrite_and_context() {
    let pre = event("PreToolUse");
    let rewrite = SUITE.rendered(&pre, &samples()[5].1);
    assert_eq!(rewrite.losses, [Loss::InputRewrite]);
    assert!(rewrite.reply.stdout.is_empty(), "nothing Qwen would read");
    let context = SUITE.rendered(&pre, &samples()[4].1);
    assert_eq!(context.losses, [Loss::Context]);
    let deny = SUITE.rendered(&pre, &samples()[2].1);
    let reply = stdout_json(&deny);
    assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], "deny");
    let ask = Decision {
        permission: Permission::Ask,
        ..Decision::default()
    };
    let ask = stdout_json(&SUITE.rendered(&pre, &ask));
    assert_eq!(ask["hookSpecificOutput"]["permissionDecision"], "ask");
}

#[test]
fn tool_classes() {
    check_tool_classes(
        super::tools::tool_class,
        &[
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
    let unknown = fallback(
        Some(Dialect::QwenCode),
        Some("TodoCreated"),
        FailMode::Closed,
        "x",
    );
    assert_eq!(unknown.exit_code, 2, "an unknown event blocks where it can");
}
