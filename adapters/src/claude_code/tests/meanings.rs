//! The canonical meanings (docs/agents.md, top) as Claude Code obeys them,
//! one table per rule: a deny after the fact is feedback and never a loop
//! stop, context never becomes a continuation, the events added since
//! 2.1.197 are read as what they are.

use serde_json::{Value, json};

use super::{event, samples};
use crate::claude_code::{parse, render};
use crate::{Decision, EventKind, Loss, Permission, ToolClass};

/// The events whose action already happened when the hook runs.
const POST_ACTION: [&str; 3] = ["PostToolUse", "PostToolUseFailure", "PostToolBatch"];

fn stdout_json(name: &str, decision: &Decision) -> Option<Value> {
    let stdout = render(&event(name), decision).reply.stdout;
    (!stdout.is_empty()).then(|| serde_json::from_slice(&stdout).unwrap())
}

/// `decision: "block"` or exit 2 ends Claude Code's loop on PostToolBatch
/// (`terminal_reason: "hook_stopped"`, observed on 2.1.197 and 2.1.332):
/// only a halt may stop the loop, so no other part may render either.
#[test]
fn on_post_action_events_only_halt_stops_the_loop() {
    let on_error_deny = Decision {
        permission: Permission::Deny,
        reason: Some("hookgate: subscriber `policy` failed".into()),
        ..Decision::default()
    };
    for name in POST_ACTION {
        let mut decisions = samples();
        decisions.push(("on_error deny", on_error_deny.clone()));
        for (part, decision) in decisions {
            let rendered = render(&event(name), &decision);
            let json = stdout_json(name, &decision);
            let stops = json.as_ref().is_some_and(|j| {
                j.get("decision").is_some() || j.get("continue") == Some(&json!(false))
            });
            assert_eq!(rendered.reply.exit_code, 0, "{name} {part}");
            assert_eq!(
                stops,
                part == "halt" && name != "PostToolUseFailure",
                "{name} {part}: {json:?}"
            );
        }
    }
}

/// The deny's reason reaches the model as context, next to any context of
/// the same decision, and the deny counts as a loss: nothing was prevented.
#[test]
fn a_post_action_deny_is_feedback_to_the_model() {
    let deny = Decision {
        permission: Permission::Deny,
        reason: Some("HG-REASON".into()),
        additional_context: Some("HG-CONTEXT".into()),
        ..Decision::default()
    };
    for name in POST_ACTION {
        let rendered = render(&event(name), &deny);
        assert_eq!(rendered.losses, vec![Loss::Deny], "{name}");
        let json = stdout_json(name, &deny).unwrap();
        assert_eq!(
            json["hookSpecificOutput"]["additionalContext"], "HG-REASON\n\nHG-CONTEXT",
            "{name}"
        );
        assert!(
            !event(name).capabilities.deny,
            "{name}: nothing can be prevented"
        );
    }
    // An ask has nobody to ask and nothing to hold back: only a loss.
    let ask = render(&event("PostToolBatch"), &samples()[3].1);
    assert_eq!(
        (ask.reply, ask.losses),
        (Default::default(), vec![Loss::Ask])
    );
}

/// Context on Stop / SubagentStop is read as "keep going" (10 model
/// requests instead of 2): never rendered, counted. Halt where
/// `continue: false` is ignored is counted too.
#[test]
fn parts_the_event_would_misread_are_losses() {
    let context = &samples()[4].1;
    let halt = &samples()[6].1;
    let cases = [
        ("Stop", context, Loss::Context),
        ("SubagentStop", context, Loss::Context),
        ("SessionStart", halt, Loss::Halt),
        ("PostToolUseFailure", halt, Loss::Halt),
    ];
    for (name, decision, loss) in cases {
        let rendered = render(&event(name), decision);
        assert_eq!(rendered.reply, Default::default(), "{name}");
        assert_eq!(rendered.losses, vec![loss], "{name}");
    }
}

#[test]
fn a_skill_shell_command_is_a_shell_call() {
    let skill = event("PreSkillShellCommand");
    assert_eq!(skill.kind, EventKind::PreToolUse);
    assert!(skill.blocking && skill.capabilities.deny && skill.capabilities.ask);
    let tool = skill.tool.unwrap();
    assert_eq!(tool.class, ToolClass::Shell);
    assert_eq!(
        tool.command.as_deref(),
        Some("echo skill > skillmarker.txt")
    );
    assert_eq!(skill.reason.as_deref(), Some("mk"));
    // Whatever the tool is called, the inline command is a shell command.
    let renamed = parse(
        br#"{"hook_event_name":"PreSkillShellCommand","tool_name":"SkillShell","tool_input":{"command":"rm -rf ~"}}"#,
    )
    .unwrap();
    let tool = renamed.tool.unwrap();
    assert_eq!(
        (tool.class, tool.command.as_deref()),
        (ToolClass::Shell, Some("rm -rf ~"))
    );
    let deny = stdout_json("PreSkillShellCommand", &samples()[2].1).unwrap();
    assert_eq!(
        deny["hookSpecificOutput"],
        json!({
            "hookEventName": "PreSkillShellCommand",
            "permissionDecision": "deny",
            "permissionDecisionReason": "Production database is off limits\nUse the staging database instead."
        })
    );
}

#[test]
fn a_model_switch_can_be_allowed_denied_or_asked() {
    let switch = event("PreModelSwitch");
    assert_eq!(switch.model.as_deref(), Some("claude-haiku-4-5"));
    assert_eq!(switch.reason.as_deref(), Some("command"));
    for (part, said) in [("allow", "allow"), ("deny", "deny"), ("ask", "ask")] {
        let decision = samples()
            .into_iter()
            .find(|(name, _)| *name == part)
            .unwrap()
            .1;
        let json = stdout_json("PreModelSwitch", &decision).unwrap();
        assert_eq!(
            json["hookSpecificOutput"]["permissionDecision"], said,
            "{part}"
        );
    }
    assert_eq!(
        event("PostModelSwitch").model.as_deref(),
        Some("claude-haiku-4-5")
    );
}

/// Fields added since 2.1.197: the MCP server object, the prompt's source,
/// SessionStart's `fork`.
#[test]
fn new_fields() {
    let cases = [
        (
            json!({"hook_event_name":"PreToolUse","tool_name":"mcp__gh__create_issue","tool_input":{},
                   "mcp_server":{"name":"github","source":"project"}}),
            Some("github"),
            None,
        ),
        (
            json!({"hook_event_name":"PostToolUse","tool_name":"mcp__gh__create_issue","tool_input":{}}),
            Some("gh"),
            None,
        ),
        (
            json!({"hook_event_name":"UserPromptSubmit","prompt":"hi","source":"loop_wakeup"}),
            None,
            Some("loop_wakeup"),
        ),
        (
            json!({"hook_event_name":"SessionStart","source":"fork"}),
            None,
            Some("fork"),
        ),
    ];
    for (payload, server, reason) in cases {
        let event = parse(payload.to_string().as_bytes()).unwrap();
        let got = event.tool.as_ref().and_then(|t| t.mcp_server.as_deref());
        assert_eq!(
            (got, event.reason.as_deref()),
            (server, reason),
            "{payload}"
        );
    }
    let bad = json!({"hook_event_name":"PreToolUse","tool_name":"mcp__a__b","mcp_server":"github"});
    assert!(parse(bad.to_string().as_bytes()).is_err());
}

/// Fail-closed: a skill's shell command is denied like a tool call (JSON
/// naming its own event, plus exit 2); PostToolBatch, whose tools already
/// ran, gets the neutral reply (exit 2 there would only end the loop).
#[test]
fn fail_closed_follows_the_meanings() {
    use crate::{Dialect, FailMode, fallback};
    let closed = |event| {
        fallback(
            Some(Dialect::ClaudeCode),
            Some(event),
            FailMode::Closed,
            "down",
        )
    };
    let skill = closed("PreSkillShellCommand");
    assert_eq!(skill.exit_code, 2);
    let json: Value = serde_json::from_slice(&skill.stdout).unwrap();
    assert_eq!(
        json["hookSpecificOutput"],
        json!({"hookEventName": "PreSkillShellCommand", "permissionDecision": "deny", "permissionDecisionReason": "down"})
    );
    for event in POST_ACTION.into_iter().chain(["PostModelSwitch"]) {
        assert_eq!(closed(event), Default::default(), "{event}");
    }
    assert_eq!(closed("PreModelSwitch").exit_code, 2);
}
