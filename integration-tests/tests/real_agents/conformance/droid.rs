//! Factory Droid's table: its shell tool `Execute`'s PreToolUse and PostToolUse, and Stop of `droid exec`.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::install::DROID;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit};
use super::tool_table::{ToolEvents, scenarios};

const EVENTS: ToolEvents = ToolEvents {
    pre: "PreToolUse",
    post: "PostToolUse",
    stop: Some("Stop"),
};

/// What this version cannot do, and why (observed by this suite).
fn limits() -> Vec<Limit> {
    Vec::new()
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        dialect: Dialect::Droid,
        fixtures: "droid",
        label: format!("Factory Droid {}", DROID.version),
        scenarios: scenarios(EVENTS),
        new_run: None,
        rewrite_input: |command| json!({"command": command, "summary": "rewritten by policy", "riskLevel": "low", "riskLevelReason": "rewritten by policy"}),
        limits: limits(),
    }
}
