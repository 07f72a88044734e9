//! The Codex 0.171.0 hook events and what a reply can say on each, read
//! from the output schemas in its binary (`*.command.output`, every one
//! `additionalProperties: false`) and its rejection messages ("PreToolUse
//! hook returned unsupported permissionDecision:ask", ...), and measured
//! with the real CLI where docs/agents.md says so.
//!
//! Rows of Claude Code's [`EventSpec`] so the shared parser reads them;
//! Codex's own renderer reads the same rows, and says only what Codex's
//! schema for that event allows: one unsupported key or value voids the
//! whole reply, and a void PreToolUse reply lets the tool run.

use super::{
    CTX, CTX_HALT, CTX_REWRITE, DenyForm as D, Descriptor, EventSpec, FailClosed as C,
    FollowupForm as F, HALT, NONE, row,
};
use crate::{Dialect, EventKind as K};

/// Failing closed: Codex's PreToolUse and PermissionRequest schemas accept
/// Claude Code's closed replies exactly, and exit 2 with a non-empty
/// stderr blocks a prompt; its other events have nothing to block. An
/// event missing here is failed as Claude Code's row, if it has one.
pub(super) const DESCRIPTOR: Descriptor = Descriptor::obeying_claude_code(Dialect::Codex, &EVENTS);

#[rustfmt::skip]
const EVENTS: [EventSpec; 12] = [
    row("SessionStart", K::SessionStart, true, D::None, CTX_HALT, F::None, Some("source")),
    row("UserPromptSubmit", K::PromptSubmit, true, D::Block, CTX_HALT, F::None, None).fails(C::Exit2),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, CTX_REWRITE, F::None, None).fails(C::PreToolDenyExit2),
    row("PermissionRequest", K::PermissionRequest, true, D::Behavior, NONE, F::None, None).fails(C::PermissionRequestDeny),
    row("PostToolUse", K::PostToolUse, true, D::Feedback, CTX, F::None, None),
    row("Stop", K::Stop, true, D::None, HALT, F::Block, None),
    row("SubagentStart", K::SubagentStart, true, D::None, CTX, F::None, None),
    row("SubagentStop", K::SubagentStop, true, D::None, NONE, F::None, None),
    row("PreCompact", K::PreCompact, false, D::None, NONE, F::None, Some("trigger")),
    row("PostCompact", K::PostCompact, false, D::None, NONE, F::None, Some("trigger")),
    row("Interrupt", K::Other, false, D::None, NONE, F::None, None),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
];
