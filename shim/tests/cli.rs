//! The real `gateway-shim` binary against a std-only fake gateway speaking
//! hookgate-wire: replay of replies, request contents, and every fallback.

#![cfg(unix)]
#![allow(
    clippy::disallowed_methods,
    reason = "test and bench code drives real processes and files; the runtime rules are the gateway's"
)]
// Test helpers (not only #[test] fns) unwrap: a failure there is a test failure.
#![allow(clippy::unwrap_used)]

mod support;

use std::fs;
use std::io::ErrorKind;
use std::os::unix::net::UnixListener;
use std::path::Path;

use hookgate_dialect::{Agent, FailMode};
use hookgate_wire::{MAX_STDIN, Reply, ReplyFrame as _, Request};

use support::*;

#[test]
fn replays_the_gateway_reply_and_forwards_the_call() {
    let (dir, socket) = socket_dir();
    let reply = Reply {
        exit_code: 2,
        stdout: b"{\"decision\":\"block\"}\n".to_vec(),
        stderr: b"denied by policy \xff\n".to_vec(),
    };
    let gateway = fake_gateway(&socket, Gateway::ReplyAwaitingAck(reply.clone()));
    let env = [
        ("CLAUDE_PROJECT_DIR", "/home/dev/acme"),
        ("CURSOR_VERSION", "1.7.2"),
        ("HOOKGATE_TIMEOUT_MS", "30000"),
        ("AWS_SECRET_ACCESS_KEY", "do-not-forward"),
        ("PATH", "/usr/bin"),
    ];
    let out = run_shim(&socket, &["claude-code"], &env, Some(CLAUDE_PRE_TOOL_USE));

    assert_eq!(
        out,
        Output {
            stdout: reply.stdout,
            stderr: reply.stderr,
            code: 2
        }
    );
    let (mut request, _) = gateway.join().unwrap();
    assert_eq!(request.args, ["claude-code"]);
    assert_eq!(
        Path::new(&request.cwd),
        fs::canonicalize(dir.path()).unwrap()
    );
    // When it will answer by itself: its deadline on the wall clock,
    // about 30 s from its start.
    let at = request
        .env
        .iter()
        .position(|(name, _)| name == hookgate_wire::DEADLINE_VAR)
        .expect("the shim sends its deadline");
    let (_, deadline) = request.env.remove(at);
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    let deadline: u128 = deadline.parse().unwrap();
    assert!(
        deadline > now_ms + 20_000 && deadline <= now_ms + 30_000,
        "{deadline} vs now {now_ms}"
    );
    let socket_str = socket.to_str().unwrap();
    assert_eq!(
        request.env,
        [
            // Agents' variables by name only: their values stay here.
            ("CLAUDE_PROJECT_DIR", ""),
            ("CURSOR_VERSION", ""),
            // The mode this call resolved (the default here), for payloads
            // the gateway cannot understand.
            ("HOOKGATE_FAIL", "open"),
            ("HOOKGATE_SOCKET", socket_str),
            ("HOOKGATE_TIMEOUT_MS", "30000"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    assert_eq!(request.stdin, CLAUDE_PRE_TOOL_USE);
    assert!(recorded_reasons(&socket).is_empty());
}

#[test]
fn replays_empty_replies_and_forwards_flags() {
    let (_dir, socket) = socket_dir();
    let gateway = fake_gateway(&socket, Gateway::Reply(Reply::default()));
    let out = run_shim(
        &socket,
        &["cline", "--fail-closed"],
        &[("HOOKGATE_TIMEOUT_MS", "soon"), ("HOOKGATE_FAIL", "open")],
        Some(CLINE_SDK_TOOL_CALL),
    );
    assert_eq!(out.stdout, b"");
    assert_eq!(out.code, 0);
    // A bad setting is reported and the default used.
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("gateway-shim: HOOKGATE_TIMEOUT_MS"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let (request, _) = gateway.join().unwrap();
    assert_eq!(request.args, ["cline", "--fail-closed"]);
    let forwarded = request.env.iter().find(|(name, _)| name == "HOOKGATE_FAIL");
    assert_eq!(
        forwarded.map(|(_, mode)| mode.as_str()),
        Some("closed"),
        "the flag wins over HOOKGATE_FAIL, and the gateway is told"
    );
    assert_eq!(request.stdin, CLINE_SDK_TOOL_CALL);
}

#[test]
fn absent_gateway_fails_open_for_every_agent() {
    for case in agents() {
        let (_dir, socket) = socket_dir();
        let out = run_shim(&socket, &case.args, &case.env, Some(case.payload));
        let name = &case.name;
        assert_eq!(out, case.expected(FailMode::Open, UNREACHABLE), "{name}");
        assert_eq!(
            out.code, 0,
            "{name}: fail-open is the agent's neutral reply"
        );
        assert_eq!(recorded_reasons(&socket), ["unreachable"], "{name}");
    }
}

/// How a fail mode is asked for: its name, the extra argument, the
/// environment, the reply it must give.
type Way<'a> = (
    &'a str,
    Option<&'a str>,
    &'a [(&'a str, &'a str)],
    &'a Output,
);

#[test]
fn absent_gateway_fails_closed_when_asked() {
    for case in agents() {
        let name = &case.name;
        let closed = case.expected(FailMode::Closed, UNREACHABLE);
        // Every sample is a pre-tool event, which each agent lets a hook block.
        let open = case.expected(FailMode::Open, UNREACHABLE);
        assert_ne!(
            closed, open,
            "{name}: fail-closed must differ from fail-open"
        );

        let (_dir, socket) = socket_dir();
        let mut env = case.env.clone();
        env.push(("HOOKGATE_FAIL", "closed"));
        // The flag wins over the environment.
        let ways: [Way<'_>; 3] = [
            ("env", None, &env, &closed),
            ("flag", Some("--fail-closed"), &case.env, &closed),
            ("flag wins", Some("--fail-open"), &env, &open),
        ];
        for (how, flag, env, reply) in ways {
            let mut args = case.args.clone();
            args.extend(flag);
            assert_eq!(
                run_shim(&socket, &args, env, Some(case.payload)),
                *reply,
                "{name}: {how}"
            );
        }
        // The record says which calls were blocked and which let through.
        assert_eq!(
            recorded_modes(&socket),
            ["closed", "closed", "open"],
            "{name}"
        );
    }
}

#[test]
fn silent_gateway_times_out() {
    let (_dir, socket) = socket_dir();
    let gateway = fake_gateway(&socket, Gateway::Hang);
    let env = [("HOOKGATE_TIMEOUT_MS", "300"), ("HOOKGATE_FAIL", "closed")];
    let out = run_shim(&socket, &["claude-code"], &env, Some(CLAUDE_PRE_TOOL_USE));
    let want = expected(
        CLAUDE_PRE_TOOL_USE,
        Some(Agent::ClaudeCode),
        &[],
        FailMode::Closed,
        TIMEOUT,
    );
    assert_eq!(out, want);
    let (request, stream) = gateway.join().unwrap();
    assert_eq!(request.stdin, CLAUDE_PRE_TOOL_USE, "the request did arrive");
    drop(stream);
    assert_eq!(recorded_reasons(&socket), ["timeout"]);
}

#[test]
fn stdin_never_closed_times_out() {
    let (_dir, socket) = socket_dir();
    let env = [("HOOKGATE_TIMEOUT_MS", "300"), ("HOOKGATE_FAIL", "closed")];
    let out = run_shim(&socket, &["cursor"], &env, None);
    let want = expected(b"", Some(Agent::Cursor), &[], FailMode::Closed, TIMEOUT);
    assert_eq!(out, want);
    assert_eq!(recorded_reasons(&socket), ["timeout"]);
}

#[test]
fn malformed_replies_fall_back() {
    let out_of_range = Reply {
        exit_code: 256,
        ..Reply::default()
    }
    .encode();
    let negative = Reply {
        exit_code: -1,
        ..Reply::default()
    }
    .encode();
    let mut truncated = Reply {
        exit_code: 0,
        stdout: b"{\"continue\":true}".to_vec(),
        stderr: Vec::new(),
    }
    .encode();
    truncated.truncate(truncated.len() - 3);
    let request_kind = Request::default().encode();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("http", b"HTTP/1.1 200 OK\r\n\r\n{}".to_vec()),
        ("exit code 256", out_of_range),
        ("exit code -1", negative),
        ("truncated", truncated),
        ("wrong kind", request_kind),
        ("closed without reply", Vec::new()),
    ];
    for (name, bytes) in cases {
        let (_dir, socket) = socket_dir();
        let gateway = fake_gateway(&socket, Gateway::Raw(bytes));
        let env = [
            ("HOOKGATE_FAIL", "closed"),
            ("HOOKGATE_TIMEOUT_MS", "30000"),
        ];
        let out = run_shim(&socket, &[], &env, Some(CLINE_LEGACY_PRE_TOOL_USE));
        let want = expected(
            CLINE_LEGACY_PRE_TOOL_USE,
            None,
            &[],
            FailMode::Closed,
            BAD_REPLY,
        );
        assert_eq!(out, want, "{name}");
        gateway.join().unwrap();
        assert_eq!(recorded_reasons(&socket), ["bad_reply"], "{name}");
    }
}

#[test]
fn oversized_stdin_is_never_forwarded() {
    let (_dir, socket) = socket_dir();
    let listener = UnixListener::bind(&socket).unwrap();
    let mut payload = br#"{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Write","tool_input":{"content":""#.to_vec();
    payload.resize(MAX_STDIN + 1, b'x');
    let env = [
        ("HOOKGATE_FAIL", "closed"),
        ("HOOKGATE_TIMEOUT_MS", "30000"),
    ];
    let out = run_shim(&socket, &["claude-code"], &env, Some(&payload));
    let want = expected(
        &payload[..MAX_STDIN],
        Some(Agent::ClaudeCode),
        &[],
        FailMode::Closed,
        OVERSIZE,
    );
    assert_eq!(out, want);
    listener.set_nonblocking(true).unwrap();
    assert_eq!(
        listener.accept().map(|_| ()).map_err(|e| e.kind()),
        Err(ErrorKind::WouldBlock),
        "the shim must not connect"
    );
    assert_eq!(recorded_reasons(&socket), ["oversize"]);
}

#[test]
fn stdin_of_exactly_the_limit_is_forwarded() {
    let (_dir, socket) = socket_dir();
    let gateway = fake_gateway(&socket, Gateway::Reply(Reply::default()));
    let payload = vec![b' '; MAX_STDIN];
    let out = run_shim(
        &socket,
        &[],
        &[("HOOKGATE_TIMEOUT_MS", "30000")],
        Some(&payload),
    );
    assert_eq!(out.code, 0);
    let (request, _) = gateway.join().unwrap();
    assert_eq!(request.stdin.len(), MAX_STDIN);
}

#[test]
fn bad_arguments_never_hurt_the_agent() {
    let (_dir, socket) = socket_dir();
    let listener = UnixListener::bind(&socket).unwrap();
    let out = run_shim(&socket, &["claude"], &[], Some(CLAUDE_PRE_TOOL_USE));
    let want = expected(CLAUDE_PRE_TOOL_USE, None, &[], FailMode::Open, USAGE);
    assert_eq!(out.stdout, want.stdout);
    assert_eq!(out.code, want.code);
    assert_eq!(out.code, 0);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let (note, rest) = stderr.split_once('\n').unwrap();
    assert!(
        note.starts_with("gateway-shim: `claude`: unknown agent"),
        "{note}"
    );
    assert_eq!(rest.as_bytes(), want.stderr);
    listener.set_nonblocking(true).unwrap();
    assert!(
        listener.accept().is_err(),
        "a misconfigured hook is not forwarded"
    );
    assert_eq!(recorded_reasons(&socket), ["usage"]);

    // An explicit fail-closed still holds.
    let out = run_shim(
        &socket,
        &["cursor", "--bogus", "--fail-closed"],
        &[],
        Some(CURSOR_SHELL),
    );
    let want = expected(
        CURSOR_SHELL,
        Some(Agent::Cursor),
        &[],
        FailMode::Closed,
        USAGE,
    );
    assert_eq!(out.stdout, want.stdout);
    assert_eq!(out.code, want.code);
}

#[test]
fn help_and_version_do_not_read_stdin() {
    let (_dir, socket) = socket_dir();
    let out = run_shim(&socket, &["--help"], &[], None);
    assert_eq!(out.code, 0);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("usage: gateway-shim")
    );
    let out = run_shim(&socket, &["--version"], &[], None);
    assert_eq!(out.code, 0);
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .starts_with("gateway-shim ")
    );
}

#[test]
fn debug_explains_each_fallback_after_the_reply() {
    let (_dir, socket) = socket_dir();
    let out = run_shim(&socket, &[], &[("HOOKGATE_DEBUG", "1")], Some(CURSOR_SHELL));
    let want = expected(CURSOR_SHELL, None, &[], FailMode::Open, UNREACHABLE);
    assert_eq!(out.stdout, want.stdout);
    assert!(out.stderr.starts_with(&want.stderr));
    let debug = String::from_utf8(out.stderr[want.stderr.len()..].to_vec()).unwrap();
    assert!(
        debug.starts_with("gateway-shim: answered on its own (unreachable"),
        "{debug}"
    );
    assert_eq!(debug.lines().count(), 1, "{debug}");
}
