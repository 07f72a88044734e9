//! OpenCode's table, through hookgate's plugin: the `bash` tool's
//! `tool.execute.before` and `tool.execute.after`, and `session.idle` as
//! the stop.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::install::OPENCODE;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit};
use super::meaning::Part;
use super::tool_table::{ToolEvents, scenarios};

const EVENTS: ToolEvents = ToolEvents {
    pre: "tool.execute.before",
    post: "tool.execute.after",
    stop: Some("session.idle"),
};

/// What 1.18.33 cannot do through a plugin, and why (observed by this
/// suite).
fn limits() -> Vec<Limit> {
    vec![(
        "tool.execute.before",
        Part::Halt,
        "a plugin cannot end an OpenCode session; hookgate's degrade rule denies the pending call with the halt reason, so the command does not run and the loop goes on (a deny, not what a neutral run does)",
    )]
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        dialect: Dialect::OpenCode,
        fixtures: "opencode",
        label: format!("OpenCode {}", OPENCODE.version),
        scenarios: scenarios(EVENTS),
        new_run: None,
        rewrite_input: |command| json!({"command": command, "description": "rewritten by policy", "mode": "sync"}),
        limits: limits(),
    }
}
