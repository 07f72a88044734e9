//! The Qwen Code 0.24.4 hook events (the enum in its bundle) and what a
//! reply can do there. Measured with the real CLI where docs/agents.md says
//! so; the rest follows Qwen's documented Claude Code compatibility.
//! `SessionDelete`, `TodoCreated` and `TodoCompleted` are left out on
//! purpose: what a reply does there is unknown, so they are read like any
//! unknown event (`other`, nothing expressible; fail-closed exits 2).
//!
//! Losses against Claude Code on 0.24.4, measured with the real CLI where
//! docs/conformance.md has a row (PreToolUse, PostToolUse, Stop) and read
//! in its bundle for the rest: PreToolUse ignores `updatedInput` and `additionalContext`
//! (`firePreToolUseHook` reads only deny, ask, stop and context for
//! telemetry). `continue: false` ends the turn only on UserPromptSubmit;
//! everywhere else it means something other than a halt, so halt is a
//! loss there: on PreToolUse it refuses the one call (so hookgate's
//! degrade rule denies it, saying so), on PostToolUse and PostToolBatch the
//! stop reason replaces the tool's result and the loop goes on, on Stop and
//! SubagentStop it reads as "keep going" and the reason becomes the next
//! prompt (up to 8 times, `QWEN_CODE_STOP_HOOK_BLOCK_CAP`), and SessionStart,
//! SubagentStart, PostToolUseFailure and PreCompact read nothing but
//! `additionalContext`. Stop's `additionalContext` is dropped (the run ends
//! and no request carries it).

use super::{
    ASK, CTX, CTX_HALT, DenyForm as D, Descriptor, EventSpec, FailClosed as C, FollowupForm as F,
    NONE, row,
};
use crate::{Dialect, EventKind as K};

/// Failing closed, Qwen Code obeys Claude Code's exit codes and JSON, so
/// each row fails as Claude Code's row of the same name; an event missing
/// here is failed as Claude Code's row, if it has one (docs/agents.md).
pub(super) const DESCRIPTOR: Descriptor =
    Descriptor::obeying_claude_code(Dialect::QwenCode, &EVENTS);

/// Not hooked, as on Claude Code: PermissionDenied, StopFailure,
/// MessageDisplay.
#[rustfmt::skip]
const EVENTS: [EventSpec; 17] = [
    row("SessionStart", K::SessionStart, false, D::None, CTX, F::None, Some("source")),
    row("UserPromptSubmit", K::PromptSubmit, true, D::Block, CTX_HALT, F::None, None).fails(C::Exit2),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, ASK, F::None, None).fails(C::PreToolDenyExit2),
    row("PermissionRequest", K::PermissionRequest, true, D::Behavior, ASK, F::None, None).fails(C::PermissionRequestDeny),
    row("PermissionDenied", K::Other, false, D::None, NONE, F::None, Some("reason")).not_hooked(),
    row("PostToolUse", K::PostToolUse, false, D::Feedback, CTX, F::None, None),
    row("PostToolUseFailure", K::ToolFailure, false, D::None, CTX, F::None, None),
    // A post-action deny is feedback, never a loop stop (docs/agents.md).
    row("PostToolBatch", K::Other, true, D::Feedback, CTX, F::None, None),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("SubagentStart", K::SubagentStart, false, D::None, CTX, F::None, None),
    row("SubagentStop", K::SubagentStop, true, D::None, NONE, F::Block, None),
    row("Stop", K::Stop, true, D::None, NONE, F::Block, None),
    row("StopFailure", K::Other, false, D::None, NONE, F::None, Some("error")).not_hooked(),
    row("PreCompact", K::PreCompact, true, D::Block, NONE, F::None, Some("trigger")).fails(C::Exit2),
    row("PostCompact", K::PostCompact, false, D::None, NONE, F::None, Some("trigger")),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
    row("MessageDisplay", K::Other, false, D::None, NONE, F::None, None).not_hooked(),
];
