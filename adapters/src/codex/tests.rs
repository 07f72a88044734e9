//! Codex adapter tests over the payloads in test_data/codex (SessionStart,
//! UserPromptSubmit, PreToolUse, PostToolUse, Stop and SessionEnd captured
//! from the real CLI, 0.171.0; the rest written from its schemas): parsed
//! and rendered goldens, every reply checked against Codex's strict output
//! schemas, detection without a hint, and the fallbacks.

use serde_json::{Value, json};

use super::{PROTOCOL, render};
use crate::testing::{
    self, Case, Suite, check_tool_classes, claude_protocol, fixture, stdout_json,
};
use crate::{Decision, Dialect, EventKind as K, FailMode, HookEvent, Loss, ToolClass};
use crate::{detect, fallback};

const SUITE: Suite = Suite {
    dir: "codex",
    dialect: Dialect::Codex,
    parse: |_, bytes| PROTOCOL.parse(bytes),
    render,
};

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(json!({"command": "npm test -- --ci"}))
}

fn event(stem: &str) -> HookEvent {
    SUITE.event(stem)
}

const BASH: Option<(&str, ToolClass)> = Some(("Bash", ToolClass::Shell));

#[rustfmt::skip]
const CASES: [Case; 13] = [
    ("Interrupt", K::Other, false, None),
    ("PermissionRequest", K::PermissionRequest, true, BASH),
    ("PostCompact", K::PostCompact, false, None),
    ("PostToolUse", K::PostToolUse, true, BASH),
    ("PreCompact", K::PreCompact, false, None),
    ("PreToolUse", K::PreToolUse, true, BASH),
    ("PreToolUse.apply_patch", K::PreToolUse, true, Some(("apply_patch", ToolClass::FileWrite))),
    ("SessionEnd", K::SessionEnd, false, None),
    ("SessionStart", K::SessionStart, true, None),
    ("Stop", K::Stop, true, None),
    ("SubagentStart", K::SubagentStart, true, None),
    ("SubagentStop", K::SubagentStop, true, None),
    ("UserPromptSubmit", K::PromptSubmit, true, None),
];

#[test]
fn captured_payloads_parse() {
    SUITE.check_parsed(&CASES, |stem, event| {
        assert!(event.session_id.is_some(), "{stem}");
    });
    let pre = event("PreToolUse").tool.unwrap();
    assert!(pre.command.unwrap().starts_with("touch "));
    assert!(pre.call_id.unwrap().starts_with("call_"));
    assert_eq!(
        event("PostToolUse").tool.unwrap().output.as_deref(),
        Some("HGOUT\n")
    );
    assert_eq!(event("Stop").text.as_deref(), Some("Done."));
}

#[test]
fn replies_golden() {
    SUITE.check_replies(&samples());
}

/// The top-level and `hookSpecificOutput` keys Codex 0.171.0's output
/// schema for each event accepts (from the schemas in its binary; every
/// one rejects any other key). `None`: the event has no
/// `hookSpecificOutput`.
fn schema(event: &str) -> (Vec<&'static str>, Option<&'static [&'static str]>) {
    const COMMON: &[&str] = &["continue", "stopReason", "suppressOutput", "systemMessage"];
    const DECIDING: &[&str] = &["decision", "reason", "hookSpecificOutput"];
    let (extra, specific): (&[&str], Option<&'static [&'static str]>) = match event {
        "PreToolUse" => (
            DECIDING,
            Some(&[
                "hookEventName",
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ]),
        ),
        "PostToolUse" => (
            DECIDING,
            Some(&["hookEventName", "additionalContext", "updatedMCPToolOutput"]),
        ),
        "UserPromptSubmit" => (DECIDING, Some(&["hookEventName", "additionalContext"])),
        "SessionStart" | "SubagentStart" => (
            &["hookSpecificOutput"],
            Some(&["hookEventName", "additionalContext"]),
        ),
        "PermissionRequest" => (
            &["hookSpecificOutput"],
            Some(&["hookEventName", "decision"]),
        ),
        "Stop" | "SubagentStop" => (&["decision", "reason"], None),
        "Interrupt" => return (vec!["systemMessage"], None),
        _ => (&[], None),
    };
    ([COMMON, extra].concat(), specific)
}

/// Every sample answer on every payload renders only keys and values
/// Codex accepts there, and never one of its rejected combinations.
#[test]
fn every_reply_fits_codexs_schema() {
    let mut all = samples();
    all.push(("everything", testing::every_answer()));
    for (stem, _) in hookgate_test_data::fixtures("codex") {
        let event = event(&stem);
        let (top, specific) = schema(&event.native_event);
        for (name, decision) in &all {
            let rendered = render(&event, decision);
            if rendered.reply.stdout.is_empty() {
                continue;
            }
            let reply = stdout_json(&rendered);
            let object = reply.as_object().unwrap();
            for key in object.keys() {
                assert!(
                    top.contains(&key.as_str()),
                    "{stem} {name}: `{key}` in {reply}"
                );
            }
            if let Some(inner) = object.get("hookSpecificOutput") {
                let allowed = specific.unwrap_or_else(|| panic!("{stem} {name}: {reply}"));
                for key in inner.as_object().unwrap().keys() {
                    assert!(
                        allowed.contains(&key.as_str()),
                        "{stem} {name}: `{key}` in {reply}"
                    );
                }
                assert_eq!(
                    inner["hookEventName"],
                    event.native_event.as_str(),
                    "{stem} {name}"
                );
                match inner.get("permissionDecision").and_then(Value::as_str) {
                    Some("deny") => assert!(
                        !inner["permissionDecisionReason"]
                            .as_str()
                            .unwrap_or("")
                            .is_empty(),
                        "{stem} {name}: a deny needs a reason: {reply}"
                    ),
                    Some("allow") | None => {}
                    Some(other) => panic!("{stem} {name}: permissionDecision {other}"),
                }
                if inner.get("updatedInput").is_some() {
                    assert_eq!(inner["permissionDecision"], "allow", "{stem} {name}");
                }
                if let Some(behavior) = inner.get("decision") {
                    let keys: Vec<&String> = behavior.as_object().unwrap().keys().collect();
                    assert!(
                        keys.iter().all(|k| *k == "behavior" || *k == "message"),
                        "{reply}"
                    );
                }
            }
            if event.native_event == "PreToolUse" {
                assert!(object.get("continue").is_none() && object.get("stopReason").is_none());
            }
            if let Some(decision) = object.get("decision") {
                assert_eq!(decision, "block", "{stem} {name}");
            }
        }
    }
}

#[test]
fn pre_tool_use_degrades_what_codex_rejects() {
    let pre = event("PreToolUse");
    let ask = render(&pre, &samples()[3].1);
    assert_eq!(ask.losses, [Loss::Ask]);
    assert_eq!(
        stdout_json(&ask)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    let halt = render(&pre, &samples()[6].1);
    assert_eq!(halt.losses, [Loss::Halt]);
    let halt = stdout_json(&halt);
    assert_eq!(halt["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        halt["hookSpecificOutput"]["permissionDecisionReason"],
        "Build is red"
    );
    let rewrite = stdout_json(&render(&pre, &samples()[5].1));
    assert_eq!(rewrite["hookSpecificOutput"]["permissionDecision"], "allow");
    assert_eq!(
        rewrite["hookSpecificOutput"]["updatedInput"]["command"],
        "npm test -- --ci"
    );
    let bare = render(
        &pre,
        &Decision {
            permission: crate::Permission::Deny,
            ..Decision::default()
        },
    );
    assert!(
        !stdout_json(&bare)["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .is_empty()
    );
    let stop = render(&event("Stop"), &samples()[4].1);
    assert_eq!(stop.losses, [Loss::Context]);
}

#[test]
fn captured_payloads_are_detected_as_codex_without_a_hint() {
    SUITE.check_detected(&["CODEX_HOME", "CODEX_MANAGED_BY_NPM"], None);
    for (stem, dialect) in SUITE.detected(&[], None) {
        // SessionEnd carries no Codex field: without the variables it
        // reads as Claude Code's, which is harmless (non-blocking, same
        // neutral reply).
        let expected = if stem == "SessionEnd" {
            Dialect::ClaudeCode
        } else {
            Dialect::Codex
        };
        assert_eq!(dialect, expected, "{stem}");
    }
    let claude = fixture("claude-code/SessionStart.json");
    assert_eq!(
        detect(&claude, None, &["CLAUDE_PROJECT_DIR"])
            .unwrap()
            .dialect,
        Dialect::ClaudeCode
    );
}

#[test]
fn fallback_blocks_the_tool_and_the_prompt_only() {
    SUITE.check_fallback(PROTOCOL.dialect.descriptor().events, |spec, _| {
        ["PreToolUse", "PermissionRequest", "UserPromptSubmit"].contains(&spec.name)
    });
    let pre = fallback(
        Some(Dialect::Codex),
        Some("PreToolUse"),
        FailMode::Closed,
        "down",
    );
    let json: Value = serde_json::from_slice(&pre.stdout).unwrap();
    assert_eq!(
        json["hookSpecificOutput"]["permissionDecisionReason"],
        "down"
    );
    assert_eq!((pre.exit_code, pre.stderr.as_slice()), (2, &b"down\n"[..]));
}

#[test]
fn tool_classes() {
    check_tool_classes(
        super::tools::tool_class,
        &[
            ("Bash", ToolClass::Shell),
            ("apply_patch", ToolClass::FileWrite),
            ("mcp__github__create_issue", ToolClass::Mcp),
            ("exec_command", ToolClass::Other),
        ],
    );
}
