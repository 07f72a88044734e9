//! Gemini CLI's table: its shell tool `run_shell_command`'s BeforeTool and AfterTool, and AfterAgent (its stop).

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::install::GEMINI_CLI;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit};
use super::tool_table::{ToolEvents, scenarios};

const EVENTS: ToolEvents = ToolEvents {
    pre: "BeforeTool",
    post: "AfterTool",
    stop: Some("AfterAgent"),
};

/// What this version cannot do, and why (observed by this suite).
fn limits() -> Vec<Limit> {
    Vec::new()
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        dialect: Dialect::GeminiCli,
        fixtures: "gemini-cli",
        label: format!("Gemini CLI {}", GEMINI_CLI.version),
        scenarios: scenarios(EVENTS),
        new_run: None,
        rewrite_input: |command| json!({"command": command, "description": "rewritten by policy", "is_background": false}),
        limits: limits(),
    }
}
