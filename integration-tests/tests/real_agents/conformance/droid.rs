//! Factory Droid's table: its shell tool `Execute`'s PreToolUse and PostToolUse, and Stop of `droid exec`.

use hookgate_adapters::{Capabilities, Dialect};
use hookgate_integration_tests::agents::Agent;
use hookgate_integration_tests::agents::install::DROID;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit, fixture_capabilities};
use super::tool_table::{ToolEvents, scenarios};
use crate::support::run;

const EVENTS: ToolEvents = ToolEvents {
    pre: "PreToolUse",
    post: "PostToolUse",
    stop: Some("Stop"),
};

/// What this version cannot do, and why (observed by this suite).
fn limits() -> Vec<Limit> {
    Vec::new()
}

fn capabilities(event: &str) -> Capabilities {
    fixture_capabilities(Dialect::Droid, "droid", event)
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        label: format!("Factory Droid {}", DROID.version),
        scenarios: scenarios(EVENTS),
        new_run: Box::new(|| run(Agent::Droid)),
        rewrite_input: |command| json!({"command": command, "summary": "rewritten by policy", "riskLevel": "low", "riskLevelReason": "rewritten by policy"}),
        capabilities,
        limits: limits(),
    }
}
