//! Every Factory Droid 0.225.2 hook event (from its binary) and what a
//! reply can do there, as measured with the real CLI (docs/agents.md).
//!
//! Against Claude Code: PreToolUse has no context (not delivered) and no
//! ask (under `--auto high` an ask let the tool run, so hookgate renders an
//! ask as a deny); `UserPromptSubmit` does not fire for `droid exec`.

use crate::EventKind as K;
use crate::claude_code::events::{
    CTX_HALT, DenyForm as D, EventSpec, FollowupForm as F, HALT, NONE, row,
};

/// PreToolUse: rewrite and halt, but no ask and no context.
const REWRITE_HALT: (bool, bool, bool, bool) = (false, false, true, true);

#[rustfmt::skip]
pub(super) const EVENTS: [EventSpec; 9] = [
    row("SessionStart", K::SessionStart, false, D::None, CTX_HALT, F::None, Some("source")),
    row("UserPromptSubmit", K::PromptSubmit, true, D::Block, CTX_HALT, F::None, None),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, REWRITE_HALT, F::None, None),
    row("PostToolUse", K::PostToolUse, false, D::Feedback, CTX_HALT, F::None, None),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("Stop", K::Stop, true, D::None, HALT, F::Block, None),
    row("SubagentStop", K::SubagentStop, true, D::None, HALT, F::Block, None),
    row("PreCompact", K::PreCompact, true, D::Block, HALT, F::None, Some("trigger")),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
];
