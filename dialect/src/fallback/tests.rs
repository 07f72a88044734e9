//! Table tests for the fallback replies.

use super::*;

const MSG: &str = "gateway down";

fn reply(stdout: &str, stderr: &str, exit_code: i32) -> Reply {
    Reply {
        stdout: stdout.as_bytes().to_vec(),
        stderr: stderr.as_bytes().to_vec(),
        exit_code,
    }
}

#[test]
fn table() {
    use Dialect::*;
    use FailMode::*;
    let neutral = reply("", "", 0);
    let exit2 = reply("", "gateway down\n", 2);
    let cline_cancel = "{\"cancel\":true,\"errorMessage\":\"gateway down\"}\n";
    let worktree = reply("", &format!("{WORKTREE_CREATE_MESSAGE}\n"), 1);
    let cases: Vec<(Option<Dialect>, Option<&str>, FailMode, Reply)> = vec![
        // Open: neutral everywhere ...
        (Some(ClaudeCode), Some("PreToolUse"), Open, neutral.clone()),
        (
            Some(ClaudeCode),
            Some("PermissionRequest"),
            Open,
            neutral.clone(),
        ),
        (Some(ClaudeCode), None, Open, neutral.clone()),
        (Some(ClineSdk), Some("tool_call"), Open, neutral.clone()),
        (Some(ClineLegacy), Some("PreToolUse"), Open, neutral.clone()),
        (None, None, Open, neutral.clone()),
        // ... except Cursor's `{}` and Claude Code's WorktreeCreate.
        (Some(Cursor), Some("preToolUse"), Open, reply("{}\n", "", 0)),
        (Some(Cursor), None, Open, reply("{}\n", "", 0)),
        (Some(ClaudeCode), Some("WorktreeCreate"), Open, worktree),
        // Closed, Claude Code.
        (
            Some(ClaudeCode),
            Some("PreToolUse"),
            Closed,
            reply(
                "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"gateway down\"}}\n",
                "gateway down\n",
                2,
            ),
        ),
        (
            Some(ClaudeCode),
            Some("PermissionRequest"),
            Closed,
            reply(
                "{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"gateway down\"}}}\n",
                "",
                0,
            ),
        ),
        (
            Some(ClaudeCode),
            Some("UserPromptSubmit"),
            Closed,
            exit2.clone(),
        ),
        (Some(ClaudeCode), Some("PreCompact"), Closed, exit2.clone()),
        (
            Some(ClaudeCode),
            Some("ConfigChange"),
            Closed,
            exit2.clone(),
        ),
        (
            Some(ClaudeCode),
            Some("WorktreeCreate"),
            Closed,
            exit2.clone(),
        ),
        (Some(ClaudeCode), Some("Stop"), Closed, neutral.clone()),
        (
            Some(ClaudeCode),
            Some("SubagentStop"),
            Closed,
            neutral.clone(),
        ),
        (
            Some(ClaudeCode),
            Some("PostToolUse"),
            Closed,
            neutral.clone(),
        ),
        (
            Some(ClaudeCode),
            Some("Notification"),
            Closed,
            neutral.clone(),
        ),
        (
            Some(ClaudeCode),
            Some("SomeFutureEvent"),
            Closed,
            exit2.clone(),
        ),
        (Some(ClaudeCode), None, Closed, exit2.clone()),
        // Closed, Cursor: bare exit 2, never with a body.
        (
            Some(Cursor),
            Some("beforeShellExecution"),
            Closed,
            exit2.clone(),
        ),
        (Some(Cursor), Some("preToolUse"), Closed, exit2.clone()),
        (
            Some(Cursor),
            Some("beforeSubmitPrompt"),
            Closed,
            exit2.clone(),
        ),
        (Some(Cursor), Some("someFutureEvent"), Closed, exit2.clone()),
        (Some(Cursor), None, Closed, exit2.clone()),
        (
            Some(Cursor),
            Some("afterFileEdit"),
            Closed,
            reply("{}\n", "", 0),
        ),
        (Some(Cursor), Some("stop"), Closed, reply("{}\n", "", 0)),
        // Closed, Cline: cancel JSON on stdout, exit code irrelevant (0).
        (
            Some(ClineSdk),
            Some("tool_call"),
            Closed,
            reply(cline_cancel, "", 0),
        ),
        (Some(ClineSdk), None, Closed, reply(cline_cancel, "", 0)),
        (
            Some(ClineLegacy),
            Some("PreToolUse"),
            Closed,
            reply(cline_cancel, "", 0),
        ),
        // Closed, unknown dialect: everything at once.
        (None, None, Closed, reply(cline_cancel, "gateway down\n", 2)),
        (
            None,
            Some("PreToolUse"),
            Closed,
            reply(cline_cancel, "gateway down\n", 2),
        ),
    ];
    for (dialect, event, mode, expected) in cases {
        assert_eq!(
            fallback(dialect, event, mode, MSG),
            expected,
            "{dialect:?} {event:?} {mode:?}"
        );
    }
}

#[test]
fn empty_message_gets_a_default() {
    let got = fallback(
        Some(Dialect::ClaudeCode),
        Some("UserPromptSubmit"),
        FailMode::Closed,
        " ",
    );
    assert_eq!(got.stderr, format!("{DEFAULT_MESSAGE}\n").into_bytes());
}

#[test]
fn json_string_escapes() {
    let cases = [
        ("plain", r#""plain""#),
        ("a\"b\\c", r#""a\"b\\c""#),
        ("l1\nl2\r\t", r#""l1\nl2\r\t""#),
        ("\u{0}\u{1f}\u{08}\u{0c}", r#""\u0000\u001f\b\f""#),
        ("é😀/\u{7f}", "\"é😀/\u{7f}\""),
    ];
    for (text, expected) in cases {
        assert_eq!(json_string(text), expected);
    }
}

/// Every JSON reply is valid JSON and carries the message intact.
#[test]
fn json_replies_round_trip_hostile_messages() {
    let message = "no \"way\" \\ \n\u{0}\u{1b}[31m é😀 </script>";
    let cases = [
        (
            Some(Dialect::ClaudeCode),
            Some("PreToolUse"),
            "/hookSpecificOutput/permissionDecisionReason",
        ),
        (
            Some(Dialect::ClaudeCode),
            Some("PermissionRequest"),
            "/hookSpecificOutput/decision/message",
        ),
        (Some(Dialect::ClineSdk), Some("tool_call"), "/errorMessage"),
        (
            Some(Dialect::ClineLegacy),
            Some("PreToolUse"),
            "/errorMessage",
        ),
        (None, None, "/errorMessage"),
    ];
    for (dialect, event, pointer) in cases {
        let got = fallback(dialect, event, FailMode::Closed, message);
        let value: serde_json::Value = serde_json::from_slice(&got.stdout).unwrap();
        assert_eq!(
            value.pointer(pointer).and_then(|v| v.as_str()),
            Some(message),
            "{dialect:?}"
        );
    }
}
