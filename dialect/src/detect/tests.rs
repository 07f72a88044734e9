//! Table tests for `detect` over every sample payload.

use super::*;
use hookgate_test_data::{fixture, fixtures};

fn ok(dialect: Dialect, native: &str) -> Result<Detected, DetectError> {
    Ok(Detected {
        dialect,
        native_event: Some(native.to_owned()),
    })
}

/// Every fixture, no hint, no environment.
#[test]
fn every_fixture_without_hint() {
    let mut seen = 0;
    for agent in [
        "claude-code",
        "cursor",
        "cline",
        "gemini-cli",
        "codex",
        "hermes",
    ] {
        for (stem, payload) in fixtures(agent) {
            let event = stem.rsplit('.').next().unwrap_or(&stem);
            // `<event>.<variant>` is one more sample of `<event>`.
            let first = stem.split('.').next().unwrap_or(&stem);
            let event = if agent == "codex" { first } else { event };
            let expected = match agent {
                "claude-code" => ok(Dialect::ClaudeCode, first),
                "cursor" => ok(Dialect::Cursor, &stem),
                "cline" if stem.starts_with("legacy.") => ok(Dialect::ClineLegacy, event),
                "cline" => ok(Dialect::ClineSdk, first),
                "gemini-cli" => ok(Dialect::GeminiCli, &stem),
                // Indistinguishable from Claude Code without CODEX_* (see `detect`).
                "codex" if event == "SessionEnd" => ok(Dialect::ClaudeCode, event),
                "codex" => ok(Dialect::Codex, event),
                "hermes" => ok(Dialect::Hermes, &stem),
                _ => unreachable!(),
            };
            assert_eq!(detect(&payload, None, &[]), expected, "{agent}/{stem}");
            seen += 1;
        }
    }
    assert!(seen >= 90, "only {seen} fixtures found");
}

#[test]
fn cline_hint_still_picks_the_format() {
    for (stem, payload) in fixtures("cline") {
        let got = detect(&payload, Some(Agent::Cline), &["CLINE_VERSION"]).unwrap();
        let expected = if stem.starts_with("legacy.") {
            Dialect::ClineLegacy
        } else {
            Dialect::ClineSdk
        };
        assert_eq!(got.dialect, expected, "{stem}");
    }
    // The SDK's tool_call carries a legacy-style `preToolUse` block; the
    // snake_case `hookName` still makes it SDK.
    let sdk = fixture("cline/tool_call.json");
    assert_eq!(detect(&sdk, None, &[]), ok(Dialect::ClineSdk, "tool_call"));
    // No `hookName` at all: the fields decide.
    assert_eq!(
        detect(
            br#"{"model": {"provider": "x"}, "taskId": "1"}"#,
            Some(Agent::Cline),
            &[]
        )
        .unwrap()
        .dialect,
        Dialect::ClineLegacy
    );
    let detected = detect(br#"{"agent_id": "a"}"#, Some(Agent::Cline), &[]).unwrap();
    assert_eq!(detected.dialect, Dialect::ClineSdk);
    assert_eq!(detected.native_event, None);
}

#[test]
fn hints_win() {
    let claude = fixture("claude-code/PreToolUse.json");
    let codex = fixture("codex/PreToolUse.json");
    let cursor = fixture("cursor/preToolUse.json");
    assert_eq!(
        detect(&claude, Some(Agent::Cursor), &[]),
        ok(Dialect::Cursor, "PreToolUse")
    );
    assert_eq!(
        detect(&codex, Some(Agent::ClaudeCode), &[]),
        ok(Dialect::ClaudeCode, "PreToolUse")
    );
    assert_eq!(
        detect(&claude, Some(Agent::ClaudeCode), &["CURSOR_VERSION"])
            .unwrap()
            .dialect,
        Dialect::ClaudeCode
    );
    assert_eq!(
        detect(&claude, Some(Agent::GeminiCli), &[]),
        ok(Dialect::GeminiCli, "PreToolUse")
    );
    assert_eq!(
        detect(&claude, Some(Agent::Codex), &[]),
        ok(Dialect::Codex, "PreToolUse")
    );
    // A hint does not make a non-object an object.
    assert_eq!(
        detect(b"[]", Some(Agent::ClaudeCode), &[]),
        Err(DetectError::NotAnObject)
    );
    // Cursor running a hook registered in .claude/settings.json.
    assert_eq!(
        detect(&cursor, Some(Agent::ClaudeCode), &[]),
        ok(Dialect::Cursor, "preToolUse")
    );
    assert_eq!(
        detect(
            br#"{"hook_event_name": "stop"}"#,
            Some(Agent::ClaudeCode),
            &["CLAUDE_PROJECT_DIR", "CURSOR_VERSION"]
        ),
        ok(Dialect::Cursor, "stop")
    );
    assert_eq!(
        detect(
            br#"{"hook_event_name": "stop"}"#,
            Some(Agent::ClaudeCode),
            &["CLAUDE_PROJECT_DIR"]
        ),
        ok(Dialect::ClaudeCode, "stop")
    );
}

#[test]
fn environment_breaks_ties_only() {
    let odd = br#"{"hook_event_name": "_x"}"#;
    assert_eq!(detect(odd, None, &[]), Err(DetectError::UnknownDialect));
    // Cursor sets CLAUDE_PROJECT_DIR as an alias: CURSOR_* wins.
    assert_eq!(
        detect(odd, None, &["CLAUDE_PROJECT_DIR", "CURSOR_PROJECT_DIR"])
            .unwrap()
            .dialect,
        Dialect::Cursor
    );
    assert_eq!(
        detect(odd, None, &["CLAUDE_PROJECT_DIR"]).unwrap().dialect,
        Dialect::ClaudeCode
    );
    // A PascalCase Claude payload stays Claude Code under Cursor's env.
    let claude = fixture("claude-code/Stop.json");
    assert_eq!(
        detect(&claude, None, &["CURSOR_VERSION", "CLAUDE_PROJECT_DIR"]),
        ok(Dialect::ClaudeCode, "Stop")
    );
    // Gemini sets CLAUDE_PROJECT_DIR too, and GEMINI_*.
    let notification = br#"{"hook_event_name": "Notification", "session_id": "s"}"#;
    assert_eq!(
        detect(notification, None, &["CLAUDE_PROJECT_DIR"]),
        ok(Dialect::ClaudeCode, "Notification")
    );
    assert_eq!(
        detect(
            notification,
            None,
            &["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"]
        ),
        ok(Dialect::GeminiCli, "Notification")
    );
}

#[test]
fn errors() {
    for payload in [&b""[..], b"null", b"[1]", b"\"x\"", b"garbage"] {
        assert_eq!(
            detect(payload, None, &["CLAUDE_PROJECT_DIR"]),
            Err(DetectError::NotAnObject)
        );
    }
    assert_eq!(
        detect(b"{}", None, &["CLAUDE_PROJECT_DIR"]),
        Err(DetectError::UnknownDialect)
    );
    // Nested event names do not count.
    assert_eq!(
        detect(br#"{"x": {"hookName": "tool_call"}}"#, None, &[]),
        Err(DetectError::UnknownDialect)
    );
    // A non-string event name is not an event name.
    assert_eq!(
        detect(br#"{"hook_event_name": 3}"#, None, &[]),
        Err(DetectError::UnknownDialect)
    );
    assert_eq!(
        DetectError::NotAnObject.to_string(),
        "payload is not a JSON object"
    );
}

#[test]
fn truncated_payloads_are_detected_from_their_first_keys() {
    let payload = fixture("cline/tool_call.json");
    let cut = &payload[..payload.len() / 2];
    assert_eq!(detect(cut, None, &[]), ok(Dialect::ClineSdk, "tool_call"));
}

#[test]
fn escaped_event_names_are_unescaped() {
    assert_eq!(
        detect(br#"{"hook_event_name": "Pre\u0054oolUse"}"#, None, &[]),
        ok(Dialect::ClaudeCode, "PreToolUse")
    );
}
