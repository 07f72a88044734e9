//! Cursor's events: which canonical kind each one is and which answers
//! Cursor acts on for it (docs/agents.md, "Cursor"). One table, so parse and
//! render cannot disagree.

use crate::{Capabilities, EventKind};

const NONE: Capabilities = Capabilities::NONE;

/// The canonical kind of `native` and the answers Cursor honours for it.
/// Unknown events are [`EventKind::Other`] with no capabilities.
///
/// `subagentStop` honours `followup_message` only when the subagent
/// completed; the parser narrows that with the payload's `status`.
pub(super) fn behaviour(native: &str) -> (EventKind, Capabilities) {
    match native {
        // `permission: allow|deny|ask`; `ask` shows Cursor's approval UI.
        "beforeShellExecution" | "beforeMCPExecution" => (
            EventKind::PreToolUse,
            Capabilities {
                deny: true,
                ask: true,
                ..NONE
            },
        ),
        // `permission: allow|deny`, plus `updated_input`; `ask` is accepted
        // but not enforced, so it is not a capability.
        "preToolUse" => (
            EventKind::PreToolUse,
            Capabilities {
                deny: true,
                input_rewrite: true,
                ..NONE
            },
        ),
        "beforeReadFile" | "beforeTabFileRead" => {
            (EventKind::FileRead, Capabilities { deny: true, ..NONE })
        }
        "subagentStart" => (
            EventKind::SubagentStart,
            Capabilities { deny: true, ..NONE },
        ),
        // `continue: false` stops the prompt from being sent: both a deny
        // and a halt. No context injection on this event.
        "beforeSubmitPrompt" => (
            EventKind::PromptSubmit,
            Capabilities {
                deny: true,
                halt: true,
                ..NONE
            },
        ),
        "stop" => (
            EventKind::Stop,
            Capabilities {
                followup: true,
                ..NONE
            },
        ),
        "subagentStop" => (
            EventKind::SubagentStop,
            Capabilities {
                followup: true,
                ..NONE
            },
        ),
        "sessionStart" => (
            EventKind::SessionStart,
            Capabilities {
                context: true,
                ..NONE
            },
        ),
        "postToolUse" => (
            EventKind::PostToolUse,
            Capabilities {
                context: true,
                ..NONE
            },
        ),
        // Fire-and-forget: Cursor ignores the output.
        "afterShellExecution" | "afterMCPExecution" => (EventKind::PostToolUse, NONE),
        "postToolUseFailure" => (EventKind::ToolFailure, NONE),
        "afterFileEdit" | "afterTabFileEdit" => (EventKind::FileEdit, NONE),
        "afterAgentResponse" => (EventKind::AgentResponse, NONE),
        "afterAgentThought" => (EventKind::AgentThought, NONE),
        "sessionEnd" => (EventKind::SessionEnd, NONE),
        // Its `user_message` output is a notice, not one of our answers.
        "preCompact" => (EventKind::PreCompact, NONE),
        // `workspaceOpen` (its `pluginPaths` output is not ours to give)
        // and anything newer.
        _ => (EventKind::Other, NONE),
    }
}

/// Events whose reply carries a `permission` field.
pub(super) fn has_permission_field(native: &str) -> bool {
    matches!(
        native,
        "beforeShellExecution"
            | "beforeMCPExecution"
            | "preToolUse"
            | "beforeReadFile"
            | "beforeTabFileRead"
            | "subagentStart"
    )
}
