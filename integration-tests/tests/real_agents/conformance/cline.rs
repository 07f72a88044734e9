//! The Cline CLI's table: the SDK tool hooks (the only ones it waits for;
//! the lifecycle hooks run detached) × the parts they could be asked.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::install::CLINE_VERSION;
use serde_json::json;

use super::matrix::{AgentUnderTest, Scenario, Setup};
use super::meaning::{Part, Phase};

fn scenarios() -> Vec<Scenario> {
    let pre = Part::PRE_TOOL.map(|part| Scenario {
        event: "tool_call",
        hook: "PreToolUse",
        phase: Phase::Pre,
        part,
        setup: Setup::Shell,
    });
    let post = [Part::Deny, Part::Context, Part::Halt].map(|part| Scenario {
        event: "tool_result",
        hook: "PostToolUse",
        phase: Phase::Post,
        part,
        setup: Setup::Shell,
    });
    pre.into_iter().chain(post).collect()
}

pub(super) fn agent() -> AgentUnderTest {
    AgentUnderTest {
        dialect: Dialect::ClineSdk,
        fixtures: "cline",
        label: format!("Cline CLI {CLINE_VERSION}"),
        scenarios: scenarios(),
        new_run: None,
        rewrite_input: |command| json!({"commands": [command]}),
        limits: Vec::new(),
    }
}
