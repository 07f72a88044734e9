//! The reply to give when no decision can be had: the gateway is down, too
//! slow, or the payload could not be parsed.
//!
//! Dependency-free: the shim renders these replies itself. `Open` is each
//! agent's neutral reply (the agent goes on as if no hook ran); `Closed`
//! blocks whatever the event lets a hook block, in the way that agent obeys
//! (Claude Code: exit 2 or a JSON decision; Cursor: exit 2; Cline: a
//! `cancel` JSON on stdout, since Cline ignores exit codes). How is data:
//! each event's row in its dialect's table says ([`crate::events`]); the
//! replies are written here. The rules, and why, are written down in
//! docs/agents.md ("Fallback replies").

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::events::FailClosed;
use crate::{Dialect, FailMode, Reply};

/// Used when the caller passes an empty message.
const DEFAULT_MESSAGE: &str =
    "hookgate: no policy decision could be made, so this action is blocked (fail-closed)";

/// Claude Code's `WorktreeCreate` hook *replaces* worktree creation and its
/// stdout is read as the new worktree's path: no reply can be neutral. A
/// non-zero exit fails the creation cleanly, with this explanation, instead
/// of handing Claude Code a bogus path. The adapters render the same
/// message when the gateway answers one.
pub const WORKTREE_CREATE_MESSAGE: &str = "hookgate: WorktreeCreate hooks replace git worktree creation and hookgate cannot create worktrees; remove the gateway from the WorktreeCreate hooks";

/// The reply for `dialect` and `native_event` (when known) under `mode`.
/// `message` explains the block to the user and model (closed mode only).
pub fn fallback(
    dialect: Option<Dialect>,
    native_event: Option<&str>,
    mode: FailMode,
    message: &str,
) -> Reply {
    match mode {
        FailMode::Open => open(dialect, native_event),
        FailMode::Closed => {
            let message = if message.trim().is_empty() {
                DEFAULT_MESSAGE
            } else {
                message
            };
            closed(dialect, native_event, message)
        }
    }
}

/// Claude Code's `PermissionRequest` deny, up to the message.
const PERMISSION_REQUEST_DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"#;
/// Copilot's camelCase `preToolUse` deny, up to the message.
const FLAT_PERMISSION_DENY: &str = r#"{"permissionDecision":"deny","permissionDecisionReason":"#;

/// The neutral reply: exit 0 and nothing on stdout, except where the
/// dialect's neutral stdout is not empty (Cursor: `{}`) or the event has
/// none (Claude Code's `WorktreeCreate`: see [`WORKTREE_CREATE_MESSAGE`]).
fn open(dialect: Option<Dialect>, native_event: Option<&str>) -> Reply {
    let Some(descriptor) = dialect.map(Dialect::descriptor) else {
        return Reply::default();
    };
    let no_neutral = native_event.and_then(|event| descriptor.spec(event).no_neutral);
    match no_neutral {
        Some(message) => Reply {
            stdout: Vec::new(),
            stderr: line(message),
            exit_code: 1,
        },
        None => Reply {
            stdout: descriptor.neutral_stdout.to_vec(),
            ..Reply::default()
        },
    }
}

/// The reply that blocks `native_event`, the way the dialect's row says
/// the agent obeys a block on it.
fn closed(dialect: Option<Dialect>, native_event: Option<&str>, message: &str) -> Reply {
    let Some(descriptor) = dialect.map(Dialect::descriptor) else {
        // Unknown dialect: exit 2 with the message on stderr blocks in
        // Claude Code, Cursor and Codex; the `cancel` JSON blocks in Cline
        // (both formats read stdout whatever the exit code).
        return Reply {
            stdout: cline_cancel(message),
            stderr: line(message),
            exit_code: 2,
        };
    };
    let on_stdout = |stdout| Reply {
        stdout,
        ..Reply::default()
    };
    let exit2_with = |stdout| Reply {
        stdout,
        stderr: line(message),
        exit_code: 2,
    };
    let json = |before, after| with_message(before, message, after);
    // The event as the reply names it (Claude Code's pre-tool deny).
    let event = native_event.unwrap_or_default();
    match descriptor.fail_closed(native_event) {
        FailClosed::Nothing => open(dialect, native_event),
        FailClosed::Exit2 => exit2_with(Vec::new()),
        FailClosed::PreToolDenyExit2 => exit2_with(claude_pre_tool_deny(event, message)),
        FailClosed::PreToolDeny => on_stdout(claude_pre_tool_deny(event, message)),
        FailClosed::PermissionRequestDeny => on_stdout(json(PERMISSION_REQUEST_DENY, "}}}")),
        FailClosed::FlatPermissionDeny => on_stdout(json(FLAT_PERMISSION_DENY, "}")),
        FailClosed::FlatBehaviorDeny => on_stdout(json(r#"{"behavior":"deny","message":"#, "}")),
        FailClosed::DecisionBlock => on_stdout(json(r#"{"decision":"block","reason":"#, "}")),
        FailClosed::DecisionDenyExit2 => exit2_with(json(r#"{"decision":"deny","reason":"#, "}")),
        FailClosed::Cancel => on_stdout(cline_cancel(message)),
    }
}

/// Claude Code's JSON deny of a pre-tool `event` (`PreToolUse`, or
/// `PreSkillShellCommand`, which takes the same reply).
fn claude_pre_tool_deny(event: &str, message: &str) -> Vec<u8> {
    json_line(&[
        r#"{"hookSpecificOutput":{"hookEventName":""#,
        event,
        r#"","permissionDecision":"deny","permissionDecisionReason":"#,
        &json_string(message),
        "}}",
    ])
}

fn cline_cancel(message: &str) -> Vec<u8> {
    with_message(r#"{"cancel":true,"errorMessage":"#, message, "}")
}

/// One JSON line: `before`, `message` as a JSON string, `after`.
fn with_message(before: &str, message: &str, after: &str) -> Vec<u8> {
    json_line(&[before, &json_string(message), after])
}

fn json_line(parts: &[&str]) -> Vec<u8> {
    let mut out = parts.concat().into_bytes();
    out.push(b'\n');
    out
}

fn line(text: &str) -> Vec<u8> {
    let mut out = text.as_bytes().to_vec();
    out.push(b'\n');
    out
}

/// `text` as a JSON string literal, quotes included (RFC 8259 §7: `"`, `\`
/// and control characters escaped; everything else is valid as is).
pub(crate) fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests;
