//! Claude Code adapter tests: every fixture in test_data/claude-code is
//! parsed (pinned in `parsed/<Event>.txt`) and rendered with each kind of
//! decision (pinned in `replies/<Event>.txt`); the rules that matter most
//! are also asserted directly.

mod meanings;
mod parsing;

use serde_json::{Value, json};

use super::CLAUDE_CODE;
use hookgate_dialect::events::EventSpec;

/// Claude Code's table.
const EVENTS: &[EventSpec] = CLAUDE_CODE.dialect.descriptor().events;

/// The row for `native_event`.
fn spec(native_event: &str) -> &'static EventSpec {
    CLAUDE_CODE.spec(native_event)
}
use super::{parse, render};
use crate::testing::{Suite, check_golden, claude_protocol, fixtures};
use crate::{Decision, Dialect, FailMode, HookEvent, Loss, Permission, Rendered, fallback};

const SUITE: Suite = Suite {
    dir: "claude-code",
    dialect: Dialect::ClaudeCode,
    parse: |_, bytes| parse(bytes),
    render,
};

fn event(name: &str) -> HookEvent {
    SUITE.event(name)
}

/// The sample decisions every event is rendered with.
fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(json!({"command": "npm test -- --ci"}))
}

/// Keys sorted, whatever serde_json's map implementation.
fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// A stable, readable rendering of a parsed event for golden files.
fn describe(event: &HookEvent) -> String {
    let mut out = format!(
        "dialect: {:?}\nnative_event: {}\nkind: {}\nblocking: {}\ncapabilities: {:?}\nagent_version: {:?}\nsession_id: {:?}\ncwd: {:?}\nworkspace_roots: {:?}\ntranscript_path: {:?}\nmodel: {:?}\nprompt: {:?}\ntext: {:?}\nstop: {:?}\nreason: {:?}\nsubagent_id: {:?}\n",
        event.dialect,
        event.native_event,
        event.kind.as_str(),
        event.blocking,
        event.capabilities,
        event.agent_version,
        event.session_id,
        event.cwd,
        event.workspace_roots,
        event.transcript_path,
        event.model,
        event.prompt,
        event.text,
        event.stop,
        event.reason,
        event.subagent_id,
    );
    match &event.tool {
        None => out.push_str("tool: None\n"),
        Some(tool) => out.push_str(&format!(
            "tool.name: {}\ntool.class: {}\ntool.input: {}\ntool.command: {:?}\ntool.mcp_server: {:?}\ntool.file_path: {:?}\ntool.output: {:?}\ntool.error: {:?}\ntool.duration_ms: {:?}\ntool.call_id: {:?}\n",
            tool.name,
            tool.class.as_str(),
            sorted(&tool.input),
            tool.command,
            tool.mcp_server,
            tool.file_path,
            tool.output,
            tool.error,
            tool.duration_ms,
            tool.call_id,
        )),
    }
    out
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\n', "⏎")
}

fn describe_rendered(name: &str, rendered: &Rendered) -> String {
    let losses: Vec<&str> = rendered.losses.iter().map(|loss| loss.as_str()).collect();
    format!(
        "## {name}\nexit: {}\nstdout: {}\nstderr: {}\nlosses: {:?}\n",
        rendered.reply.exit_code,
        show(&rendered.reply.stdout),
        show(&rendered.reply.stderr),
        losses
    )
}

/// The event a fixture is a sample of: `<Event>.json`, or
/// `<Event>.<variant>.json` for one more sample of the same event.
fn event_of(stem: &str) -> &str {
    stem.split_once('.').map_or(stem, |(event, _)| event)
}

#[test]
fn every_fixture_is_a_known_event_and_every_event_has_a_fixture() {
    let stems: Vec<String> = fixtures("claude-code")
        .into_iter()
        .map(|(stem, _)| stem)
        .collect();
    for stem in &stems {
        assert_eq!(
            spec(event_of(stem)).name,
            event_of(stem),
            "{stem}: not an event"
        );
    }
    for spec in EVENTS {
        assert!(
            stems.iter().any(|stem| stem == spec.name),
            "no fixture for {}",
            spec.name
        );
    }
}

#[test]
fn parse_golden() {
    for (stem, payload) in fixtures("claude-code") {
        let event = parse(&payload).unwrap_or_else(|err| panic!("{stem}: {err}"));
        assert_eq!(event.native_event, event_of(&stem));
        check_golden(&format!("claude-code/parsed/{stem}.txt"), &describe(&event));
    }
}

#[test]
fn render_golden() {
    for (stem, payload) in fixtures("claude-code") {
        let event = parse(&payload).unwrap();
        let mut out = String::new();
        for (name, decision) in samples() {
            out.push_str(&describe_rendered(name, &render(&event, &decision)));
        }
        check_golden(&format!("claude-code/replies/{stem}.txt"), &out);
    }
}

#[test]
fn neutral_is_exit_0_and_silent_except_worktree_create() {
    for spec in EVENTS {
        let rendered = render(&event(spec.name), &Decision::default());
        assert!(rendered.losses.is_empty(), "{}", spec.name);
        if spec.name == "WorktreeCreate" {
            assert_eq!(rendered.reply.exit_code, 1);
            assert!(rendered.reply.stdout.is_empty());
        } else {
            assert_eq!(rendered.reply, Default::default(), "{}", spec.name);
        }
    }
}

#[test]
fn every_json_reply_is_one_line_of_json_for_its_event() {
    for spec in EVENTS {
        let event = event(spec.name);
        for (name, decision) in samples() {
            let stdout = render(&event, &decision).reply.stdout;
            if stdout.is_empty() {
                continue;
            }
            assert_ne!(spec.name, "WorktreeCreate", "stdout is a path there");
            assert_eq!(stdout.iter().filter(|b| **b == b'\n').count(), 1);
            assert!(stdout.ends_with(b"\n"));
            let value: Value = serde_json::from_slice(&stdout).unwrap();
            if let Some(specific) = value.get("hookSpecificOutput") {
                assert_eq!(specific["hookEventName"], spec.name, "{} {name}", spec.name);
            }
        }
    }
}

/// A part the event cannot express is always reported, never dropped.
#[test]
fn losses_follow_the_capabilities() {
    for spec in EVENTS {
        let event = event(spec.name);
        let caps = event.capabilities;
        for (name, decision) in samples() {
            let losses = render(&event, &decision).losses;
            let expected: Vec<Loss> = match name {
                "deny" if !caps.deny => vec![Loss::Deny],
                "ask" if !caps.ask => vec![Loss::Ask],
                "context" if !caps.context => vec![Loss::Context],
                // PreToolUse's rewrite with no permission becomes an ask.
                "rewrite" if !caps.input_rewrite || spec.name == "PermissionRequest" => {
                    vec![Loss::InputRewrite]
                }
                "halt" if !caps.halt => vec![Loss::Halt],
                "followup" if !caps.followup => vec![Loss::Followup],
                _ => vec![],
            };
            assert_eq!(losses, expected, "{} {name}", spec.name);
        }
    }
}

#[test]
fn pre_tool_use_answers() {
    let pre = event("PreToolUse");
    let json_of = |decision: &Decision| -> Value {
        serde_json::from_slice(&render(&pre, decision).reply.stdout).unwrap()
    };
    let samples = samples();
    let deny = json_of(&samples[2].1);
    assert_eq!(deny["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        deny["hookSpecificOutput"]["permissionDecisionReason"],
        "Production database is off limits\nUse the staging database instead."
    );
    // A halt never comes as `continue: false` alone: the call is denied too.
    let halt = json_of(&samples[6].1);
    assert_eq!(halt["continue"], false);
    assert_eq!(halt["hookSpecificOutput"]["permissionDecision"], "deny");
    // A deny with no reason still tells Claude something.
    let bare = json_of(&Decision {
        permission: Permission::Deny,
        ..Decision::default()
    });
    assert_eq!(
        bare["hookSpecificOutput"]["permissionDecisionReason"],
        "Blocked by hookgate policy."
    );
    // Rewrite + allow auto-approves the new input; rewrite + deny drops it.
    let input = json!({"command": "ls"});
    let allow = Decision {
        permission: Permission::Allow,
        updated_input: Some(input.clone()),
        ..Decision::default()
    };
    let allowed = json_of(&allow);
    assert_eq!(allowed["hookSpecificOutput"]["permissionDecision"], "allow");
    assert_eq!(allowed["hookSpecificOutput"]["updatedInput"], input);
    let denied = render(
        &pre,
        &Decision {
            permission: Permission::Deny,
            ..allow.clone()
        },
    );
    assert_eq!(denied.losses, vec![Loss::InputRewrite]);
    // A rewrite that is not an object is not sent.
    let bad = render(
        &pre,
        &Decision {
            updated_input: Some(json!("rm -rf /")),
            ..Decision::default()
        },
    );
    assert_eq!(
        (bad.reply.stdout.is_empty(), bad.losses),
        (true, vec![Loss::InputRewrite])
    );
}

#[test]
fn permission_request_answers() {
    let request = event("PermissionRequest");
    let input = json!({"command": "npm run lint"});
    let allow = Decision {
        permission: Permission::Allow,
        updated_input: Some(input.clone()),
        ..Decision::default()
    };
    let rendered = render(&request, &allow);
    assert!(rendered.losses.is_empty());
    let value: Value = serde_json::from_slice(&rendered.reply.stdout).unwrap();
    assert_eq!(
        value["hookSpecificOutput"]["decision"],
        json!({"behavior": "allow", "updatedInput": input})
    );
    // Exit 2 is ignored on PermissionRequest: a deny must be JSON.
    let deny = render(&request, &samples()[2].1);
    assert_eq!(deny.reply.exit_code, 0);
    let value: Value = serde_json::from_slice(&deny.reply.stdout).unwrap();
    assert_eq!(value["hookSpecificOutput"]["decision"]["behavior"], "deny");
    // Ask: no decision, so Claude Code shows its dialog.
    let ask = render(&request, &samples()[3].1);
    assert_eq!((ask.reply, ask.losses), (Default::default(), vec![]));
}

/// Fail-closed blocks exactly where a deny can be said (WorktreeCreate
/// aside: it has no neutral reply at all).
#[test]
fn fallback_agrees_with_the_capabilities() {
    for spec in EVENTS {
        let closed = fallback(
            Some(Dialect::ClaudeCode),
            Some(spec.name),
            FailMode::Closed,
            "down",
        );
        let open = fallback(
            Some(Dialect::ClaudeCode),
            Some(spec.name),
            FailMode::Open,
            "down",
        );
        let blocks = closed != open;
        assert_eq!(blocks, event(spec.name).capabilities.deny, "{}", spec.name);
        assert_eq!(
            open,
            render(&event(spec.name), &Decision::default()).reply,
            "{}",
            spec.name
        );
    }
    assert_eq!(spec("nope").name, "");
}
