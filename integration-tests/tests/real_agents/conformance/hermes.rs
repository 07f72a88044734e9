//! Hermes Agent's table: its shell tool `terminal`'s `pre_tool_call` and
//! `post_tool_call`, and `on_session_end` (the end of each turn) as the
//! stop. `pre_verify`, the one stop a reply can extend, fires only after
//! the agent edited code, which a shell call does not.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::pip::HERMES;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit};
use super::meaning::Part;
use super::tool_table::{ToolEvents, scenarios};

const EVENTS: ToolEvents = ToolEvents {
    pre: "pre_tool_call",
    post: "post_tool_call",
    stop: Some("on_session_end"),
};

/// What 0.19.0 cannot do through its shell hooks, and why (observed by
/// this suite).
fn limits() -> Vec<Limit> {
    vec![(
        "pre_tool_call",
        Part::Halt,
        "no hook reply ends a Hermes run; hookgate's degrade rule blocks the pending call with the halt reason, so the command does not run and the loop goes on (a deny, not what a neutral run does)",
    )]
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        dialect: Dialect::Hermes,
        fixtures: "hermes",
        label: format!("Hermes Agent {}", HERMES.version),
        scenarios: scenarios(EVENTS),
        new_run: None,
        rewrite_input: |command| json!({"command": command}),
        limits: limits(),
    }
}
