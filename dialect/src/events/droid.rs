//! Every Factory Droid 0.225.2 hook event (from its binary) and what a
//! reply can do there, as measured with the real CLI (docs/agents.md).
//!
//! Against Claude Code: PreToolUse has no context (not delivered) and no
//! ask (under `--auto high` an ask let the tool run, so hookgate renders an
//! ask as a deny); `UserPromptSubmit` does not fire for `droid exec`.

use super::{
    CTX_HALT, DenyForm as D, Descriptor, EventSpec, FailClosed as C, FollowupForm as F, HALT, NONE,
    REWRITE_HALT, row,
};
use crate::{Dialect, EventKind as K};

/// Failing closed, Droid obeys Claude Code's exit codes and JSON, so each
/// row fails as Claude Code's row of the same name; an event missing here
/// is failed as Claude Code's row, if it has one (docs/agents.md).
pub(super) const DESCRIPTOR: Descriptor = Descriptor::obeying_claude_code(Dialect::Droid, &EVENTS);

#[rustfmt::skip]
const EVENTS: [EventSpec; 9] = [
    row("SessionStart", K::SessionStart, false, D::None, CTX_HALT, F::None, Some("source")),
    row("UserPromptSubmit", K::PromptSubmit, true, D::Block, CTX_HALT, F::None, None).fails(C::Exit2),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, REWRITE_HALT, F::None, None).fails(C::PreToolDenyExit2),
    row("PostToolUse", K::PostToolUse, false, D::Feedback, CTX_HALT, F::None, None),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("Stop", K::Stop, true, D::None, HALT, F::Block, None),
    row("SubagentStop", K::SubagentStop, true, D::None, HALT, F::Block, None),
    row("PreCompact", K::PreCompact, true, D::Block, HALT, F::None, Some("trigger")).fails(C::Exit2),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
];
