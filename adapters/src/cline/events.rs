//! Cline's events in both dialects: canonical kind and the answers Cline
//! acts on (docs/agents.md, "Cline"). One table per dialect, so parse and render
//! cannot disagree.
//!
//! Capabilities are what the current releases honour, not what older ones
//! did: a deny reported as lost is better than one silently ignored.

use crate::{Capabilities, EventKind};

const NONE: Capabilities = Capabilities::NONE;

/// The SDK file hooks. `cancel` on a tool event ends the run, so it is both
/// a deny (the tool does not run) and a halt. A deny after the tool ran
/// (`tool_result`) means nothing, so there it is only a halt.
pub(super) fn sdk(native: &str) -> (EventKind, Capabilities) {
    match native {
        "tool_call" => (
            EventKind::PreToolUse,
            Capabilities {
                deny: true,
                context: true,
                input_rewrite: true,
                halt: true,
                ..NONE
            },
        ),
        // The parser turns this into ToolFailure when the tool failed.
        "tool_result" => (
            EventKind::PostToolUse,
            Capabilities {
                context: true,
                halt: true,
                ..NONE
            },
        ),
        // Detached: Cline does not wait and ignores the output.
        "agent_start" => (EventKind::SessionStart, NONE),
        "agent_resume" => (EventKind::SessionResume, NONE),
        "prompt_submit" => (EventKind::PromptSubmit, NONE),
        "agent_end" => (EventKind::TaskComplete, NONE),
        "agent_error" => (EventKind::TaskError, NONE),
        "agent_abort" => (EventKind::TaskAbort, NONE),
        "session_shutdown" => (EventKind::SessionEnd, NONE),
        "pre_compact" => (EventKind::PreCompact, NONE),
        _ => (EventKind::Other, NONE),
    }
}

/// The legacy VS Code hooks. The current extension injects context only on
/// the tool hooks; TaskStart and UserPromptSubmit honour only `cancel`;
/// TaskResume, TaskCancel, TaskComplete, Notification and PreCompact are
/// not acted on.
pub(super) fn legacy(native: &str) -> (EventKind, Capabilities) {
    match native {
        "PreToolUse" => (
            EventKind::PreToolUse,
            Capabilities {
                deny: true,
                context: true,
                halt: true,
                ..NONE
            },
        ),
        "PostToolUse" => (
            EventKind::PostToolUse,
            Capabilities {
                context: true,
                halt: true,
                ..NONE
            },
        ),
        "TaskStart" => (
            EventKind::SessionStart,
            Capabilities {
                deny: true,
                halt: true,
                ..NONE
            },
        ),
        "UserPromptSubmit" => (
            EventKind::PromptSubmit,
            Capabilities {
                deny: true,
                halt: true,
                ..NONE
            },
        ),
        "TaskResume" => (EventKind::SessionResume, NONE),
        "TaskCancel" => (EventKind::TaskAbort, NONE),
        "TaskComplete" => (EventKind::TaskComplete, NONE),
        "Notification" => (EventKind::Notification, NONE),
        "PreCompact" => (EventKind::PreCompact, NONE),
        _ => (EventKind::Other, NONE),
    }
}
