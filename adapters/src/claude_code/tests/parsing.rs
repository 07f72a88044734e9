//! Claude Code parsing: kinds, tool fields, classes and errors.

use serde_json::{Value, json};

use super::{event, samples};
use crate::claude_code::parse::{mcp_server, tool_class};
use crate::claude_code::{parse, render};
use crate::{Capabilities, Dialect, EventKind, Loss, ParseErrorKind, ToolClass};

#[test]
fn kinds_and_blocking() {
    use EventKind as K;
    let cases = [
        ("PreToolUse", K::PreToolUse, true),
        ("PostToolUse", K::PostToolUse, true),
        ("PostToolUseFailure", K::ToolFailure, true),
        ("PostToolBatch", K::Other, true),
        ("PreSkillShellCommand", K::PreToolUse, true),
        ("PreModelSwitch", K::Other, true),
        ("PostModelSwitch", K::Other, false),
        ("UserPromptSubmit", K::PromptSubmit, true),
        ("Stop", K::Stop, true),
        ("SubagentStart", K::SubagentStart, true),
        ("SubagentStop", K::SubagentStop, true),
        ("SessionStart", K::SessionStart, true),
        ("SessionEnd", K::SessionEnd, false),
        ("PreCompact", K::PreCompact, true),
        ("PostCompact", K::PostCompact, false),
        ("Notification", K::Notification, false),
        ("PermissionRequest", K::PermissionRequest, true),
        ("ConfigChange", K::ConfigChange, true),
        ("WorktreeCreate", K::Other, true),
        ("TeammateIdle", K::Other, true),
        ("Elicitation", K::Other, true),
        ("InstructionsLoaded", K::Other, false),
        ("MessageDisplay", K::Other, false),
    ];
    for (name, kind, blocking) in cases {
        let event = event(name);
        assert_eq!((event.kind, event.blocking), (kind, blocking), "{name}");
    }
}

#[test]
fn tool_fields() {
    let pre = event("PreToolUse");
    let tool = pre.tool.unwrap();
    assert_eq!((tool.name.as_str(), tool.class), ("Bash", ToolClass::Shell));
    assert_eq!(tool.command.as_deref(), Some("npm test -- --runInBand"));
    assert_eq!(tool.call_id.as_deref(), Some("toolu_01ABC123xyz"));
    assert_eq!(tool.input["timeout"], json!(120000));

    let post = event("PostToolUse").tool.unwrap();
    assert_eq!(post.class, ToolClass::FileWrite);
    assert_eq!(
        post.file_path.as_deref(),
        Some("/home/dev/acme-api/src/validate.ts")
    );
    assert_eq!(post.duration_ms, Some(12));
    let output: Value = serde_json::from_str(post.output.as_deref().unwrap()).unwrap();
    assert_eq!(
        output,
        json!({"filePath": "/home/dev/acme-api/src/validate.ts", "success": true})
    );

    let failure = event("PostToolUseFailure").tool.unwrap();
    assert_eq!(
        failure.error.as_deref(),
        Some("Exit code 1\nError: Cannot find module 'express'")
    );
    assert_eq!(failure.duration_ms, Some(4187));

    let permission = event("PermissionRequest").tool.unwrap();
    assert_eq!(
        permission.call_id, None,
        "PermissionRequest has no tool_use_id"
    );
    assert_eq!(permission.command.as_deref(), Some("rm -rf node_modules"));

    let stop = event("Stop");
    assert!(!stop.stop.unwrap().continuing);
    assert!(stop.text.unwrap().starts_with("I added validation"));
    // Captured from 2.1.197 after a Stop hook's `decision: "block"`.
    let again = event("Stop.stop_hook_active");
    assert!(again.stop.unwrap().continuing);
    assert_eq!(
        event("SubagentStop").subagent_id.as_deref(),
        Some("agent-a4d2c8f1")
    );
    assert_eq!(
        event("SessionStart").model.as_deref(),
        Some("claude-sonnet-5")
    );
    assert_eq!(
        event("SessionEnd").reason.as_deref(),
        Some("prompt_input_exit")
    );
}

#[test]
fn tool_classes_and_mcp_servers() {
    use ToolClass::*;
    let cases = [
        ("Bash", Shell, None),
        ("PowerShell", Shell, None),
        ("Read", FileRead, None),
        ("Write", FileWrite, None),
        ("Edit", FileWrite, None),
        ("MultiEdit", FileWrite, None),
        ("NotebookEdit", FileWrite, None),
        ("Glob", Search, None),
        ("Grep", Search, None),
        ("WebFetch", Web, None),
        ("WebSearch", Web, None),
        ("Agent", Subagent, None),
        ("Task", Subagent, None),
        ("mcp__github__create_issue", Mcp, Some("github")),
        (
            "mcp__plugin_acme_db__query__v2",
            Mcp,
            Some("plugin_acme_db"),
        ),
        ("mcp__broken", Mcp, None),
        ("AskUserQuestion", Other, None),
        ("bash", Other, None),
    ];
    for (name, class, server) in cases {
        assert_eq!(
            (tool_class(name), mcp_server(name).as_deref()),
            (class, server),
            "{name}"
        );
    }
}

#[test]
fn unknown_events_are_other_with_nothing_to_say() {
    let event =
        parse(br#"{"hook_event_name": "BrandNewEvent", "session_id": "s", "extra": [1]}"#).unwrap();
    assert_eq!(event.kind, EventKind::Other);
    assert_eq!(event.native_event, "BrandNewEvent");
    assert!(!event.blocking);
    assert_eq!(event.capabilities, Capabilities::default());
    let rendered = render(&event, &samples()[2].1);
    assert_eq!(rendered.reply, Default::default());
    assert_eq!(rendered.losses, vec![Loss::Deny]);
}

#[test]
fn malformed_payloads_name_the_field_and_never_echo_the_payload() {
    let secret = "sk-SECRET";
    let cases: Vec<(String, ParseErrorKind)> = vec![
        (
            format!(r#"{{"session_id": "{secret}"}}"#),
            ParseErrorKind::MissingField("hook_event_name".into()),
        ),
        (
            format!(r#"{{"hook_event_name": 1, "x": "{secret}"}}"#),
            ParseErrorKind::WrongType {
                field: "hook_event_name".into(),
                expected: "a string",
            },
        ),
        (
            format!(
                r#"{{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "{secret}"}}"#
            ),
            ParseErrorKind::WrongType {
                field: "tool_input".into(),
                expected: "an object",
            },
        ),
        (
            format!(
                r#"{{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {{"command": ["{secret}"]}}}}"#
            ),
            ParseErrorKind::WrongType {
                field: "tool_input.command".into(),
                expected: "a string",
            },
        ),
        (
            r#"{"hook_event_name": "PostToolUse", "tool_name": "Write", "duration_ms": -1}"#.into(),
            ParseErrorKind::WrongType {
                field: "duration_ms".into(),
                expected: "a non-negative integer",
            },
        ),
        (
            r#"{"hook_event_name": "Stop", "stop_hook_active": "yes"}"#.into(),
            ParseErrorKind::WrongType {
                field: "stop_hook_active".into(),
                expected: "a boolean",
            },
        ),
        (format!(r#"["{secret}"]"#), ParseErrorKind::NotAnObject),
        (
            format!(r#"{{"hook_event_name": "{secret}"#),
            ParseErrorKind::NotJson {
                line: 1,
                column: 30,
            },
        ),
    ];
    for (payload, kind) in cases {
        let err = parse(payload.as_bytes()).unwrap_err();
        assert_eq!(err.dialect, Dialect::ClaudeCode);
        assert_eq!(err.kind, kind, "{payload}");
        assert!(!err.to_string().contains(secret), "{err}");
    }
    // An MCP tool's odd `command` is not a protocol error.
    let mcp = br#"{"hook_event_name": "PreToolUse", "tool_name": "mcp__x__y", "tool_input": {"command": 3}}"#;
    assert_eq!(parse(mcp).unwrap().tool.unwrap().command, None);
}

#[test]
fn every_path_a_tool_names() {
    let paths = |tool: &str, input: Value| {
        let payload =
            json!({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input});
        parse(payload.to_string().as_bytes())
            .unwrap()
            .tool
            .unwrap()
            .paths
    };
    let cases = [
        ("Read", json!({"file_path": "/a/.env"}), vec!["/a/.env"]),
        (
            "Write",
            json!({"file_path": ".env", "content": "A=1"}),
            vec![".env"],
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "n.ipynb"}),
            vec!["n.ipynb"],
        ),
        (
            "Grep",
            json!({"pattern": "KEY", "path": ".env"}),
            vec![".env"],
        ),
        (
            "Grep",
            json!({"pattern": "KEY", "glob": "**/.env"}),
            vec!["**/.env"],
        ),
        (
            "Glob",
            json!({"pattern": "**/.env*", "path": "src"}),
            vec!["src", "**/.env*"],
        ),
        ("mcp__fs__read_file", json!({"path": ".env"}), vec![".env"]),
        ("Bash", json!({"command": "cat .env"}), vec![]),
    ];
    for (tool, input, expected) in cases {
        assert_eq!(paths(tool, input.clone()), expected, "{tool} {input}");
    }
}
