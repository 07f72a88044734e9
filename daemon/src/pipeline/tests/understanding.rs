//! Payloads the gateway cannot understand get the hook call's fail mode;
//! payloads JavaScript agents write (and serde_json alone rejects) are
//! understood, so the guard sees them.

use hookgate_adapters::{self as adapters, Dialect, FailMode, Permission};

use super::{Harness, default_config};
use crate::testing::request;

/// Payloads nobody can understand, each with the reason it is counted under.
const UNPARSEABLE: [(&str, &[u8], &str); 5] = [
    ("claude-code", b"not json at all", "not_an_object"),
    (
        "claude-code",
        br#"{"hook_event_name":"PreToolUse","#,
        "not_json",
    ),
    ("", b"[1,2,3]", "not_an_object"),
    (
        "claude-code",
        br#"{"hook_event_name":"PreToolUse","session_id":7,"tool_name":["x"]}"#,
        "bad_field",
    ),
    ("", br#"{"no_event_name":"x"}"#, "unknown_dialect"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unparseable_payloads_get_the_hook_calls_fail_mode_and_are_counted() {
    let h = Harness::new("");
    for (agent, payload, _) in UNPARSEABLE {
        let reply = h
            .pipeline
            .handle_unbudgeted(request(agent, payload.to_vec()))
            .await;
        let neutral = adapters::fallback(None, None, FailMode::Open, "");
        assert_eq!(reply.exit_code, 0);
        assert_eq!(reply.stdout, neutral.stdout, "fail-open: neutral");

        let mut closed = request(agent, payload.to_vec());
        closed.env.push(("HOOKGATE_FAIL".into(), "closed".into()));
        let reply = h.pipeline.handle_unbudgeted(closed).await;
        assert_ne!(reply.exit_code, 0, "fail-closed blocks: {reply:?}");
        assert!(String::from_utf8_lossy(&reply.stderr).contains("could not understand"));
    }
    let snap = h.snapshot();
    assert_eq!(snap.detect_errors + snap.parse_errors, 10, "{snap:?}");
    for (_, _, reason) in UNPARSEABLE {
        let expected = 2 * UNPARSEABLE.iter().filter(|(_, _, r)| *r == reason).count() as u64;
        assert_eq!(snap.unparsed[reason], expected, "{reason}: {snap:?}");
    }
    assert_eq!(
        (
            snap.unparsed_replies["open"],
            snap.unparsed_replies["closed"]
        ),
        (5, 5)
    );
    assert_eq!(snap.total_events(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_unparsed_closed_blocks_even_for_fail_open_shims() {
    let h = Harness::new("[server]\non_unparsed = \"closed\"\n");
    let payload = br#"{"hook_event_name":"PreToolUse","tool_input":{"command":"x"#;
    let reply = h
        .pipeline
        .handle_unbudgeted(request("claude-code", payload.to_vec()))
        .await;
    // The dialect was detected, so the block is Claude Code's PreToolUse one.
    let expected = adapters::fallback(
        Some(Dialect::ClaudeCode),
        Some("PreToolUse"),
        FailMode::Closed,
        crate::pipeline::understand::UNPARSED_MESSAGE,
    );
    assert_eq!(reply.exit_code, expected.exit_code);
    assert_eq!(reply.stdout, expected.stdout);
    assert_eq!(h.snapshot().unparsed_replies["closed"], 1);
}

/// What a model can put in a payload that serde_json alone rejects: the
/// guard must still see it (it denies reading `.env`). On threads with the
/// gateway's stack size, as `gateway serve` builds its runtime.
#[test]
fn payloads_javascript_accepts_are_guarded() {
    let thread = std::thread::Builder::new().stack_size(adapters::STACK_SIZE);
    thread.spawn(javascript_payloads).unwrap().join().unwrap();
}

fn javascript_payloads() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(adapters::STACK_SIZE)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let h = runtime.block_on(async { Harness::new(&default_config(&dir)) });
    let deep = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
    let cases = [
        r#""command":"cat .env \ud800""#.to_owned(),
        r#""command":"cat .env","n":1e400"#.to_owned(),
        format!(r#""command":"cat .env","deep":{deep}"#),
    ];
    for fields in cases {
        let payload = format!(
            r#"{{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{{fields}}}}}"#
        );
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), payload.as_bytes()].concat();
        for bytes in [payload.clone().into_bytes(), with_bom] {
            let (_, decision) = runtime.block_on(
                h.pipeline
                    .evaluate_unbudgeted(request("claude-code", bytes)),
            );
            let shown = &payload[..payload.len().min(120)];
            let decision = decision.unwrap_or_else(|| panic!("not understood: {shown}"));
            assert_eq!(decision.permission, Permission::Deny, "{shown}");
        }
    }
    runtime.block_on(async move { drop(h) });
}

/// A payload that names no working directory ran in the hook's, which the
/// shim forwards; one that names its own keeps it; a relative one is no
/// base for paths.
#[test]
fn the_hooks_working_directory_stands_in_for_a_missing_one() {
    let without = r#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"true"}}"#;
    let with = adapters::probe_payload(adapters::Agent::ClaudeCode).unwrap();
    let absolute = if cfg!(windows) {
        r"C:\work\p"
    } else {
        "/work/p"
    };
    let cases = [
        (without, absolute, Some(absolute)),
        (without, "relative", None),
        (with, absolute, Some("/")),
    ];
    for (payload, cwd, expected) in cases {
        let mut request = request("claude-code", payload.as_bytes().to_vec());
        request.cwd = cwd.into();
        let event = crate::pipeline::understand::understand(&request.into()).unwrap();
        assert_eq!(event.cwd.as_deref(), expected, "{payload} in {cwd}");
    }
}
