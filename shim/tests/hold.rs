//! The real `gateway-shim` against a fake gateway that holds the call
//! (`FrameKind::Hold`): the shim waits past its normal deadline only when
//! it was installed to take holds, never past its own hold maximum, and
//! keeps its fail mode when the held call gets no reply.

#![cfg(unix)]
#![allow(
    clippy::disallowed_methods,
    reason = "test code drives real processes and files; the runtime rules are the gateway's"
)]
// Test helpers (not only #[test] fns) unwrap: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

mod support;

use hookgate_dialect::{Agent, FailMode};
use hookgate_wire::Reply;

use support::*;

fn allow_reply() -> Reply {
    Reply {
        exit_code: 0,
        stdout: b"{\"approved\":true}\n".to_vec(),
        stderr: Vec::new(),
    }
}

#[test]
fn a_held_call_is_waited_for_past_the_normal_deadline() {
    let (_dir, socket) = socket_dir();
    let gateway = fake_gateway(
        &socket,
        Gateway::Held {
            wait_ms: 20_000,
            reply: Some(allow_reply()),
        },
    );
    let env = [
        ("HOOKGATE_TIMEOUT_MS", "300"),
        ("HOOKGATE_HOLD_MAX_MS", "30000"),
        ("HOOKGATE_FAIL", "closed"),
    ];
    let out = run_shim(&socket, &["claude-code"], &env, Some(CLAUDE_PRE_TOOL_USE));
    let reply = allow_reply();
    assert_eq!(
        out,
        Output {
            stdout: reply.stdout,
            stderr: reply.stderr,
            code: 0
        },
        "the reply came after the shim's 300 ms deadline, and was replayed"
    );
    let (request, _) = gateway.join().unwrap();
    // It said how long it would wait at most: about 30 s from its start.
    let deadline = unix_ms_var(&request, hookgate_wire::DEADLINE_VAR);
    let until = unix_ms_var(&request, hookgate_wire::HOLD_UNTIL_VAR);
    assert!(
        until > deadline + 25_000 && until <= deadline + 30_000,
        "{until} vs {deadline}"
    );
    assert_eq!(recorded_reasons(&socket), Vec::<String>::new());
}

#[test]
fn the_command_line_maximum_wins_over_the_environment() {
    let (_dir, socket) = socket_dir();
    let gateway = fake_gateway(
        &socket,
        Gateway::Held {
            wait_ms: 20_000,
            reply: Some(allow_reply()),
        },
    );
    // The environment says no holds; the installed command line says 30 s.
    let env = [
        ("HOOKGATE_TIMEOUT_MS", "300"),
        ("HOOKGATE_HOLD_MAX_MS", "0"),
    ];
    let out = run_shim(
        &socket,
        &["claude-code", "--hold-max-ms=30000"],
        &env,
        Some(CLAUDE_PRE_TOOL_USE),
    );
    assert_eq!(out.stdout, allow_reply().stdout);
    gateway.join().unwrap();
}

#[test]
fn a_hold_never_outlives_the_shims_own_maximum() {
    let (_dir, socket) = socket_dir();
    // The gateway asks for ten minutes and never answers.
    let gateway = fake_gateway(
        &socket,
        Gateway::Held {
            wait_ms: 600_000,
            reply: None,
        },
    );
    let env = [
        ("HOOKGATE_TIMEOUT_MS", "200"),
        ("HOOKGATE_HOLD_MAX_MS", "800"),
        ("HOOKGATE_FAIL", "closed"),
    ];
    let out = run_shim(&socket, &["claude-code"], &env, Some(CLAUDE_PRE_TOOL_USE));
    let want = expected(
        CLAUDE_PRE_TOOL_USE,
        Some(Agent::ClaudeCode),
        &[],
        FailMode::Closed,
        TIMEOUT,
    );
    assert_eq!(out, want, "its fail mode, at its own limit");
    // The fake gateway saw the shim hang up (it waits a minute at most).
    gateway.join().unwrap();
    assert_eq!(recorded_reasons(&socket), ["timeout"]);
}

#[test]
fn a_shim_that_takes_no_holds_refuses_a_hold_frame() {
    let (_dir, socket) = socket_dir();
    let gateway = fake_gateway(
        &socket,
        Gateway::Held {
            wait_ms: 20_000,
            reply: None,
        },
    );
    let env = [("HOOKGATE_TIMEOUT_MS", "5000"), ("HOOKGATE_FAIL", "closed")];
    let out = run_shim(&socket, &["claude-code"], &env, Some(CLAUDE_PRE_TOOL_USE));
    let want = expected(
        CLAUDE_PRE_TOOL_USE,
        Some(Agent::ClaudeCode),
        &[],
        FailMode::Closed,
        BAD_REPLY,
    );
    assert_eq!(out, want);
    let (request, _) = gateway.join().unwrap();
    assert!(
        !request
            .env
            .iter()
            .any(|(name, _)| name == hookgate_wire::HOLD_UNTIL_VAR),
        "it announced no hold limit"
    );
    assert_eq!(recorded_reasons(&socket), ["bad_reply"]);
}
