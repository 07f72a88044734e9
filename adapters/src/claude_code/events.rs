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

use crate::{Capabilities, EventKind};

/// How a deny is said for an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DenyForm {
    /// Cannot be said.
    None,
    /// `hookSpecificOutput.permissionDecision: "deny"` (PreToolUse).
    PermissionDecision,
    /// `hookSpecificOutput.decision.behavior: "deny"` (PermissionRequest).
    Behavior,
    /// Top-level `decision: "block"` + `reason`.
    Block,
    /// The action already happened (PostToolUse, PostToolUseFailure,
    /// PostToolBatch): the reason goes to the model as feedback in
    /// `additionalContext`, never as `decision: "block"` (which ends the
    /// loop on PostToolBatch). Nothing was prevented, so it is also a loss.
    Feedback,
    /// Exit code 2, reason on stderr.
    Exit2,
    /// `hookSpecificOutput.action: "decline"` (Elicitation*).
    Decline,
}

/// How "keep going with this message" is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FollowupForm {
    None,
    /// Top-level `decision: "block"` + `reason` (Stop, SubagentStop).
    Block,
    /// Exit code 2, message on stderr (TeammateIdle).
    Exit2,
}

/// One event's row in the table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EventSpec {
    pub(crate) name: &'static str,
    pub(crate) kind: EventKind,
    pub(crate) blocking: bool,
    pub(crate) deny: DenyForm,
    /// `permissionDecision: "ask"` (PreToolUse), or no decision at all so
    /// that Claude Code shows its own dialog (PermissionRequest).
    pub(crate) ask: bool,
    /// `hookSpecificOutput.additionalContext`.
    pub(crate) context: bool,
    /// `updatedInput` (PreToolUse, PermissionRequest).
    pub(crate) rewrite: bool,
    /// `continue: false` + `stopReason`, on events whose JSON is read.
    pub(crate) halt: bool,
    pub(crate) followup: FollowupForm,
    /// The top-level field that becomes `HookEvent::reason`.
    pub(crate) reason_key: Option<&'static str>,
}

impl EventSpec {
    pub(crate) fn capabilities(&self) -> Capabilities {
        Capabilities {
            deny: !matches!(self.deny, DenyForm::None | DenyForm::Feedback),
            ask: self.ask,
            context: self.context,
            input_rewrite: self.rewrite,
            halt: self.halt,
            followup: self.followup != FollowupForm::None,
        }
    }
}

/// Builds a row; `flags` = (ask, context, rewrite, halt).
pub(crate) const fn row(
    name: &'static str,
    kind: EventKind,
    blocking: bool,
    deny: DenyForm,
    flags: (bool, bool, bool, bool),
    followup: FollowupForm,
    reason_key: Option<&'static str>,
) -> EventSpec {
    EventSpec {
        name,
        kind,
        blocking,
        deny,
        ask: flags.0,
        context: flags.1,
        rewrite: flags.2,
        halt: flags.3,
        followup,
        reason_key,
    }
}

use DenyForm as D;
use EventKind as K;
use FollowupForm as F;

/// Flags: nothing but halt / context and halt / nothing at all.
pub(crate) const HALT: (bool, bool, bool, bool) = (false, false, false, true);
pub(crate) const CTX_HALT: (bool, bool, bool, bool) = (false, true, false, true);
pub(crate) const NONE: (bool, bool, bool, bool) = (false, false, false, false);

/// Flags: context only / ask only (plus the deny form).
pub(crate) const CTX: (bool, bool, bool, bool) = (false, true, false, false);
pub(crate) const ASK: (bool, bool, bool, bool) = (true, false, false, false);

/// The events Claude Code documents for its hooks, in `gateway install`
/// order (those added since 2.1.197 say since when). "Blocking" is true
/// wherever Claude Code waits for the hook (every event whose answer it
/// reads).
#[rustfmt::skip]
pub(crate) const EVENTS: [EventSpec; 34] = [
    // `continue: false` is ignored on SessionStart (2.1.197 and 2.1.332).
    row("SessionStart", K::SessionStart, true, D::None, CTX, F::None, Some("source")),
    row("Setup", K::Other, true, D::None, CTX_HALT, F::None, Some("trigger")),
    row("InstructionsLoaded", K::Other, false, D::None, NONE, F::None, Some("load_reason")),
    row("UserPromptSubmit", K::PromptSubmit, true, D::Block, CTX_HALT, F::None, Some("source")),
    row("UserPromptExpansion", K::Other, true, D::Block, CTX_HALT, F::None, None),
    row("MessageDisplay", K::Other, false, D::None, NONE, F::None, None),
    row("PreToolUse", K::PreToolUse, true, D::PermissionDecision, (true, true, true, true), F::None, None),
    // 2.1.332: the shell command a skill or slash command runs inline
    // (`` !`cmd` ``), guarded like a shell tool call.
    row("PreSkillShellCommand", K::PreToolUse, true, D::PermissionDecision, ASK, F::None, Some("command_name")),
    // 2.1.251: a model switch (`/model`), allowed, denied or asked.
    row("PreModelSwitch", K::Other, true, D::PermissionDecision, ASK, F::None, Some("source")),
    // Did not fire in `-p` runs: nothing is promised for it.
    row("PostModelSwitch", K::Other, false, D::None, NONE, F::None, Some("source")),
    row("PermissionRequest", K::PermissionRequest, true, D::Behavior, (true, false, true, true), F::None, None),
    row("PermissionDenied", K::Other, false, D::None, NONE, F::None, Some("reason")),
    row("PostToolUse", K::PostToolUse, true, D::Feedback, CTX_HALT, F::None, None),
    // `continue: false` is ignored on PostToolUseFailure (both versions).
    row("PostToolUseFailure", K::ToolFailure, true, D::Feedback, CTX, F::None, None),
    // Any `decision: "block"` or exit 2 here ends the loop: only halt may.
    row("PostToolBatch", K::Other, true, D::Feedback, CTX_HALT, F::None, None),
    row("Notification", K::Notification, false, D::None, NONE, F::None, Some("message")),
    row("SubagentStart", K::SubagentStart, true, D::None, CTX_HALT, F::None, None),
    // Context on Stop / SubagentStop reads as "keep going": a loss.
    row("SubagentStop", K::SubagentStop, true, D::None, HALT, F::Block, None),
    row("TaskCreated", K::Other, true, D::Block, NONE, F::None, None),
    row("TaskCompleted", K::Other, true, D::Exit2, HALT, F::None, None),
    row("Stop", K::Stop, true, D::None, HALT, F::Block, None),
    row("StopFailure", K::Other, false, D::None, NONE, F::None, Some("error")),
    row("TeammateIdle", K::Other, true, D::None, HALT, F::Exit2, None),
    row("ConfigChange", K::ConfigChange, true, D::Block, HALT, F::None, Some("source")),
    row("CwdChanged", K::Other, false, D::None, NONE, F::None, None),
    row("DirectoryAdded", K::Other, false, D::None, NONE, F::None, Some("source")),
    row("FileChanged", K::Other, false, D::None, NONE, F::None, Some("event")),
    row("WorktreeCreate", K::Other, true, D::Exit2, NONE, F::None, None),
    row("WorktreeRemove", K::Other, false, D::None, NONE, F::None, None),
    row("PreCompact", K::PreCompact, true, D::Block, HALT, F::None, Some("trigger")),
    row("PostCompact", K::PostCompact, false, D::None, NONE, F::None, Some("trigger")),
    row("SessionEnd", K::SessionEnd, false, D::None, NONE, F::None, Some("reason")),
    row("Elicitation", K::Other, true, D::Decline, HALT, F::None, Some("message")),
    row("ElicitationResult", K::Other, true, D::Decline, HALT, F::None, Some("action")),
];

/// Any event not in [`EVENTS`].
pub(crate) const UNKNOWN: EventSpec = row("", K::Other, false, D::None, NONE, F::None, None);

/// The row for `native_event` in `table` ([`UNKNOWN`] when absent).
pub(crate) fn spec_in(table: &'static [EventSpec], native_event: &str) -> &'static EventSpec {
    table
        .iter()
        .find(|spec| spec.name == native_event)
        .unwrap_or(&UNKNOWN)
}

/// The row for `native_event`.
#[cfg(test)]
pub(crate) fn spec(native_event: &str) -> &'static EventSpec {
    spec_in(&EVENTS, native_event)
}
