//! Golden replies shared by the dialect tests: the kinds of answer every
//! event is rendered with, and the one format the JSON-only dialects pin
//! them in (`test_data/<agent>/replies/<event>.txt`).
//!
//! The kinds of answer are the same for every agent; the words and the
//! rewritten tool input are each agent's own, so they fit its fixtures.

use serde_json::Value;

use super::{check_golden, fixtures};
use crate::{Decision, HookEvent, Loss, ParseError, Permission, Rendered};

/// What an agent's sample answers say. `ask_reason` is separate from
/// `deny_reason` so a dialect can tell them apart in its golden files.
pub(crate) struct ScenarioText {
    pub(crate) allow_reason: Option<&'static str>,
    pub(crate) deny_reason: &'static str,
    pub(crate) agent_message: &'static str,
    pub(crate) ask_reason: &'static str,
    pub(crate) context: &'static str,
    /// The replacement tool input, in the agent's own tool shape.
    pub(crate) rewrite: Value,
    pub(crate) halt_reason: &'static str,
    pub(crate) followup: &'static str,
}

/// One sample answer of each kind (neutral, allow, deny, ask, context,
/// rewrite, halt, followup), by name.
pub(crate) fn scenarios(text: ScenarioText) -> Vec<(&'static str, Decision)> {
    vec![
        ("neutral", Decision::default()),
        (
            "allow",
            Decision {
                permission: Permission::Allow,
                reason: text.allow_reason.map(str::to_owned),
                ..Decision::default()
            },
        ),
        (
            "deny",
            Decision {
                permission: Permission::Deny,
                reason: Some(text.deny_reason.into()),
                agent_message: Some(text.agent_message.into()),
                ..Decision::default()
            },
        ),
        (
            "ask",
            Decision {
                permission: Permission::Ask,
                reason: Some(text.ask_reason.into()),
                ..Decision::default()
            },
        ),
        (
            "context",
            Decision {
                additional_context: Some(text.context.into()),
                ..Decision::default()
            },
        ),
        (
            "rewrite",
            Decision {
                updated_input: Some(text.rewrite),
                ..Decision::default()
            },
        ),
        (
            "halt",
            Decision {
                halt: true,
                reason: Some(text.halt_reason.into()),
                ..Decision::default()
            },
        ),
        (
            "followup",
            Decision {
                followup_message: Some(text.followup.into()),
                ..Decision::default()
            },
        ),
    ]
}

/// A decision that gives every answer at once (deny, context, rewrite,
/// halt, followup): an event that can take none of them loses them all.
pub(crate) fn every_answer() -> Decision {
    Decision {
        permission: Permission::Deny,
        additional_context: Some("c".into()),
        updated_input: Some(serde_json::json!({})),
        halt: true,
        followup_message: Some("f".into()),
        ..Decision::default()
    }
}

/// What Cline and Cursor report for [`every_answer`] on an event that
/// can take none of it, in the order their renderers check the parts.
pub(crate) const EVERY_LOSS: [Loss; 5] = [
    Loss::Deny,
    Loss::Halt,
    Loss::Context,
    Loss::InputRewrite,
    Loss::Followup,
];

/// The reply's stdout as JSON.
pub(crate) fn stdout_json(rendered: &Rendered) -> Value {
    serde_json::from_slice(&rendered.reply.stdout).expect("stdout is JSON")
}

/// One rendered answer as a golden-file section.
fn describe(name: &str, rendered: &Rendered) -> String {
    let losses: Vec<&str> = rendered.losses.iter().map(|loss| loss.as_str()).collect();
    format!(
        "## {name}\nexit_code: {}\nlosses: {losses:?}\nstdout: {}stderr: {:?}\n\n",
        rendered.reply.exit_code,
        String::from_utf8_lossy(&rendered.reply.stdout),
        String::from_utf8_lossy(&rendered.reply.stderr),
    )
}

/// Renders every fixture of `agent` (parsed by `parse(stem, bytes)`) with
/// every scenario and pins the replies (exit code, losses, stdout,
/// stderr) in `<agent>/replies/<stem>.txt`.
pub(crate) fn check_replies(
    agent: &str,
    parse: impl Fn(&str, &[u8]) -> Result<HookEvent, ParseError>,
    render: impl Fn(&HookEvent, &Decision) -> Rendered,
    scenarios: &[(&'static str, Decision)],
) {
    for (stem, bytes) in fixtures(agent) {
        let event = parse(&stem, &bytes).unwrap_or_else(|err| panic!("{stem}: {err}"));
        let mut golden = format!("# {stem}: {:?}\n\n", event.capabilities);
        for (name, decision) in scenarios {
            golden.push_str(&describe(name, &render(&event, decision)));
        }
        check_golden(&format!("{agent}/replies/{stem}.txt"), &golden);
    }
}

/// Renders every fixture of a dialect that answers in JSON on stdout with
/// every scenario and pins the result in `<agent>/replies/<stem>.txt`.
/// Every reply must exit 0 with empty stderr and one JSON value on stdout,
/// which `check(stem, scenario, stdout)` may look at further.
pub(crate) fn check_json_replies(
    agent: &str,
    parse: impl Fn(&str, &[u8]) -> Result<HookEvent, ParseError>,
    render: impl Fn(&HookEvent, &Decision) -> Rendered,
    scenarios: &[(&'static str, Decision)],
    check: impl Fn(&str, &str, &Value),
) {
    for (stem, bytes) in fixtures(agent) {
        let event = parse(&stem, &bytes).unwrap_or_else(|err| panic!("{stem}: {err}"));
        let mut golden = format!("# {stem}: {:?}\n\n", event.capabilities);
        for (name, decision) in scenarios {
            let rendered = render(&event, decision);
            assert_eq!(rendered.reply.exit_code, 0, "{stem} {name}");
            assert!(rendered.reply.stderr.is_empty(), "{stem} {name}");
            let value: Value = serde_json::from_slice(&rendered.reply.stdout)
                .unwrap_or_else(|err| panic!("{stem} {name}: stdout is not JSON: {err}"));
            check(&stem, name, &value);
            golden.push_str(&describe(name, &rendered));
        }
        check_golden(&format!("{agent}/replies/{stem}.txt"), &golden);
    }
}
