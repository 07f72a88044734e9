//! Claude Code's table: every event a headless run fires (PostToolBatch,
//! PostToolUseFailure and a slash command's PreSkillShellCommand included)
//! × the parts it could be asked, for each pinned version.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::ClaudeCode;
use serde_json::json;

use super::matrix::{AgentUnderTest, Limit, Scenario, Setup};
use super::meaning::{Part, Phase};
use crate::support::run;

/// Every hook a conformance run registers. 2.1.197 ignores the events it
/// does not know (PreSkillShellCommand).
const HOOKS: [&str; 10] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PreSkillShellCommand",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Stop",
    "SessionEnd",
];

/// (event, phase, setup, parts).
const TABLE: [(&str, Phase, Setup, &[Part]); 9] = [
    ("PreToolUse", Phase::Pre, Setup::Shell, &Part::PRE_TOOL),
    (
        "PreSkillShellCommand",
        Phase::Pre,
        Setup::Skill,
        &[Part::Deny, Part::Ask, Part::Allow],
    ),
    (
        "PermissionRequest",
        Phase::Pre,
        Setup::AskedShell,
        &[
            Part::Deny,
            Part::Ask,
            Part::Allow,
            Part::Rewrite,
            Part::Halt,
        ],
    ),
    (
        "PostToolUse",
        Phase::Post,
        Setup::Shell,
        &[Part::Deny, Part::Ask, Part::Context, Part::Halt],
    ),
    (
        "PostToolUseFailure",
        Phase::Post,
        Setup::FailingShell,
        &[Part::Deny, Part::Context, Part::Halt],
    ),
    (
        "PostToolBatch",
        Phase::Post,
        Setup::Shell,
        &[Part::Deny, Part::Ask, Part::Context, Part::Halt],
    ),
    (
        "UserPromptSubmit",
        Phase::Prompt,
        Setup::Shell,
        &[Part::Deny, Part::Context, Part::Halt],
    ),
    (
        "SessionStart",
        Phase::Prompt,
        Setup::Shell,
        &[Part::Context, Part::Halt],
    ),
    (
        "Stop",
        Phase::Stop,
        Setup::Shell,
        &[
            Part::Context,
            Part::Halt,
            Part::Followup,
            Part::FollowupEveryStop,
        ],
    ),
];

fn scenarios() -> Vec<Scenario> {
    TABLE
        .iter()
        .flat_map(|(event, phase, setup, parts)| {
            parts.iter().map(move |part| Scenario {
                event,
                hook: event,
                phase: *phase,
                part: *part,
                setup: *setup,
            })
        })
        .collect()
}

/// What a version cannot do, and why (docs/agents.md).
fn limits(which: ClaudeCode) -> Vec<Limit> {
    if which == ClaudeCode::Newest {
        return Vec::new();
    }
    let unfired = |event: &'static str, why: &'static str| {
        TABLE
            .iter()
            .filter(move |(name, ..)| *name == event)
            .flat_map(move |(_, _, _, parts)| parts.iter().map(move |part| (event, *part, why)))
    };
    let halt: Limit = (
        "PreToolUse",
        Part::Halt,
        "2.1.197 ignores `continue: false` next to a deny: the call is denied, the loop goes on (Claude Code sends no version, so the loss is not counted)",
    );
    std::iter::once(halt)
        .chain(unfired(
            "PreSkillShellCommand",
            "2.1.197 has no PreSkillShellCommand: a skill's inline command runs unhooked",
        ))
        .chain(unfired(
            "PermissionRequest",
            "2.1.197 does not fire PermissionRequest in `-p`: the call is refused without asking",
        ))
        .collect()
}

pub(super) fn agent(which: ClaudeCode) -> AgentUnderTest {
    AgentUnderTest {
        dialect: Dialect::ClaudeCode,
        fixtures: "claude-code",
        label: format!("Claude Code {}", which.version()),
        scenarios: scenarios(),
        new_run: Some(Box::new(move || {
            run(Dialect::ClaudeCode).claude_code(which).hooks(&HOOKS)
        })),
        rewrite_input: |command| json!({"command": command, "description": "rewritten by policy"}),
        limits: limits(which),
    }
}
