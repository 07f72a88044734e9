//! Cursor's events: which canonical kind each one is and which answers
//! Cursor acts on for it (docs/agents.md, "Cursor").
//!
//! One meaning per column for Cursor's renderer: `deny`
//! `PermissionDecision` is the reply's `permission: "deny"` field (`ask`:
//! `permission: "ask"`, which shows Cursor's approval UI), `deny` `Block`
//! is `continue: false` (it stops the prompt from being sent: both a deny
//! and a halt), `context` is `additional_context`, `rewrite` is
//! `updated_input`, `followup` is `followup_message`. Cursor waits for the
//! events whose answer it acts on and for no other. Failing closed, a bare
//! exit 2 blocks (Cursor does not parse a JSON body that comes with it, so
//! stdout stays empty); elsewhere the neutral reply is `{}`.

use super::{
    ASK, CTX, DenyForm as D, Descriptor, EventSpec, FailClosed as C, FollowupForm as F, HALT, NONE,
    REWRITE, row,
};
use crate::{Dialect, EventKind as K};

/// An unknown or unnamed event fails closed with exit 2, which blocks
/// wherever it can.
pub(super) const DESCRIPTOR: Descriptor = Descriptor {
    // A handler with `failClosed: true` treats an empty response as a
    // failure and blocks.
    neutral_stdout: b"{}\n",
    ..Descriptor::new(Dialect::Cursor, &EVENTS, C::Exit2)
};

/// A `permission: "deny"` field; `X2` when failing closed.
const PERMISSION: D = D::PermissionDecision;
const X2: C = C::Exit2;

/// Every event hookgate reads, in `gateway install` order. `preToolUse`
/// accepts `ask` but does not enforce it, so it is not a capability there.
/// `workspaceOpen` is not hooked (its `pluginPaths` output is not ours to
/// give) and reads as `other`, nothing expressible; failing closed
/// leaves it alone (`{}`). `subagentStop` honours `followup_message`
/// only when the subagent completed; the parser narrows that with the
/// payload's `status`.
#[rustfmt::skip]
const EVENTS: [EventSpec; 21] = [
    row("sessionStart", K::SessionStart, true, D::None, CTX, F::None, None),
    row("beforeSubmitPrompt", K::PromptSubmit, true, D::Block, HALT, F::None, None).fails(X2),
    row("preToolUse", K::PreToolUse, true, PERMISSION, REWRITE, F::None, None).fails(X2),
    row("beforeShellExecution", K::PreToolUse, true, PERMISSION, ASK, F::None, None).fails(X2),
    row("beforeMCPExecution", K::PreToolUse, true, PERMISSION, ASK, F::None, None).fails(X2),
    row("beforeReadFile", K::FileRead, true, PERMISSION, NONE, F::None, None).fails(X2),
    row("beforeTabFileRead", K::FileRead, true, PERMISSION, NONE, F::None, None).fails(X2),
    row("subagentStart", K::SubagentStart, true, PERMISSION, NONE, F::None, None).fails(X2),
    row("postToolUse", K::PostToolUse, true, D::None, CTX, F::None, None),
    row("postToolUseFailure", K::ToolFailure, false, D::None, NONE, F::None, None),
    // Fire-and-forget: Cursor ignores the output.
    row("afterShellExecution", K::PostToolUse, false, D::None, NONE, F::None, None),
    row("afterMCPExecution", K::PostToolUse, false, D::None, NONE, F::None, None),
    row("afterFileEdit", K::FileEdit, false, D::None, NONE, F::None, None),
    row("afterTabFileEdit", K::FileEdit, false, D::None, NONE, F::None, None),
    row("afterAgentResponse", K::AgentResponse, false, D::None, NONE, F::None, None),
    row("afterAgentThought", K::AgentThought, false, D::None, NONE, F::None, None),
    row("subagentStop", K::SubagentStop, true, D::None, NONE, F::Block, None),
    row("stop", K::Stop, true, D::None, NONE, F::Block, None),
    // Its `user_message` output is a notice, not one of our answers.
    row("preCompact", K::PreCompact, false, D::None, NONE, F::None, None),
    row("sessionEnd", K::SessionEnd, false, D::None, NONE, F::None, None),
    row("workspaceOpen", K::Other, false, D::None, NONE, F::None, None).not_hooked(),
];
