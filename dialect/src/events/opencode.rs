//! The OpenCode 1.18.33 hooks hookgate's plugin forwards, and what a reply
//! can do through it (measured with the real CLI: docs/agents.md,
//! "OpenCode").
//!
//! `tool.execute.before` is awaited before the tool runs: a deny throws and
//! the model reads the reason as the tool's result; `updatedInput` replaces
//! the arguments the tool runs with; context is appended to that call's
//! result. `tool.execute.after` runs after the tool: a deny is feedback
//! appended to the result, like its context. `chat.message` is awaited
//! before the prompt reaches the model: a deny throws, which ends
//! `opencode run` with "Unexpected server error" and no model request (the
//! reason is lost: a loss); context joins the session's system prompt.
//! `session.created` and `session.idle` come through OpenCode's `event`
//! hook, which OpenCode does not wait for: nothing to block; the plugin
//! holds the first model request until session.created's context is in.
//! Halting a session and asking the user are never expressible: OpenCode
//! gives plugins neither (1.18.33 never triggers `permission.ask`).

use super::{
    CTX, CTX_REWRITE, DenyForm as D, Descriptor, EventSpec, FailClosed as C, FollowupForm as F,
    NONE, row,
};
use crate::{Dialect, EventKind as K};

/// Failing closed: hookgate's OpenCode plugin applies Claude Code's
/// replies: a JSON deny on `tool.execute.before` throws with its reason,
/// exit 2 throws with stderr wherever the plugin can throw.
pub(super) const DESCRIPTOR: Descriptor = Descriptor::new(Dialect::OpenCode, &EVENTS, C::Exit2);

#[rustfmt::skip]
const EVENTS: [EventSpec; 5] = [
    row("session.created", K::SessionStart, false, D::None, CTX, F::None, None),
    row("chat.message", K::PromptSubmit, true, D::Block, CTX, F::None, None).fails(C::Exit2),
    row("tool.execute.before", K::PreToolUse, true, D::PermissionDecision, CTX_REWRITE, F::None, None).fails(C::PreToolDeny),
    row("tool.execute.after", K::PostToolUse, true, D::Feedback, CTX, F::None, None),
    row("session.idle", K::Stop, false, D::None, NONE, F::None, None),
];
