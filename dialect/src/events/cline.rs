//! Cline's events in both dialects: canonical kind and the answers Cline
//! acts on (docs/agents.md, "Cline").
//!
//! One meaning per column for Cline's renderer: `deny` `Block` is
//! `cancel: true` (with `errorMessage`), `context` is the SDK's `context`
//! or the legacy `contextModification`, `rewrite` is `overrideInput`,
//! `halt` is `cancel` too: a `cancel` ends the whole task, not just the
//! tool call. Cline waits for the events whose answer it acts on. Failing
//! closed, the `cancel` JSON on stdout blocks on every event: Cline ignores
//! exit codes when stdout holds JSON.
//!
//! Capabilities are what the current releases honour, not what older ones
//! did: a deny reported as lost is better than one silently ignored.

use super::{
    CTX_HALT, DenyForm as D, Descriptor, EventSpec, FailClosed as C, Flags, FollowupForm as F,
    HALT, NONE, row,
};
use crate::{Dialect, EventKind as K};

pub(super) const SDK: Descriptor = Descriptor::new(Dialect::ClineSdk, &SDK_EVENTS, C::Cancel);

pub(super) const LEGACY: Descriptor =
    Descriptor::new(Dialect::ClineLegacy, &LEGACY_EVENTS, C::Cancel);

/// A row of either dialect: blocking where Cline acts on an answer, and
/// failed closed with `cancel`.
const fn cline(name: &'static str, kind: K, deny: D, flags: Flags) -> EventSpec {
    let acts = !matches!(deny, D::None) || flags.1 || flags.2 || flags.3;
    row(name, kind, acts, deny, flags, F::None, None).fails(C::Cancel)
}

/// PreToolUse's `tool_call`: context, rewrite and halt besides the deny.
const CTX_REWRITE_HALT: Flags = (false, true, true, true);

/// The SDK file hooks, in `gateway install` order, under their `hookName`
/// (hooked as the hook file's name). `cancel` on a tool event ends the run,
/// so it is both a deny (the tool does not run) and a halt. A deny after
/// the tool ran (`tool_result`) means nothing, so there it is only a halt;
/// the parser turns it into ToolFailure when the tool failed. The rest run
/// detached: Cline does not wait and ignores the output.
#[rustfmt::skip]
const SDK_EVENTS: [EventSpec; 10] = [
    cline("agent_start", K::SessionStart, D::None, NONE).hooked_as("TaskStart"),
    cline("agent_resume", K::SessionResume, D::None, NONE).hooked_as("TaskResume"),
    cline("prompt_submit", K::PromptSubmit, D::None, NONE).hooked_as("UserPromptSubmit"),
    cline("tool_call", K::PreToolUse, D::Block, CTX_REWRITE_HALT).hooked_as("PreToolUse"),
    cline("tool_result", K::PostToolUse, D::None, CTX_HALT).hooked_as("PostToolUse"),
    cline("agent_end", K::TaskComplete, D::None, NONE).hooked_as("TaskComplete"),
    cline("agent_error", K::TaskError, D::None, NONE).hooked_as("TaskError"),
    cline("agent_abort", K::TaskAbort, D::None, NONE).hooked_as("TaskCancel"),
    cline("pre_compact", K::PreCompact, D::None, NONE).hooked_as("PreCompact"),
    cline("session_shutdown", K::SessionEnd, D::None, NONE).hooked_as("SessionShutdown"),
];

/// The legacy VS Code hooks. The current extension injects context only on
/// the tool hooks; TaskStart and UserPromptSubmit honour only `cancel`;
/// TaskResume, TaskCancel, TaskComplete, Notification and PreCompact are
/// not acted on.
#[rustfmt::skip]
const LEGACY_EVENTS: [EventSpec; 9] = [
    cline("TaskStart", K::SessionStart, D::Block, HALT),
    cline("TaskResume", K::SessionResume, D::None, NONE),
    cline("UserPromptSubmit", K::PromptSubmit, D::Block, HALT),
    cline("PreToolUse", K::PreToolUse, D::Block, CTX_HALT),
    cline("PostToolUse", K::PostToolUse, D::None, CTX_HALT),
    cline("TaskCancel", K::TaskAbort, D::None, NONE),
    cline("TaskComplete", K::TaskComplete, D::None, NONE),
    cline("Notification", K::Notification, D::None, NONE),
    cline("PreCompact", K::PreCompact, D::None, NONE),
];
