//! Qwen Code's table: its shell tool `run_shell_command`'s PreToolUse and PostToolUse, and Stop (SessionEnd does not fire in `-p`).

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::install::QWEN_CODE;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit};
use super::meaning::Part;
use super::tool_table::{ToolEvents, scenarios};

const EVENTS: ToolEvents = ToolEvents {
    pre: "PreToolUse",
    post: "PostToolUse",
    stop: Some("Stop"),
};

/// What 0.24.4 cannot do, and why (observed by this suite). Stop context
/// and halt are advertised by the adapter (Claude Code's table) but not
/// honoured: hookgate should count them as losses.
fn limits() -> Vec<Limit> {
    vec![
        (
            "PreToolUse",
            Part::Halt,
            "0.24.4 ignores `continue: false` next to a deny: the call is denied, the model reads the reason and the loop goes on",
        ),
        (
            "PostToolUse",
            Part::Halt,
            "0.24.4 ignores `continue: false` after the tool: the reason replaces the tool's result and the loop goes on",
        ),
        (
            "Stop",
            Part::Context,
            "0.24.4 drops Stop's `additionalContext`: the run ends and no request carries it (the adapter advertises it; it should be a loss)",
        ),
        (
            "Stop",
            Part::Halt,
            "0.24.4 reads Stop's `continue: false` as \"keep going\": one more model request, carrying the stop reason (the adapter advertises halt; it should be a loss)",
        ),
    ]
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        dialect: Dialect::QwenCode,
        fixtures: "qwen-code",
        label: format!("Qwen Code {}", QWEN_CODE.version),
        scenarios: scenarios(EVENTS),
        new_run: None,
        rewrite_input: |command| json!({"command": command, "description": "rewritten by policy", "is_background": false}),
        limits: limits(),
    }
}
