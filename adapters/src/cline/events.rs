//! Cline's events in both dialects: canonical kind and the answers Cline
//! acts on (docs/agents.md, "Cline"). One table per dialect, so parse and render
//! cannot disagree.
//!
//! Capabilities are what the current releases honour, not what older ones
//! did: a deny reported as lost is better than one silently ignored.

use crate::{Capabilities, EventKind};

const NONE: Capabilities = Capabilities::NONE;

use EventKind as K;

const CONTEXT_HALT: Capabilities = Capabilities {
    context: true,
    halt: true,
    ..NONE
};
const DENY_HALT: Capabilities = Capabilities {
    deny: true,
    halt: true,
    ..NONE
};

/// The SDK file hooks, in `gateway install` order: (hook file name,
/// `hookName`, kind, capabilities). `cancel` on a tool event ends the run,
/// so it is both a deny (the tool does not run) and a halt. A deny after
/// the tool ran (`tool_result`) means nothing, so there it is only a halt;
/// the parser turns it into ToolFailure when the tool failed. The rest run
/// detached: Cline does not wait and ignores the output.
#[rustfmt::skip]
pub(crate) const SDK: [(&str, &str, K, Capabilities); 10] = [
    ("TaskStart", "agent_start", K::SessionStart, NONE),
    ("TaskResume", "agent_resume", K::SessionResume, NONE),
    ("UserPromptSubmit", "prompt_submit", K::PromptSubmit, NONE),
    ("PreToolUse", "tool_call", K::PreToolUse, Capabilities { context: true, input_rewrite: true, ..DENY_HALT }),
    ("PostToolUse", "tool_result", K::PostToolUse, CONTEXT_HALT),
    ("TaskComplete", "agent_end", K::TaskComplete, NONE),
    ("TaskError", "agent_error", K::TaskError, NONE),
    ("TaskCancel", "agent_abort", K::TaskAbort, NONE),
    ("PreCompact", "pre_compact", K::PreCompact, NONE),
    ("SessionShutdown", "session_shutdown", K::SessionEnd, NONE),
];

/// The legacy VS Code hooks. The current extension injects context only on
/// the tool hooks; TaskStart and UserPromptSubmit honour only `cancel`;
/// TaskResume, TaskCancel, TaskComplete, Notification and PreCompact are
/// not acted on.
#[rustfmt::skip]
pub(crate) const LEGACY: [(&str, K, Capabilities); 9] = [
    ("TaskStart", K::SessionStart, DENY_HALT),
    ("TaskResume", K::SessionResume, NONE),
    ("UserPromptSubmit", K::PromptSubmit, DENY_HALT),
    ("PreToolUse", K::PreToolUse, Capabilities { context: true, ..DENY_HALT }),
    ("PostToolUse", K::PostToolUse, CONTEXT_HALT),
    ("TaskCancel", K::TaskAbort, NONE),
    ("TaskComplete", K::TaskComplete, NONE),
    ("Notification", K::Notification, NONE),
    ("PreCompact", K::PreCompact, NONE),
];

/// An SDK `hookName`'s kind and capabilities (unknown: `Other`, none).
pub(super) fn sdk(native: &str) -> (K, Capabilities) {
    let row = SDK.iter().find(|(_, name, ..)| *name == native);
    row.map_or((K::Other, NONE), |(_, _, kind, caps)| (*kind, *caps))
}

/// A legacy `hookName`'s kind and capabilities (unknown: `Other`, none).
pub(super) fn legacy(native: &str) -> (K, Capabilities) {
    let row = LEGACY.iter().find(|(name, ..)| *name == native);
    row.map_or((K::Other, NONE), |(_, kind, caps)| (*kind, *caps))
}
