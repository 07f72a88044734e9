//! The GitHub Copilot CLI 1.0.102 hook events in both of its config
//! dialects, and what a reply can do on each (docs/agents.md, "GitHub
//! Copilot CLI": measured with the real CLI where it says so, the rest from
//! GitHub's hooks reference).
//!
//! Rows of Claude Code's [`EventSpec`]. The PascalCase table drives Claude
//! Code's parser; both tables drive `camel::render_as`, with one meaning
//! per column: `deny` other than `None` is `permissionDecision: "deny"`
//! (pre-tool) or `behavior: "deny"` (permissionRequest), `context` is a
//! top-level `additionalContext`, `rewrite` is `modifiedArgs` (camel) or
//! `updatedInput` (Pascal), `followup` is the stop's `decision: "block"`. No event can ask in `-p` (an ask
//! denies there) and none reads `continue: false`. After the tool, a deny
//! is `Feedback`: nothing can be prevented any more, so its reason reaches
//! the model through the same `additionalContext` (and counts as a loss).

use super::{
    CTX, DenyForm as D, Descriptor, EventSpec, FailClosed as C, FollowupForm as F, NONE, REWRITE,
    row,
};
use crate::{Dialect, EventKind as K};

/// Failing closed: Copilot reads a JSON deny at exit 0 and shows its
/// reason; any non-zero exit also denies (since 1.0.57) but drops the
/// message, so an unknown event gets exit 2. An event the other config
/// case's table has nothing to block on is left alone in both.
pub(super) const PASCAL: Descriptor = Descriptor {
    left_alone_as: &CAMEL_EVENTS,
    ..Descriptor::new(Dialect::CopilotPascal, &PASCAL_EVENTS, C::Exit2)
};

pub(super) const CAMEL: Descriptor = Descriptor {
    left_alone_as: &PASCAL_EVENTS,
    ..Descriptor::new(Dialect::CopilotCamel, &CAMEL_EVENTS, C::Exit2)
};

/// PascalCase config: Claude-shaped payloads and replies, Claude tool names.
#[rustfmt::skip]
const PASCAL_EVENTS: [EventSpec; 9] = [
    row("SessionStart", K::SessionStart, false, D::None, CTX, F::None, Some("source")),
    row("UserPromptSubmit", K::PromptSubmit, false, D::None, CTX, F::None, None),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, REWRITE, F::None, None).fails(C::PreToolDeny),
    row("PostToolUse", K::PostToolUse, false, D::Feedback, CTX, F::None, None),
    row("PostToolUseFailure", K::ToolFailure, false, D::Feedback, CTX, F::None, None),
    row("Stop", K::Stop, true, D::None, NONE, F::Block, Some("stop_reason")),
    row("SubagentStop", K::SubagentStop, true, D::None, NONE, F::Block, None),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
];

/// camelCase config: the payload names no event; the shim's argument does.
#[rustfmt::skip]
const CAMEL_EVENTS: [EventSpec; 13] = [
    row("sessionStart", K::SessionStart, false, D::None, CTX, F::None, Some("source")),
    row("userPromptSubmitted", K::PromptSubmit, false, D::None, CTX, F::None, None),
    row("preToolUse", K::PreToolUse, true, D::PermissionDecision, REWRITE, F::None, None).fails(C::FlatPermissionDeny),
    row("permissionRequest", K::PermissionRequest, true, D::Behavior, NONE, F::None, None).fails(C::FlatBehaviorDeny),
    row("postToolUse", K::PostToolUse, false, D::Feedback, CTX, F::None, None),
    row("postToolUseFailure", K::ToolFailure, false, D::Feedback, CTX, F::None, None),
    row("agentStop", K::Stop, true, D::None, NONE, F::Block, Some("stopReason")),
    row("subagentStart", K::SubagentStart, false, D::None, CTX, F::None, None),
    row("subagentStop", K::SubagentStop, true, D::None, NONE, F::Block, None),
    row("preCompact", K::PreCompact, false, D::None, NONE, F::None, Some("trigger")),
    row("errorOccurred", K::Other, false, D::None, NONE, F::None, None),
    row("notification", K::Notification, false, D::None, CTX, F::None, Some("message")),
    row("sessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
];
