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

/// What 0.24.4 cannot do, and why (observed by this suite). Halt is a
/// loss on every event of the table (0.24.4 reads `continue: false` as
/// something else: docs/agents.md, "Qwen Code"), so only the pre-tool one,
/// where hookgate's degrade rule still refuses the pending call, differs
/// from a neutral run.
fn limits() -> Vec<Limit> {
    vec![(
        "PreToolUse",
        Part::Halt,
        "0.24.4 reads `continue: false` on PreToolUse as a refusal of the one call, never as a halt; hookgate counts the halt as a loss and its degrade rule denies the pending call with the halt reason, so the command does not run and the loop goes on (a deny, not what a neutral run does)",
    )]
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
