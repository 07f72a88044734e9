//! Factory Droid adapter tests over the payloads captured from the real
//! CLI (0.225.2) in test_data/droid: parsed and rendered goldens, the
//! losses measured there, and the fallback replies.

use serde_json::json;

use super::PROTOCOL;
use crate::testing::{self, Case, Suite, check_tool_classes, claude_protocol, stdout_json};
use crate::{Decision, Dialect, EventKind as K, HookEvent, Loss, ToolClass, detect};

const SUITE: Suite = Suite {
    dir: "droid",
    dialect: Dialect::Droid,
    parse: |_, bytes| PROTOCOL.parse(bytes),
    render: |event, decision| PROTOCOL.render(event, decision),
};

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(
        json!({"command": "npm test -- --ci", "summary": "tests", "riskLevel": "low",
                        "riskLevelReason": "read-only"}),
    )
}

fn event(stem: &str) -> HookEvent {
    SUITE.event(stem)
}

const SHELL: Option<(&str, ToolClass)> = Some(("Execute", ToolClass::Shell));

#[rustfmt::skip]
const CASES: [Case; 5] = [
    ("PostToolUse", K::PostToolUse, false, SHELL),
    ("PreToolUse", K::PreToolUse, true, SHELL),
    ("SessionEnd", K::SessionEnd, false, None),
    ("SessionStart", K::SessionStart, false, None),
    ("Stop", K::Stop, true, None),
];

#[test]
fn captured_payloads_parse() {
    SUITE.check_parsed(&CASES, |stem, event| {
        assert!(event.cwd.is_some(), "{stem}");
    });
    let post = event("PostToolUse");
    let tool = post.tool.as_ref().unwrap();
    assert!(tool.command.as_deref().unwrap().starts_with("touch "));
    assert!(
        tool.output
            .as_deref()
            .unwrap()
            .contains("exited with code 0")
    );
}

#[test]
fn replies_golden() {
    SUITE.check_replies(&samples());
}

#[test]
fn captured_payloads_are_detected_as_droid_without_a_hint() {
    // Droid sets CLAUDE_PROJECT_DIR too, which proves nothing.
    SUITE.check_detected(&["CLAUDE_PROJECT_DIR", "FACTORY_PROJECT_DIR"], None);
    SUITE.check_detected(&["CLAUDE_PROJECT_DIR"], None);
    let claude = testing::edited_fixture("droid/PreToolUse.json", |map| {
        map.insert("permission_mode".into(), json!("default"));
    });
    let detected = detect(&claude, None, &["CLAUDE_PROJECT_DIR"]).unwrap();
    assert_eq!(
        detected.dialect,
        Dialect::ClaudeCode,
        "no Droid marker left"
    );
}

/// Measured on 0.225.2 under `--auto high`: an ask lets the tool run, so it
/// is rendered as a deny; PreToolUse context is not delivered; a rewrite
/// (`updatedInput`) is applied.
#[test]
fn pre_tool_use_answers() {
    let pre = event("PreToolUse");
    let ask = SUITE.rendered(&pre, &samples()[3].1);
    assert_eq!(ask.losses, [Loss::Ask]);
    let reply = stdout_json(&ask);
    assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], "deny");
    let context = SUITE.rendered(&pre, &samples()[4].1);
    assert_eq!(context.losses, [Loss::Context]);
    let rewrite = SUITE.rendered(&pre, &samples()[5].1);
    assert!(rewrite.losses.is_empty(), "{:?}", rewrite.losses);
    let reply = stdout_json(&rewrite);
    assert_eq!(
        reply["hookSpecificOutput"]["updatedInput"]["command"],
        "npm test -- --ci"
    );
    let post = SUITE.rendered(&event("PostToolUse"), &samples()[4].1);
    let reply = stdout_json(&post);
    assert_eq!(
        reply["hookSpecificOutput"]["additionalContext"],
        "Deploy target: staging."
    );
}

#[test]
fn tool_classes() {
    check_tool_classes(
        super::tools::tool_class,
        &[
            ("Execute", ToolClass::Shell),
            ("Read", ToolClass::FileRead),
            ("Create", ToolClass::FileWrite),
            ("Edit", ToolClass::FileWrite),
            ("LS", ToolClass::Search),
            ("Grep", ToolClass::Search),
            ("Glob", ToolClass::Search),
            ("Task", ToolClass::Subagent),
            ("mcp__linear__list_issues", ToolClass::Mcp),
            ("Skill", ToolClass::Other),
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
