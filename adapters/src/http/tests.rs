//! Tests of the HTTP hook replies: each command reply's meaning kept
//! over HTTP, failures as non-2xx answers, and which agents have them.

use serde_json::{Value, json};

use super::*;
use crate::testing::{ScenarioText, fixtures, scenarios};
use crate::{FailMode, fallback, parse, render};

fn reply(exit_code: i32, stdout: &str, stderr: &str) -> Reply {
    Reply {
        stdout: stdout.as_bytes().to_vec(),
        stderr: stderr.as_bytes().to_vec(),
        exit_code,
    }
}

fn body_json(http: &HttpReply) -> Value {
    serde_json::from_slice(&http.body).expect("an HTTP hook body is JSON")
}

#[test]
fn command_replies_as_http_answers() {
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    let cases: [(&str, Reply, u16, Value); 6] = [
        ("neutral", reply(0, "", ""), 200, json!({})),
        (
            "json at exit 0",
            reply(0, &format!("{deny}\n"), ""),
            200,
            serde_json::from_str(deny).unwrap(),
        ),
        (
            "exit 2 with its own JSON keeps the JSON",
            reply(2, &format!("{deny}\n"), "no\n"),
            200,
            serde_json::from_str(deny).unwrap(),
        ),
        (
            "bare exit 2 becomes a JSON block with stderr as the reason",
            reply(2, "", "stop \"here\"\n"),
            200,
            json!({"decision": "block", "reason": "stop \"here\""}),
        ),
        (
            "exit 0 ignores stderr",
            reply(0, "", "noise\n"),
            200,
            json!({}),
        ),
        (
            "whitespace-only stdout is neutral",
            reply(0, " \n", ""),
            200,
            json!({}),
        ),
    ];
    for (name, reply, status, expected) in cases {
        let http = http_reply(&reply);
        assert_eq!(http.status, status, "{name}");
        assert_eq!(http.content_type, "application/json", "{name}");
        assert_eq!(body_json(&http), expected, "{name}");
    }
}

#[test]
fn a_failed_hook_is_a_non_2xx_with_its_message() {
    let http = http_reply(&reply(1, "", "cannot\n"));
    assert_eq!(http.status, 500);
    assert_eq!(http.body, b"cannot");
    assert!(http.content_type.starts_with("text/plain"));
}

/// Whether an HTTP body blocks, by Claude Code's JSON reader: a top-level
/// `decision: "block"`, a PreToolUse-style deny, a PermissionRequest deny,
/// or `continue: false`.
fn blocks(body: &Value) -> bool {
    let specific = &body["hookSpecificOutput"];
    body["decision"] == "block"
        || specific["permissionDecision"] == "deny"
        || specific["decision"]["behavior"] == "deny"
        || body["continue"] == false
}

/// Every reply the agents with HTTP hooks can get (each fixture × each
/// sample answer, and both fallbacks) is a valid HTTP answer, and one that
/// blocks as a command reply (exit 2) still blocks over HTTP.
#[test]
fn every_rendered_reply_keeps_its_meaning_over_http() {
    let text = || ScenarioText {
        allow_reason: Some("fine"),
        deny_reason: "no",
        agent_message: "said no",
        ask_reason: "sure?",
        context: "ctx",
        rewrite: json!({"command": "true"}),
        halt_reason: "halt",
        followup: "go on",
    };
    let mut checked = 0;
    for (agent, dialect) in [
        ("claude-code", Dialect::ClaudeCode),
        ("qwen-code", Dialect::QwenCode),
    ] {
        for (name, payload) in fixtures(agent) {
            let event = parse(dialect, &payload).expect(&name);
            let mut replies: Vec<Reply> = scenarios(text())
                .iter()
                .map(|(_, decision)| render(&event, decision).reply)
                .collect();
            for mode in [FailMode::Open, FailMode::Closed] {
                replies.push(fallback(Some(dialect), Some(&name), mode, "down"));
            }
            for reply in replies {
                let http = http_reply(&reply);
                checked += 1;
                if !matches!(reply.exit_code, 0 | 2) {
                    assert_eq!(http.status, 500, "{agent} {name}");
                    continue;
                }
                assert_eq!(http.status, 200, "{agent} {name}");
                let body = body_json(&http);
                assert!(body.is_object(), "{agent} {name}: {body}");
                if reply.exit_code == 2 {
                    assert!(blocks(&body), "{agent} {name}: exit 2 but {body}");
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} replies checked");
}

#[test]
fn only_the_agents_with_loopback_http_hooks() {
    assert!(speaks_http(Agent::ClaudeCode));
    assert!(speaks_http(Agent::QwenCode));
    for agent in [Agent::Cursor, Agent::Cline, Agent::Codex, Agent::GeminiCli] {
        assert!(!speaks_http(agent), "{agent:?}");
    }
}

#[test]
fn fallbacks_block_only_when_closed() {
    let payload = crate::testing::fixture("claude-code/PreToolUse.json");
    let cases = [
        (Some(payload.as_slice()), FailMode::Closed, true),
        (Some(payload.as_slice()), FailMode::Open, false),
        // No body read yet (over the memory budget): the event is unknown,
        // and closed still blocks.
        (None, FailMode::Closed, true),
        (None, FailMode::Open, false),
    ];
    for (payload, mode, blocked) in cases {
        let http = http_fallback(Agent::ClaudeCode, payload, None, mode, "busy");
        assert_eq!(http.status, 200);
        let body = body_json(&http);
        assert_eq!(
            blocks(&body),
            blocked,
            "{mode:?} {}: {body}",
            payload.is_some()
        );
        if blocked {
            assert!(body.to_string().contains("busy"), "{body}");
        }
    }
}
