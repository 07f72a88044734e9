//! Hermes Agent 0.19.0's shell-hook events and what a reply can do on
//! each (docs/agents.md, "Hermes Agent"; measured on the real CLI where it
//! says so, the rest read from its `agent/shell_hooks.py`).
//!
//! Rows of Claude Code's [`EventSpec`], with one meaning per column for
//! `render`: `deny` `PermissionDecision` (the pending call's deny) is
//! `{"decision":"block","reason":…}`
//! (`pre_tool_call`: the tool does not run and the model reads the reason
//! as the tool's error), `context` is `{"context":…}` (`pre_llm_call`:
//! appended to the user's message), `followup` is `pre_verify`'s
//! `decision: "block"` (keep going with the reason). Hermes reads nothing
//! else: no ask, no rewrite, no halt, and exit codes are ignored.

use super::{
    CTX, DenyForm as D, Descriptor, EventSpec, FailClosed as C, FollowupForm as F, NONE, row,
};
use crate::{Dialect, EventKind as K};

/// Failing closed: Hermes ignores exit codes (measured on 0.19.0: exit 2
/// ran the tool) and reads only stdout JSON, a block at exit 0. Only
/// `pre_tool_call` reads a block (`pre_verify`'s would keep the agent
/// working); an unknown event gets the block too.
pub(super) const DESCRIPTOR: Descriptor =
    Descriptor::new(Dialect::Hermes, &EVENTS, C::DecisionBlock);

/// Every event hookgate reads, in `gateway install` order. Hermes waits
/// for every hook; "blocking" marks the three whose answer it reads.
/// `on_session_start`'s `context` is ignored (measured), and
/// `post_tool_call`'s too: the tool already ran.
#[rustfmt::skip]
const EVENTS: [EventSpec; 12] = [
    row("on_session_start", K::SessionStart, false, D::None, NONE, F::None, None),
    row("pre_llm_call", K::PromptSubmit, true, D::None, CTX, F::None, None),
    row("pre_tool_call", K::PreToolUse, true, D::PermissionDecision, NONE, F::None, None).fails(C::DecisionBlock),
    row("post_tool_call", K::PostToolUse, false, D::None, NONE, F::None, None),
    // Sends the whole conversation on every turn: not hooked.
    row("post_llm_call", K::AgentResponse, false, D::None, NONE, F::None, None).not_hooked(),
    // Fired when the agent edited code and is about to finish.
    row("pre_verify", K::Stop, true, D::None, NONE, F::Block, None),
    row("pre_approval_request", K::PermissionRequest, false, D::None, NONE, F::None, None),
    row("post_approval_response", K::Other, false, D::None, NONE, F::None, None),
    row("subagent_stop", K::SubagentStop, false, D::None, NONE, F::None, None),
    // The end of each turn (`completed`, `interrupted`).
    row("on_session_end", K::Stop, false, D::None, NONE, F::None, None),
    row("on_session_finalize", K::SessionEnd, false, D::None, NONE, F::None, None),
    // Fires around a subagent, reads nothing: not hooked, nothing to block.
    row("subagent_start", K::Other, false, D::None, NONE, F::None, None).not_hooked(),
];
