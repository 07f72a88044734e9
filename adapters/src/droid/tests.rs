//! Factory Droid adapter tests over the payloads captured from the real
//! CLI (0.225.2) in test_data/droid: parsed and rendered goldens, the
//! losses measured there, and the fallback replies.

use serde_json::json;

use super::PROTOCOL;
use crate::testing::{self, Case, check_parsed_fixtures, check_replies, claude_protocol, fixture};
use crate::{Decision, Dialect, EventKind as K, HookEvent, Loss, ToolClass, detect};

fn parse(payload: &[u8]) -> Result<HookEvent, crate::ParseError> {
    PROTOCOL.parse(payload)
}

fn render(event: &HookEvent, decision: &Decision) -> crate::Rendered {
    PROTOCOL.render(event, decision)
}

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(
        json!({"command": "npm test -- --ci", "summary": "tests", "riskLevel": "low",
                        "riskLevelReason": "read-only"}),
    )
}

fn event(stem: &str) -> HookEvent {
    parse(&fixture(&format!("droid/{stem}.json"))).unwrap()
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
    check_parsed_fixtures(
        "droid",
        &CASES,
        |_, bytes| parse(bytes),
        |stem, event| {
            assert_eq!(event.dialect, Dialect::Droid, "{stem}");
            assert!(event.cwd.is_some(), "{stem}");
        },
    );
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
    check_replies("droid", parse, render, &samples());
}

#[test]
fn captured_payloads_are_detected_as_droid_without_a_hint() {
    for (stem, bytes) in testing::fixtures("droid") {
        // Droid sets CLAUDE_PROJECT_DIR too, which proves nothing.
        let by_env = detect(&bytes, None, &["CLAUDE_PROJECT_DIR", "FACTORY_PROJECT_DIR"]);
        assert_eq!(by_env.unwrap().dialect, Dialect::Droid, "{stem}");
        let by_payload = detect(&bytes, None, &["CLAUDE_PROJECT_DIR"]);
        assert_eq!(by_payload.unwrap().dialect, Dialect::Droid, "{stem}");
    }
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
    let ask = render(&pre, &samples()[3].1);
    assert_eq!(ask.losses, [Loss::Ask]);
    let reply = testing::stdout_json(&ask);
    assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], "deny");
    let context = render(&pre, &samples()[4].1);
    assert_eq!(context.losses, [Loss::Context]);
    let rewrite = render(&pre, &samples()[5].1);
    assert!(rewrite.losses.is_empty(), "{:?}", rewrite.losses);
    let reply = testing::stdout_json(&rewrite);
    assert_eq!(
        reply["hookSpecificOutput"]["updatedInput"]["command"],
        "npm test -- --ci"
    );
    let post = render(&event("PostToolUse"), &samples()[4].1);
    let reply = testing::stdout_json(&post);
    assert_eq!(
        reply["hookSpecificOutput"]["additionalContext"],
        "Deploy target: staging."
    );
}

#[test]
fn tool_classes() {
    for (name, class) in [
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
    ] {
        assert_eq!(super::tools::tool_class(name), class, "{name}");
    }
}

/// Fail-closed blocks exactly where a deny can be said; fail-open is the
/// neutral reply.
#[test]
fn fallback_agrees_with_the_capabilities() {
    claude_protocol::check_fallback_agrees(&PROTOCOL);
}
