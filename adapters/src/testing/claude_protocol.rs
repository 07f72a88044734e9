//! Checks shared by the agents that speak Claude Code's protocol with
//! their own events table (Qwen Code, Droid): the sample answers and the
//! fallback-versus-capabilities rule.

use serde_json::Value;

use super::{ScenarioText, scenarios};
use crate::claude_code::Protocol;
use crate::{Decision, FailMode, fallback};

/// One sample answer of each kind, with Claude Code's texts and
/// `rewrite` as the replacement input (in the agent's shell tool shape).
pub(crate) fn samples(rewrite: Value) -> Vec<(&'static str, Decision)> {
    scenarios(ScenarioText {
        allow_reason: Some("Read-only command"),
        deny_reason: "Production database is off limits",
        agent_message: "Use the staging database instead.",
        ask_reason: "Touches production config",
        context: "Deploy target: staging.",
        rewrite,
        halt_reason: "Build is red",
        followup: "Run the test suite again.",
    })
}

/// For every event of `protocol`: fail-closed blocks exactly where a deny
/// can be said, and fail-open is the rendered neutral reply.
pub(crate) fn check_fallback_agrees(protocol: &Protocol) {
    for spec in protocol.events {
        let payload = format!(r#"{{"hook_event_name":"{}"}}"#, spec.name);
        let parsed = protocol
            .parse(payload.as_bytes())
            .expect("a bare event parses");
        let reply = |mode| fallback(Some(protocol.dialect), Some(spec.name), mode, "down");
        let (closed, open) = (reply(FailMode::Closed), reply(FailMode::Open));
        assert_eq!(closed != open, parsed.capabilities.deny, "{}", spec.name);
        let neutral = protocol.render(&parsed, &Decision::default()).reply;
        assert_eq!(open, neutral, "{}", spec.name);
    }
}
