//! GitHub Copilot CLI's table, once per config dialect (the case of the
//! event names picks the payloads and the replies): the `bash` tool's
//! pre- and post-tool events and the stop, PascalCase or camelCase.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::install::COPILOT;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit};
use super::meaning::Part;
use super::tool_table::{ToolEvents, scenarios};

/// A config dialect of Copilot CLI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Case {
    Pascal,
    Camel,
}

impl Case {
    fn events(self) -> ToolEvents {
        match self {
            Case::Pascal => ToolEvents {
                pre: "PreToolUse",
                post: "PostToolUse",
                stop: Some("Stop"),
            },
            Case::Camel => ToolEvents {
                pre: "preToolUse",
                post: "postToolUse",
                stop: Some("agentStop"),
            },
        }
    }

    fn dialect(self) -> Dialect {
        match self {
            Case::Pascal => Dialect::CopilotPascal,
            Case::Camel => Dialect::CopilotCamel,
        }
    }

    /// Its sample payloads' directory under `adapters/test_data/`.
    fn fixtures(self) -> &'static str {
        match self {
            Case::Pascal => "copilot",
            Case::Camel => "copilot-camel",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Case::Pascal => "PascalCase",
            Case::Camel => "camelCase",
        }
    }
}

/// What 1.0.102 cannot do, and why (observed by this suite, the same in
/// both dialects).
fn limits(case: Case) -> Vec<Limit> {
    vec![(
        case.events().pre,
        Part::Halt,
        "no Copilot event reads `continue: false`; hookgate's degrade rule denies the pending call with the halt reason, so the command does not run and the loop goes on (a deny, not what a neutral run does)",
    )]
}

pub(super) fn agent(case: Case) -> AgentUnderTest {
    AgentUnderTest {
        label: format!("Copilot CLI {} ({} hooks)", COPILOT.version, case.name()),
        dialect: case.dialect(),
        fixtures: case.fixtures(),
        scenarios: scenarios(case.events()),
        new_run: None,
        rewrite_input: |command| json!({"command": command, "description": "rewritten by policy", "mode": "sync"}),
        limits: limits(case),
    }
}
