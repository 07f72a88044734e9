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

use crate::EventKind as K;
use crate::claude_code::events::{CTX, DenyForm as D, EventSpec, FollowupForm as F, NONE, row};

/// preToolUse: rewrite only (no context, no halt, no ask headless).
const REWRITE: (bool, bool, bool, bool) = (false, false, true, false);

/// PascalCase config: Claude-shaped payloads and replies, Claude tool names.
#[rustfmt::skip]
pub(super) const PASCAL: [EventSpec; 9] = [
    row("SessionStart", K::SessionStart, false, D::None, CTX, F::None, Some("source")),
    row("UserPromptSubmit", K::PromptSubmit, false, D::None, CTX, F::None, None),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, REWRITE, F::None, None),
    row("PostToolUse", K::PostToolUse, false, D::Feedback, CTX, F::None, None),
    row("PostToolUseFailure", K::ToolFailure, false, D::Feedback, CTX, F::None, None),
    row("Stop", K::Stop, true, D::None, NONE, F::Block, Some("stop_reason")),
    row("SubagentStop", K::SubagentStop, true, D::None, NONE, F::Block, None),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
];

/// camelCase config: the payload names no event; the shim's argument does.
#[rustfmt::skip]
pub(super) const CAMEL: [EventSpec; 13] = [
    row("sessionStart", K::SessionStart, false, D::None, CTX, F::None, Some("source")),
    row("userPromptSubmitted", K::PromptSubmit, false, D::None, CTX, F::None, None),
    row("preToolUse", K::PreToolUse, true, D::PermissionDecision, REWRITE, F::None, None),
    row("permissionRequest", K::PermissionRequest, true, D::Behavior, NONE, F::None, None),
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
