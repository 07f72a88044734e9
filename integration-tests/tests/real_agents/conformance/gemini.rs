//! Gemini CLI's table: its shell tool `run_shell_command`'s BeforeTool and AfterTool, and AfterAgent (its stop).

use hookgate_adapters::{Capabilities, Dialect};
use hookgate_integration_tests::agents::Agent;
use hookgate_integration_tests::agents::install::GEMINI_CLI;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit, fixture_capabilities};
use super::tool_table::{ToolEvents, scenarios};
use crate::support::run;

const EVENTS: ToolEvents = ToolEvents {
    pre: "BeforeTool",
    post: "AfterTool",
    stop: Some("AfterAgent"),
};

/// What this version cannot do, and why (observed by this suite).
fn limits() -> Vec<Limit> {
    Vec::new()
}

fn capabilities(event: &str) -> Capabilities {
    fixture_capabilities(Dialect::GeminiCli, "gemini-cli", event)
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        label: format!("Gemini CLI {}", GEMINI_CLI.version),
        scenarios: scenarios(EVENTS),
        new_run: Box::new(|| run(Agent::GeminiCli)),
        rewrite_input: |command| json!({"command": command, "description": "rewritten by policy", "is_background": false}),
        capabilities,
        limits: limits(),
    }
}
