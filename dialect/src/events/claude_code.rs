//! Every Claude Code hook event: its canonical kind, whether Claude Code
//! waits for the answer, and how each part of a decision can be said
//! (docs/agents.md, "Claude Code", checked against the real CLIs 2.1.197 and
//! 2.1.332: docs/conformance.md). Unknown events get [`UNKNOWN`]: kind
//! `Other`, nothing expressible.
//!
//! A capability is only set where the real CLI was seen to do what the part
//! means; where it does something else (context on `Stop` makes Claude keep
//! going, `continue: false` on `SessionStart` is ignored) the part is a
//! loss, never rendered.

use super::{
    ASK, CTX, CTX_HALT, DenyForm as D, Descriptor, EventSpec, FailClosed as C, FollowupForm as F,
    HALT, NONE, row,
};
use crate::{Dialect, EventKind as K, WORKTREE_CREATE_MESSAGE};

/// Failing closed, exit 2 blocks wherever Claude Code documents it. Not
/// on the continuation events (`Stop`, `SubagentStop`, `TeammateIdle`):
/// "blocking" those would force the agent to keep working. Not on
/// `PostToolBatch`: its tools already ran, and exit 2 there only ends the
/// loop.
const X2: C = C::Exit2;
/// The JSON deny is the documented way; exit 2 also blocks should the
/// JSON not be read, and puts the reason on stderr for Claude.
const PRE_TOOL_DENY_X2: C = C::PreToolDenyExit2;
/// Exit 2 is ignored on `PermissionRequest`: only the decision denies.
const PERMISSION_DENY: C = C::PermissionRequestDeny;

/// An unknown or unnamed event fails closed with exit 2, which blocks
/// wherever exit 2 can.
pub(super) const DESCRIPTOR: Descriptor = Descriptor::new(Dialect::ClaudeCode, &EVENTS, C::Exit2);

/// The events Claude Code documents for its hooks, in `gateway install`
/// order (those added since 2.1.197 say since when). "Blocking" is true
/// wherever Claude Code waits for the hook (every event whose answer it
/// reads).
///
/// Not hooked by install: events with nothing to check, and WorktreeCreate
/// (a hook there replaces worktree creation). PreSkillShellCommand and
/// PreModelSwitch are hooked although 2.1.197 ignores them: without the
/// first, a skill's inline command runs past every policy on the versions
/// that have it. ConfigChange is hooked: unhooked, a settings file changed
/// mid-session (`disableAllHooks`) turns the hooks off at once;
/// self-protection denies it, and the session keeps its hooks (real_agents
/// self_protection).
#[rustfmt::skip]
pub(super) const EVENTS: [EventSpec; 34] = [
    // `continue: false` is ignored on SessionStart (2.1.197 and 2.1.332).
    row("SessionStart", K::SessionStart, true, D::None, CTX, F::None, Some("source")),
    row("Setup", K::Other, true, D::None, CTX_HALT, F::None, Some("trigger")).not_hooked(),
    row("InstructionsLoaded", K::Other, false, D::None, NONE, F::None, Some("load_reason")).not_hooked(),
    row("UserPromptSubmit", K::PromptSubmit, true, D::Block, CTX_HALT, F::None, Some("source")).fails(X2),
    row("UserPromptExpansion", K::Other, true, D::Block, CTX_HALT, F::None, None).fails(X2).not_hooked(),
    row("MessageDisplay", K::Other, false, D::None, NONE, F::None, None).not_hooked(),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, (true, true, true, true), F::None, None).fails(PRE_TOOL_DENY_X2),
    // 2.1.332: the shell command a skill or slash command runs inline
    // (`` !`cmd` ``), guarded like a shell tool call.
    row("PreSkillShellCommand", K::PreToolUse, true, D::PermissionDecision, ASK, F::None, Some("command_name")).fails(PRE_TOOL_DENY_X2),
    // 2.1.251: a model switch (`/model`), allowed, denied or asked.
    row("PreModelSwitch", K::Other, true, D::PermissionDecision, ASK, F::None, Some("source")).fails(X2),
    // Did not fire in `-p` runs: nothing is promised for it.
    row("PostModelSwitch", K::Other, false, D::None, NONE, F::None, Some("source")).not_hooked(),
    row("PermissionRequest", K::PermissionRequest, true, D::Behavior, (true, false, true, true), F::None, None).fails(PERMISSION_DENY),
    row("PermissionDenied", K::Other, false, D::None, NONE, F::None, Some("reason")).not_hooked(),
    row("PostToolUse", K::PostToolUse, true, D::Feedback, CTX_HALT, F::None, None),
    // `continue: false` is ignored on PostToolUseFailure (both versions).
    row("PostToolUseFailure", K::ToolFailure, true, D::Feedback, CTX, F::None, None),
    // Any `decision: "block"` or exit 2 here ends the loop: only halt may.
    row("PostToolBatch", K::Other, true, D::Feedback, CTX_HALT, F::None, None),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("SubagentStart", K::SubagentStart, true, D::None, CTX_HALT, F::None, None),
    // Context on Stop / SubagentStop reads as "keep going": a loss.
    row("SubagentStop", K::SubagentStop, true, D::None, HALT, F::Block, None),
    row("TaskCreated", K::Other, true, D::Block, NONE, F::None, None).fails(X2).not_hooked(),
    row("TaskCompleted", K::Other, true, D::Exit2, HALT, F::None, None).fails(X2).not_hooked(),
    row("Stop", K::Stop, true, D::None, HALT, F::Block, None),
    row("StopFailure", K::Other, false, D::None, NONE, F::None, Some("error")).not_hooked(),
    row("TeammateIdle", K::Other, true, D::None, HALT, F::Exit2, None).not_hooked(),
    row("ConfigChange", K::ConfigChange, true, D::Block, HALT, F::None, Some("source")).fails(X2),
    row("CwdChanged", K::Other, false, D::None, NONE, F::None, None).not_hooked(),
    row("DirectoryAdded", K::Other, false, D::None, NONE, F::None, Some("source")).not_hooked(),
    row("FileChanged", K::Other, false, D::None, NONE, F::None, Some("event")).not_hooked(),
    row("WorktreeCreate", K::Other, true, D::Exit2, NONE, F::None, None)
        .fails(X2).without_neutral(WORKTREE_CREATE_MESSAGE).not_hooked(),
    row("WorktreeRemove", K::Other, false, D::None, NONE, F::None, None).not_hooked(),
    row("PreCompact", K::PreCompact, true, D::Block, HALT, F::None, Some("trigger")).fails(X2),
    row("PostCompact", K::PostCompact, false, D::None, NONE, F::None, Some("trigger")).not_hooked(),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
    row("Elicitation", K::Other, true, D::Decline, HALT, F::None, Some("message")).fails(X2).not_hooked(),
    row("ElicitationResult", K::Other, true, D::Decline, HALT, F::None, Some("action")).fails(X2).not_hooked(),
];
