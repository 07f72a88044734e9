//! One table shape for every agent: a [`Descriptor`] per dialect holds one
//! [`EventSpec`] row per native event, and everything hookgate knows of an
//! event lives in its row: the name `gateway install` hooks, the canonical
//! kind, whether the agent waits, how each part of a decision is said, and
//! how that agent obeys a block on it when no gateway answers
//! ([`FailClosed`], read by [`crate::fallback`]). The adapters' parse and
//! render read the same rows, so none of them can disagree.
//!
//! The columns are named after Claude Code's protocol, where most agents'
//! came from; an agent with its own replies reads them with one meaning
//! per column, written in its table's header.

mod claude_code;
mod cline;
mod codex;
mod copilot;
mod cursor;
mod droid;
mod gemini_cli;
mod hermes;
mod opencode;
mod qwen_code;

use alloc::vec::Vec;

use crate::{Capabilities, Dialect, EventKind};

/// How a deny is said for an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DenyForm {
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
pub enum FollowupForm {
    None,
    /// Top-level `decision: "block"` + `reason` (Stop, SubagentStop).
    Block,
    /// Exit code 2, message on stderr (TeammateIdle).
    Exit2,
}

/// The reply that blocks an event when no gateway answers and the shim
/// fails closed: the way this agent obeys a block on it (docs/agents.md,
/// "Fallback replies").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailClosed {
    /// Nothing to block (the action already ran, the agent does not wait,
    /// or "blocking" would only force a continuation, which is no safer
    /// than letting the agent stop): the neutral reply.
    Nothing,
    /// Exit 2, the message on stderr.
    Exit2,
    /// Claude Code's pre-tool JSON deny, plus exit 2 and the message on
    /// stderr should the JSON not be read.
    PreToolDenyExit2,
    /// Claude Code's pre-tool JSON deny at exit 0.
    PreToolDeny,
    /// Claude Code's `PermissionRequest` decision (`behavior: "deny"`):
    /// exit 2 is ignored there.
    PermissionRequestDeny,
    /// A flat `{"permissionDecision":"deny",…}` (Copilot's `preToolUse`).
    FlatPermissionDeny,
    /// A flat `{"behavior":"deny",…}` (Copilot's `permissionRequest`).
    FlatBehaviorDeny,
    /// `{"decision":"block",…}` at exit 0 (Hermes ignores exit codes).
    DecisionBlock,
    /// `{"decision":"deny",…}` plus exit 2 and stderr (Gemini reads the
    /// JSON first, and a JSON without a decision lets the action go).
    DecisionDenyExit2,
    /// `{"cancel":true,…}` (Cline reads stdout whatever the exit code).
    Cancel,
}

/// One event's row in its agent's table.
#[derive(Debug, Clone, Copy)]
pub struct EventSpec {
    /// The native event name, exactly as the payload (or the shim's
    /// argument) gives it.
    pub name: &'static str,
    /// The name `gateway install` registers the hook under (Cline's SDK
    /// hook file `PreToolUse` receives `tool_call`); `None`: not hooked.
    pub hook: Option<&'static str>,
    pub kind: EventKind,
    /// Does the agent wait for the hook's answer?
    pub blocking: bool,
    pub deny: DenyForm,
    /// `permissionDecision: "ask"` (PreToolUse), or no decision at all so
    /// that Claude Code shows its own dialog (PermissionRequest).
    pub ask: bool,
    /// `hookSpecificOutput.additionalContext`.
    pub context: bool,
    /// `updatedInput` (PreToolUse, PermissionRequest).
    pub rewrite: bool,
    /// `continue: false` + `stopReason`, on events whose JSON is read.
    pub halt: bool,
    pub followup: FollowupForm,
    /// The top-level field that becomes the event's reason.
    pub reason_key: Option<&'static str>,
    /// The reply when the gateway is down and the shim fails closed.
    pub fail_closed: FailClosed,
    /// The event has no neutral reply: failing open exits 1 with this
    /// message (Claude Code's `WorktreeCreate`, whose stdout would be read
    /// as a worktree path).
    pub no_neutral: Option<&'static str>,
}

impl EventSpec {
    /// The answers the agent acts on for this event.
    pub fn capabilities(&self) -> Capabilities {
        Capabilities {
            deny: !matches!(self.deny, DenyForm::None | DenyForm::Feedback),
            ask: self.ask,
            context: self.context,
            input_rewrite: self.rewrite,
            halt: self.halt,
            followup: self.followup != FollowupForm::None,
        }
    }

    /// This row, blocked by `form` when failing closed.
    pub const fn fails(self, form: FailClosed) -> EventSpec {
        EventSpec {
            fail_closed: form,
            ..self
        }
    }

    /// This row, hooked under `hook` instead of its name.
    pub const fn hooked_as(self, hook: &'static str) -> EventSpec {
        EventSpec {
            hook: Some(hook),
            ..self
        }
    }

    /// This row, which has no neutral reply: failing open exits 1 with
    /// `message`.
    pub const fn without_neutral(self, message: &'static str) -> EventSpec {
        EventSpec {
            no_neutral: Some(message),
            ..self
        }
    }

    /// This row, which `gateway install` does not hook, on purpose (the
    /// row's comment says why): hooking one changes what every install
    /// writes and, under `--fail-closed`, what is blocked while the
    /// gateway is down.
    pub const fn not_hooked(self) -> EventSpec {
        EventSpec { hook: None, ..self }
    }
}

/// The answers an event takes besides the deny: (ask, context, rewrite, halt).
pub type Flags = (bool, bool, bool, bool);

/// Builds a row that has nothing to block when failing closed (see
/// [`EventSpec::fails`]), hooked under its own name.
pub const fn row(
    name: &'static str,
    kind: EventKind,
    blocking: bool,
    deny: DenyForm,
    flags: Flags,
    followup: FollowupForm,
    reason_key: Option<&'static str>,
) -> EventSpec {
    EventSpec {
        name,
        hook: Some(name),
        kind,
        blocking,
        deny,
        ask: flags.0,
        context: flags.1,
        rewrite: flags.2,
        halt: flags.3,
        followup,
        reason_key,
        fail_closed: FailClosed::Nothing,
        no_neutral: None,
    }
}

/// Flags: nothing but halt / context and halt / nothing at all.
pub const HALT: Flags = (false, false, false, true);
pub const CTX_HALT: Flags = (false, true, false, true);
pub const NONE: Flags = (false, false, false, false);
/// Flags: context only / ask only / rewrite only (plus the deny form).
pub const CTX: Flags = (false, true, false, false);
pub const ASK: Flags = (true, false, false, false);
pub const REWRITE: Flags = (false, false, true, false);
/// Flags: rewrite and halt / context and rewrite.
pub const REWRITE_HALT: Flags = (false, false, true, true);
pub const CTX_REWRITE: Flags = (false, true, true, false);

/// Any event not in a table: kind `Other`, nothing expressible.
pub const UNKNOWN: EventSpec = row(
    "",
    EventKind::Other,
    false,
    DenyForm::None,
    NONE,
    FollowupForm::None,
    None,
);

/// Everything hookgate knows of one dialect's events.
#[derive(Debug)]
pub struct Descriptor {
    /// Its own dialect: checked against [`Dialect::descriptor`]'s arms, so
    /// a table wired to the wrong dialect fails a test.
    pub dialect: Dialect,
    /// One row per native event, in `gateway install` order.
    pub events: &'static [EventSpec],
    /// The neutral reply's stdout (Cursor: `{}`, since a handler with
    /// `failClosed: true` treats an empty response as a failure).
    pub neutral_stdout: &'static [u8],
    /// Failing closed on an event in no table: block wherever this can.
    pub unknown: FailClosed,
    /// Rows an event missing from `events` is failed closed by first (the
    /// agents that obey Claude Code's replies: Claude Code's rows).
    pub fail_closed_as: &'static [EventSpec],
    /// Rows an event missing from `events` (and `fail_closed_as`) is left
    /// alone by when they have nothing to block on it (Copilot CLI: the
    /// other config case's rows).
    pub left_alone_as: &'static [EventSpec],
}

impl Descriptor {
    /// `dialect`'s `events`, an unknown event failed closed as `unknown`,
    /// an empty neutral reply.
    pub const fn new(dialect: Dialect, events: &'static [EventSpec], unknown: FailClosed) -> Self {
        Descriptor {
            dialect,
            events,
            neutral_stdout: b"",
            unknown,
            fail_closed_as: &[],
            left_alone_as: &[],
        }
    }

    /// An agent that obeys Claude Code's exit codes and JSON: an event
    /// missing from `events` fails closed as Claude Code's row of that
    /// name, or with exit 2.
    pub const fn obeying_claude_code(dialect: Dialect, events: &'static [EventSpec]) -> Self {
        Descriptor {
            fail_closed_as: &claude_code::EVENTS,
            ..Descriptor::new(dialect, events, FailClosed::Exit2)
        }
    }

    /// The row for `native_event` ([`UNKNOWN`] when absent).
    pub fn spec(&self, native_event: &str) -> &'static EventSpec {
        find(self.events, native_event).unwrap_or(&UNKNOWN)
    }

    /// How to block `native_event` when failing closed.
    pub fn fail_closed(&self, native_event: Option<&str>) -> FailClosed {
        let Some(event) = native_event else {
            return self.unknown;
        };
        if let Some(spec) = find(self.events, event).or_else(|| find(self.fail_closed_as, event)) {
            return spec.fail_closed;
        }
        match find(self.left_alone_as, event) {
            Some(spec) if spec.fail_closed == FailClosed::Nothing => FailClosed::Nothing,
            _ => self.unknown,
        }
    }

    /// The hook names of the events `gateway install` registers, in table
    /// order.
    pub fn hook_names(&self) -> Vec<&'static str> {
        self.events.iter().filter_map(|spec| spec.hook).collect()
    }
}

fn find(table: &'static [EventSpec], native_event: &str) -> Option<&'static EventSpec> {
    table.iter().find(|spec| spec.name == native_event)
}

impl Dialect {
    /// This dialect's events table.
    pub const fn descriptor(self) -> &'static Descriptor {
        match self {
            Dialect::ClaudeCode => &claude_code::DESCRIPTOR,
            Dialect::Cursor => &cursor::DESCRIPTOR,
            Dialect::ClineSdk => &cline::SDK,
            Dialect::ClineLegacy => &cline::LEGACY,
            Dialect::QwenCode => &qwen_code::DESCRIPTOR,
            Dialect::Droid => &droid::DESCRIPTOR,
            Dialect::GeminiCli => &gemini_cli::DESCRIPTOR,
            Dialect::Codex => &codex::DESCRIPTOR,
            Dialect::CopilotPascal => &copilot::PASCAL,
            Dialect::CopilotCamel => &copilot::CAMEL,
            Dialect::Hermes => &hermes::DESCRIPTOR,
            Dialect::OpenCode => &opencode::DESCRIPTOR,
        }
    }
}

/// The hook names of the events `dialect`'s table holds, in table order:
/// the native event names, but for Cline's SDK hooks the hook file's
/// (`PreToolUse` receives `hookName: "tool_call"`). An event missing here
/// reads as unknown (`other`, nothing expressible).
pub fn hook_names(dialect: Dialect) -> Vec<&'static str> {
    dialect.descriptor().hook_names()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each name once: install would hook a name twice, and a second row
    /// for a name would never be read.
    #[test]
    fn every_dialect_names_each_of_its_events_once() {
        for dialect in Dialect::ALL {
            let descriptor = dialect.descriptor();
            assert_eq!(descriptor.dialect, dialect);
            let names = hook_names(dialect);
            assert!(!names.is_empty(), "{dialect:?}");
            for (at, name) in names.iter().enumerate() {
                assert!(!names[..at].contains(name), "{dialect:?}: {name} twice");
            }
            let events = descriptor.events;
            for (at, spec) in events.iter().enumerate() {
                assert!(
                    !events[..at].iter().any(|s| s.name == spec.name),
                    "{dialect:?}: row {} twice",
                    spec.name
                );
            }
        }
    }

    /// A row's `fail_closed` defaults to `Nothing`: a row that can deny but
    /// forgot `.fails(..)` would let the action go with the gateway down.
    #[test]
    fn every_event_a_hook_can_deny_is_blocked_when_failing_closed() {
        for dialect in Dialect::ALL {
            for spec in dialect.descriptor().events {
                assert!(
                    !spec.capabilities().deny || spec.fail_closed != FailClosed::Nothing,
                    "{dialect:?} {}: deniable but failing closed does nothing",
                    spec.name
                );
            }
        }
    }

    /// Qwen Code and Droid obey Claude Code's replies: a row of theirs
    /// that Claude Code has too fails closed the same way (their own row
    /// wins over Claude's, so a copy that drifted would not show).
    #[test]
    fn agents_obeying_claude_code_fail_closed_as_its_rows() {
        for dialect in [Dialect::QwenCode, Dialect::Droid] {
            for spec in dialect.descriptor().events {
                if let Some(claude) = find(&claude_code::EVENTS, spec.name) {
                    assert_eq!(
                        spec.fail_closed, claude.fail_closed,
                        "{dialect:?} {}",
                        spec.name
                    );
                }
            }
        }
    }
}
