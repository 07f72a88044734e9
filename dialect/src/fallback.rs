//! The reply to give when no decision can be had: the gateway is down, too
//! slow, or the payload could not be parsed.
//!
//! Dependency-free: the shim renders these replies itself. `Open` is each
//! agent's neutral reply (the agent goes on as if no hook ran); `Closed`
//! blocks whatever the event lets a hook block, in the way that agent obeys
//! (Claude Code: exit 2 or a JSON decision; Cursor: exit 2; Cline: a
//! `cancel` JSON on stdout, since Cline ignores exit codes). The rules, and
//! why, are written down in docs/agents.md ("Fallback replies").

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

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

/// Claude Code events where exit 2 blocks the action (docs/agents.md, "Claude Code"),
/// minus the continuation events (`Stop`, `SubagentStop`, `TeammateIdle`):
/// "blocking" those would force the agent to keep working, which is no
/// safer than letting it stop. `PostToolBatch` is not here either: its
/// tools already ran, and exit 2 there only ends the loop.
const CLAUDE_EXIT2_BLOCKS: [&str; 10] = [
    "UserPromptSubmit",
    "UserPromptExpansion",
    "TaskCreated",
    "TaskCompleted",
    "ConfigChange",
    "PreModelSwitch",
    "PreCompact",
    "Elicitation",
    "ElicitationResult",
    "WorktreeCreate",
];

/// Claude Code events with nothing to block (or only a continuation to
/// force): closed mode answers the neutral reply.
const CLAUDE_NOTHING_TO_BLOCK: [&str; 21] = [
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "PostModelSwitch",
    "PermissionDenied",
    "Notification",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "SubagentStart",
    "StopFailure",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "PostCompact",
    "WorktreeRemove",
    "InstructionsLoaded",
    "MessageDisplay",
    "Stop",
    "SubagentStop",
    "TeammateIdle",
];

/// Cursor events a hook can block (bare exit 2).
const CURSOR_BLOCKS: [&str; 7] = [
    "beforeShellExecution",
    "beforeMCPExecution",
    "beforeReadFile",
    "beforeTabFileRead",
    "beforeSubmitPrompt",
    "preToolUse",
    "subagentStart",
];

/// Cursor events with nothing to block (fire-and-forget, or `stop` /
/// `subagentStop` continuations).
const CURSOR_NOTHING_TO_BLOCK: [&str; 14] = [
    "afterShellExecution",
    "afterMCPExecution",
    "afterFileEdit",
    "afterTabFileEdit",
    "afterAgentResponse",
    "afterAgentThought",
    "postToolUse",
    "postToolUseFailure",
    "sessionStart",
    "sessionEnd",
    "preCompact",
    "workspaceOpen",
    "stop",
    "subagentStop",
];

/// Gemini CLI events a hook can block before they happen. Its other
/// events have nothing left to block (AfterTool: the tool ran; AfterAgent:
/// "blocking" forces another turn) and answer the neutral reply.
const GEMINI_BLOCKS: [&str; 3] = ["BeforeTool", "BeforeAgent", "BeforeModel"];

/// Gemini CLI events with nothing to block.
const GEMINI_NOTHING_TO_BLOCK: [&str; 8] = [
    "SessionStart",
    "SessionEnd",
    "BeforeToolSelection",
    "AfterModel",
    "AfterTool",
    "AfterAgent",
    "PreCompress",
    "Notification",
];

/// Codex events with nothing to block (or only a continuation to force).
const CODEX_NOTHING_TO_BLOCK: [&str; 9] = [
    "SessionStart",
    "PostToolUse",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "Interrupt",
    "SessionEnd",
];

/// Copilot CLI events with nothing to block, in both config dialects.
const COPILOT_NOTHING_TO_BLOCK: [&str; 19] = [
    "SessionStart",
    "UserPromptSubmit",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "Notification",
    "SessionEnd",
    "sessionStart",
    "userPromptSubmitted",
    "postToolUse",
    "postToolUseFailure",
    "agentStop",
    "subagentStart",
    "subagentStop",
    "preCompact",
    "errorOccurred",
    "notification",
    "sessionEnd",
];

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

/// The neutral reply: exit 0 and nothing on stdout, except Cursor (`{}`:
/// a handler with `failClosed: true` treats an empty response as a failure
/// and blocks) and Claude Code's `WorktreeCreate` (see
/// [`WORKTREE_CREATE_MESSAGE`]).
fn open(dialect: Option<Dialect>, native_event: Option<&str>) -> Reply {
    match (dialect, native_event) {
        (Some(Dialect::ClaudeCode), Some("WorktreeCreate")) => Reply {
            stdout: Vec::new(),
            stderr: line(WORKTREE_CREATE_MESSAGE),
            exit_code: 1,
        },
        (Some(Dialect::Cursor), _) => Reply {
            stdout: b"{}\n".to_vec(),
            ..Reply::default()
        },
        _ => Reply::default(),
    }
}

fn closed(dialect: Option<Dialect>, native_event: Option<&str>, message: &str) -> Reply {
    match dialect {
        // Qwen Code and Droid obey Claude Code's exit codes and JSON, and
        // their events are a subset of Claude Code's names (measured:
        // docs/agents.md); their other events are unknown there: exit 2.
        Some(Dialect::ClaudeCode | Dialect::QwenCode | Dialect::Droid) => {
            claude_closed(native_event, message)
        }
        // A bare exit 2: Cursor does not parse a JSON body that comes with
        // exit 2, so stdout stays empty.
        Some(Dialect::Cursor) => match native_event {
            Some(event) if CURSOR_BLOCKS.contains(&event) => exit2(message),
            Some(event) if CURSOR_NOTHING_TO_BLOCK.contains(&event) => open(dialect, native_event),
            // Unknown or unnamed event: exit 2 blocks wherever it can.
            _ => exit2(message),
        },
        Some(Dialect::ClineSdk | Dialect::ClineLegacy) => Reply {
            stdout: cline_cancel(message),
            ..Reply::default()
        },
        // Codex's PreToolUse and PermissionRequest schemas accept Claude
        // Code's closed replies exactly; exit 2 with a non-empty stderr
        // blocks a prompt. Its other events have nothing to block.
        Some(Dialect::Codex) => match native_event {
            Some(event @ ("PreToolUse" | "PermissionRequest" | "UserPromptSubmit")) => {
                claude_closed(Some(event), message)
            }
            Some(event) if CODEX_NOTHING_TO_BLOCK.contains(&event) => Reply::default(),
            _ => claude_closed(native_event, message),
        },
        // Copilot reads a JSON deny at exit 0 and shows its reason; any
        // non-zero exit also denies (since 1.0.57) but drops the message.
        Some(Dialect::CopilotPascal) => match native_event {
            Some("PreToolUse") => Reply {
                stdout: claude_pre_tool_deny("PreToolUse", message),
                ..Reply::default()
            },
            Some(event) if COPILOT_NOTHING_TO_BLOCK.contains(&event) => Reply::default(),
            _ => exit2(message),
        },
        Some(Dialect::CopilotCamel) => match native_event {
            Some("preToolUse") => Reply {
                stdout: with_message(
                    r#"{"permissionDecision":"deny","permissionDecisionReason":"#,
                    message,
                    "}",
                ),
                ..Reply::default()
            },
            Some("permissionRequest") => Reply {
                stdout: with_message(r#"{"behavior":"deny","message":"#, message, "}"),
                ..Reply::default()
            },
            Some(event) if COPILOT_NOTHING_TO_BLOCK.contains(&event) => Reply::default(),
            _ => exit2(message),
        },
        Some(Dialect::GeminiCli) => match native_event {
            Some(event) if GEMINI_NOTHING_TO_BLOCK.contains(&event) => Reply::default(),
            Some(event) if GEMINI_BLOCKS.contains(&event) => gemini_deny(message),
            // Unknown or unnamed event: deny wherever Gemini reads one.
            _ => gemini_deny(message),
        },
        // Unknown dialect: exit 2 with the message on stderr blocks in
        // Claude Code, Cursor and Codex; the `cancel` JSON blocks in Cline
        // (both formats read stdout whatever the exit code).
        None => Reply {
            stdout: cline_cancel(message),
            stderr: line(message),
            exit_code: 2,
        },
    }
}

fn claude_closed(native_event: Option<&str>, message: &str) -> Reply {
    match native_event {
        // The JSON deny is the documented way; exit 2 also blocks should the
        // JSON not be read, and puts the reason on stderr for Claude.
        Some(event @ ("PreToolUse" | "PreSkillShellCommand")) => Reply {
            stdout: claude_pre_tool_deny(event, message),
            stderr: line(message),
            exit_code: 2,
        },
        // Exit 2 is ignored here; only the decision object denies.
        Some("PermissionRequest") => Reply {
            stdout: with_message(
                r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"#,
                message,
                "}}}",
            ),
            ..Reply::default()
        },
        Some(event) if CLAUDE_EXIT2_BLOCKS.contains(&event) => exit2(message),
        Some(event) if CLAUDE_NOTHING_TO_BLOCK.contains(&event) => Reply::default(),
        // Unknown or unnamed event: exit 2 blocks wherever exit 2 can.
        _ => exit2(message),
    }
}

/// Gemini reads stdout JSON before the exit code, and a JSON reply
/// without a decision lets the action go ahead whatever the code: the deny
/// must be JSON. Exit 2 and stderr also deny should stdout not be read.
fn gemini_deny(message: &str) -> Reply {
    Reply {
        stdout: with_message(r#"{"decision":"deny","reason":"#, message, "}"),
        stderr: line(message),
        exit_code: 2,
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

fn exit2(message: &str) -> Reply {
    Reply {
        stdout: Vec::new(),
        stderr: line(message),
        exit_code: 2,
    }
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
