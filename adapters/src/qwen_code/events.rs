//! The Qwen Code 0.24.4 hook events (the enum in its bundle) and what a
//! reply can do there. Measured with the real CLI where docs/agents.md says
//! so; the rest follows Qwen's documented Claude Code compatibility.
//! `SessionDelete`, `TodoCreated` and `TodoCompleted` are left out on
//! purpose: what a reply does there is unknown, so they are read like any
//! unknown event (`other`, nothing expressible; fail-closed exits 2).
//!
//! Losses against Claude Code, measured on 0.24.4: PreToolUse ignores
//! `updatedInput` and `additionalContext` (`firePreToolUseHook` reads only
//! deny, ask, stop and context for telemetry).

use crate::EventKind as K;
use crate::claude_code::events::{
    CTX_HALT, DenyForm as D, EventSpec, FollowupForm as F, HALT, NONE, row,
};

/// PreToolUse: ask and halt, but no context and no rewrite.
const ASK_HALT: (bool, bool, bool, bool) = (true, false, false, true);

#[rustfmt::skip]
pub(super) const EVENTS: [EventSpec; 17] = [
    row("SessionStart", K::SessionStart, false, D::None, CTX_HALT, F::None, Some("source")),
    row("UserPromptSubmit", K::PromptSubmit, true, D::Block, CTX_HALT, F::None, None),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, ASK_HALT, F::None, None),
    row("PermissionRequest", K::PermissionRequest, true, D::Behavior, (true, false, false, true), F::None, None),
    row("PermissionDenied", K::Other, false, D::None, NONE, F::None, Some("reason")),
    row("PostToolUse", K::PostToolUse, false, D::Feedback, CTX_HALT, F::None, None),
    row("PostToolUseFailure", K::ToolFailure, false, D::None, CTX_HALT, F::None, None),
    // A post-action deny is feedback, never a loop stop (docs/agents.md).
    row("PostToolBatch", K::Other, true, D::Feedback, CTX_HALT, F::None, None),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("SubagentStart", K::SubagentStart, false, D::None, CTX_HALT, F::None, None),
    row("SubagentStop", K::SubagentStop, true, D::None, CTX_HALT, F::Block, None),
    row("Stop", K::Stop, true, D::None, CTX_HALT, F::Block, None),
    row("StopFailure", K::Other, false, D::None, NONE, F::None, Some("error")),
    row("PreCompact", K::PreCompact, true, D::Block, HALT, F::None, Some("trigger")),
    row("PostCompact", K::PostCompact, false, D::None, NONE, F::None, Some("trigger")),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
    row("MessageDisplay", K::Other, false, D::None, NONE, F::None, None),
];
