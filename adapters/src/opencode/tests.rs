//! OpenCode adapter tests over the documents hookgate's plugin sent from
//! the real CLI (1.18.33) in test_data/opencode: parsed and rendered
//! goldens, what the plugin can apply, and the fallback replies.

use serde_json::json;

use super::PROTOCOL;
use crate::fallback;
use crate::testing::{Case, Suite, check_tool_classes, claude_protocol, stdout_json};
use crate::{Decision, Dialect, EventKind as K, FailMode, HookEvent, Loss, ToolClass};

const SUITE: Suite = Suite {
    dir: "opencode",
    dialect: Dialect::OpenCode,
    parse: |_, bytes| PROTOCOL.parse(bytes),
    render: |event, decision| PROTOCOL.render(event, decision),
};

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(json!({"command": "npm test -- --ci", "description": "Run the tests"}))
}

fn event(stem: &str) -> HookEvent {
    SUITE.event(stem)
}

const SHELL: Option<(&str, ToolClass)> = Some(("bash", ToolClass::Shell));

#[rustfmt::skip]
const CASES: [Case; 5] = [
    ("chat.message", K::PromptSubmit, true, None),
    ("session.created", K::SessionStart, false, None),
    ("session.idle", K::Stop, false, None),
    ("tool.execute.after", K::PostToolUse, true, SHELL),
    ("tool.execute.before", K::PreToolUse, true, SHELL),
];

#[test]
fn captured_payloads_parse() {
    SUITE.check_parsed(&CASES, |stem, event| {
        assert!(
            event.session_id.as_deref().unwrap().starts_with("ses_"),
            "{stem}"
        );
        assert!(event.cwd.is_some(), "{stem}");
    });
    let pre = event("tool.execute.before");
    let tool = pre.tool.as_ref().unwrap();
    assert_eq!(tool.command.as_deref(), Some("echo orig > orig.txt"));
    assert_eq!(tool.call_id.as_deref(), Some("call_1"));
    assert!(event("chat.message").prompt.is_some());
}

#[test]
fn replies_golden() {
    SUITE.check_replies(&samples());
}

/// The plugin's documents say OpenCode by their dotted hook names alone.
#[test]
fn captured_payloads_are_detected_as_opencode_without_a_hint() {
    SUITE.check_detected(&["OPENCODE", "OPENCODE_PID"], None);
    SUITE.check_detected(&[], None);
}

/// What the plugin applies on `tool.execute.before`: deny, rewrite and
/// context; ask and halt have no place in OpenCode's plugin API.
#[test]
fn pre_tool_applies_deny_rewrite_and_context_but_not_ask_or_halt() {
    let pre = event("tool.execute.before");
    let deny = stdout_json(&SUITE.rendered(&pre, &samples()[2].1));
    assert_eq!(deny["hookSpecificOutput"]["permissionDecision"], "deny");
    let rewrite = SUITE.rendered(&pre, &samples()[5].1);
    assert!(rewrite.losses.is_empty(), "{:?}", rewrite.losses);
    assert_eq!(
        stdout_json(&rewrite)["hookSpecificOutput"]["updatedInput"]["command"],
        "npm test -- --ci"
    );
    let context = SUITE.rendered(&pre, &samples()[4].1);
    assert!(context.losses.is_empty(), "{:?}", context.losses);
    assert!(
        SUITE
            .rendered(&pre, &samples()[3].1)
            .losses
            .contains(&Loss::Ask)
    );
    assert!(
        SUITE
            .rendered(&pre, &samples()[6].1)
            .losses
            .contains(&Loss::Halt)
    );
}

#[test]
fn tool_classes() {
    check_tool_classes(
        super::tools::tool_class,
        &[
            ("bash", ToolClass::Shell),
            ("read", ToolClass::FileRead),
            ("write", ToolClass::FileWrite),
            ("edit", ToolClass::FileWrite),
            ("grep", ToolClass::Search),
            ("glob", ToolClass::Search),
            ("webfetch", ToolClass::Web),
            ("task", ToolClass::Subagent),
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
        Some(Dialect::OpenCode),
        Some("command.execute.before"),
        FailMode::Closed,
        "x",
    );
    assert_eq!(unknown.exit_code, 2, "an unknown event blocks where it can");
}
