//! The sample answers of Claude Code and the agents whose payloads are
//! its (Qwen Code, Droid, Gemini CLI, Codex, Copilot CLI), in one wording.

use serde_json::Value;

use super::{ScenarioText, scenarios};
use crate::Decision;

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
