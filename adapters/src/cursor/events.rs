//! Cursor's events: which canonical kind each one is and which answers
//! Cursor acts on for it (docs/agents.md, "Cursor"). One table, so parse and
//! render cannot disagree.

use crate::{Capabilities, EventKind};

const NONE: Capabilities = Capabilities::NONE;

use EventKind as K;

/// `permission: allow|deny|ask`; `ask` shows Cursor's approval UI.
const DENY_ASK: Capabilities = Capabilities {
    deny: true,
    ask: true,
    ..NONE
};
/// `permission: allow|deny`, plus `updated_input`; `ask` is accepted but
/// not enforced, so it is not a capability.
const DENY_REWRITE: Capabilities = Capabilities {
    deny: true,
    input_rewrite: true,
    ..NONE
};
const DENY: Capabilities = Capabilities { deny: true, ..NONE };
/// `continue: false` stops the prompt from being sent: both a deny and a
/// halt. No context injection on this event.
const DENY_HALT: Capabilities = Capabilities {
    deny: true,
    halt: true,
    ..NONE
};
const FOLLOWUP: Capabilities = Capabilities {
    followup: true,
    ..NONE
};
const CONTEXT: Capabilities = Capabilities {
    context: true,
    ..NONE
};

/// Every event hookgate reads, in `gateway install` order: (native name,
/// canonical kind, the answers Cursor honours, whether the reply carries a
/// `permission` field). `workspaceOpen` is left out on purpose (its
/// `pluginPaths` output is not ours to give): it reads as unknown.
///
/// `subagentStop` honours `followup_message` only when the subagent
/// completed; the parser narrows that with the payload's `status`.
#[rustfmt::skip]
pub(crate) const EVENTS: [(&str, K, Capabilities, bool); 20] = [
    ("sessionStart", K::SessionStart, CONTEXT, false),
    ("beforeSubmitPrompt", K::PromptSubmit, DENY_HALT, false),
    ("preToolUse", K::PreToolUse, DENY_REWRITE, true),
    ("beforeShellExecution", K::PreToolUse, DENY_ASK, true),
    ("beforeMCPExecution", K::PreToolUse, DENY_ASK, true),
    ("beforeReadFile", K::FileRead, DENY, true),
    ("beforeTabFileRead", K::FileRead, DENY, true),
    ("subagentStart", K::SubagentStart, DENY, true),
    ("postToolUse", K::PostToolUse, CONTEXT, false),
    ("postToolUseFailure", K::ToolFailure, NONE, false),
    // Fire-and-forget: Cursor ignores the output.
    ("afterShellExecution", K::PostToolUse, NONE, false),
    ("afterMCPExecution", K::PostToolUse, NONE, false),
    ("afterFileEdit", K::FileEdit, NONE, false),
    ("afterTabFileEdit", K::FileEdit, NONE, false),
    ("afterAgentResponse", K::AgentResponse, NONE, false),
    ("afterAgentThought", K::AgentThought, NONE, false),
    ("subagentStop", K::SubagentStop, FOLLOWUP, false),
    ("stop", K::Stop, FOLLOWUP, false),
    // Its `user_message` output is a notice, not one of our answers.
    ("preCompact", K::PreCompact, NONE, false),
    ("sessionEnd", K::SessionEnd, NONE, false),
];

/// The canonical kind of `native` and the answers Cursor honours for it.
/// Unknown events are [`EventKind::Other`](K::Other) with no capabilities.
pub(super) fn behaviour(native: &str) -> (K, Capabilities) {
    row(native).map_or((K::Other, NONE), |(_, kind, caps, _)| (*kind, *caps))
}

/// Events whose reply carries a `permission` field.
pub(super) fn has_permission_field(native: &str) -> bool {
    row(native).is_some_and(|row| row.3)
}

fn row(native: &str) -> Option<&'static (&'static str, K, Capabilities, bool)> {
    EVENTS.iter().find(|(name, ..)| *name == native)
}
