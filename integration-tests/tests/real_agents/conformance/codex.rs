//! Codex's table: its shell tool's (`Bash`) PreToolUse and PostToolUse, and Stop of `codex exec`.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::install::CODEX;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit};
use super::meaning::Part;
use super::tool_table::{ToolEvents, scenarios};

const EVENTS: ToolEvents = ToolEvents {
    pre: "PreToolUse",
    post: "PostToolUse",
    stop: Some("Stop"),
};

/// What 0.171.0 cannot do, and why (observed by this suite).
fn limits() -> Vec<Limit> {
    vec![(
        "PreToolUse",
        Part::Halt,
        "PreToolUse has no `continue` in Codex's schema; hookgate's degrade rule denies the pending call with the halt reason, so the command does not run and the loop goes on (a deny, not what a neutral run does)",
    )]
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        dialect: Dialect::Codex,
        fixtures: "codex",
        label: format!("Codex {}", CODEX.version),
        scenarios: scenarios(EVENTS),
        new_run: None,
        rewrite_input: |command| json!({"command": command}),
        limits: limits(),
    }
}
