//! The gateway absent, stale, slow or talking nonsense: the shim answers on
//! its own, fail-open by default (the agent's neutral reply, exit 0,
//! nothing else) and blocking with `HOOKGATE_FAIL=closed`, in the form each
//! agent obeys.

use std::path::Path;

use hookgate_adapters as adapters;
use hookgate_integration_tests::{Shim, ShimOutput, private_dir};
use tokio::io::AsyncWriteExt;

use crate::support::{Dialect, UnderTest, cline_json, str_at};

/// The fail-open reply is exactly the adapters' neutral fallback for that
/// agent and event, and is harmless by hand-written rules.
fn assert_fail_open(out: &ShimOutput, dialect: Dialect) {
    let expected = adapters::fallback(
        Some(dialect),
        Some(dialect.pre_tool_use_event()),
        adapters::FailMode::Open,
        "",
    );
    assert_eq!(out.code, Some(0), "{dialect:?}: {out}");
    assert_eq!(out.stdout, expected.stdout, "{dialect:?}: {out}");
    assert_eq!(out.stderr, expected.stderr, "{dialect:?}: {out}");
    match dialect {
        // Claude Code (and Qwen, Droid): silence is the neutral answer.
        Dialect::ClaudeCode
        | Dialect::QwenCode
        | Dialect::Droid
        | Dialect::GeminiCli
        | Dialect::Codex
        | Dialect::CopilotPascal
        | Dialect::CopilotCamel
        | Dialect::Hermes
        | Dialect::OpenCode => {
            assert!(out.stdout.is_empty(), "{out}")
        }
        // Cursor: nothing or `{}`.
        Dialect::Cursor => {
            if !out.stdout.is_empty() {
                assert_eq!(out.json(), serde_json::json!({}), "{out}");
            }
        }
        Dialect::ClineSdk | Dialect::ClineLegacy => {
            let json = cline_json(out);
            assert_ne!(json.get("cancel"), Some(&serde_json::json!(true)), "{out}");
            assert!(
                json.get("overrideInput").is_none() && json.get("context").is_none(),
                "{out}"
            );
        }
    }
}

/// The fail-closed reply blocks the tool call the way the agent obeys.
fn assert_fail_closed(out: &ShimOutput, dialect: Dialect) {
    match dialect {
        // Qwen Code and Droid obey Claude Code's replies (measured); so
        // does Codex's PreToolUse schema, and exit 2 with stderr.
        Dialect::ClaudeCode | Dialect::QwenCode | Dialect::Droid | Dialect::Codex => match out.code
        {
            // Exit 2 blocks and Claude Code reads the reason on stderr;
            // it ignores stdout then, which may repeat the deny as JSON.
            Some(2) => {
                assert!(
                    !out.stderr.is_empty(),
                    "exit 2 tells Claude why on stderr: {out}"
                );
                if !out.stdout.is_empty() {
                    let json = out.json();
                    assert_eq!(
                        str_at(&json["hookSpecificOutput"], "permissionDecision"),
                        "deny",
                        "{out}"
                    );
                }
            }
            Some(0) => {
                let json = out.json();
                let specific = &json["hookSpecificOutput"];
                assert_eq!(str_at(specific, "hookEventName"), "PreToolUse", "{out}");
                assert_eq!(str_at(specific, "permissionDecision"), "deny", "{out}");
            }
            _ => panic!("Claude Code blocks with exit 2 or a deny: {out}"),
        },
        // Cursor blocks on a bare exit 2; JSON next to it would be shown raw.
        Dialect::Cursor => {
            assert_eq!(out.code, Some(2), "{out}");
            assert!(out.stdout.is_empty(), "{out}");
        }
        // Copilot: a JSON deny at exit 0 (a non-zero exit denies without
        // the reason).
        Dialect::CopilotPascal => {
            assert_eq!(out.code, Some(0), "{out}");
            let json = out.json();
            assert_eq!(
                str_at(&json["hookSpecificOutput"], "permissionDecision"),
                "deny",
                "{out}"
            );
        }
        Dialect::CopilotCamel => {
            assert_eq!(out.code, Some(0), "{out}");
            assert_eq!(str_at(&out.json(), "permissionDecision"), "deny", "{out}");
        }
        // Hermes ignores exit codes: only the block JSON blocks.
        Dialect::Hermes => {
            assert_eq!(out.code, Some(0), "{out}");
            assert_eq!(str_at(&out.json(), "decision"), "block", "{out}");
            assert!(!str_at(&out.json(), "reason").is_empty(), "{out}");
        }
        // hookgate's OpenCode plugin throws on a JSON deny at exit 0.
        Dialect::OpenCode => {
            assert_eq!(out.code, Some(0), "{out}");
            let json = out.json();
            let specific = &json["hookSpecificOutput"];
            assert_eq!(
                str_at(specific, "hookEventName"),
                "tool.execute.before",
                "{out}"
            );
            assert_eq!(str_at(specific, "permissionDecision"), "deny", "{out}");
        }
        // Gemini reads stdout JSON before the exit code: the deny is JSON.
        Dialect::GeminiCli => {
            assert_eq!(str_at(&out.json(), "decision"), "deny", "{out}");
            assert!(!str_at(&out.json(), "reason").is_empty(), "{out}");
        }
        // Cline ignores exit codes (SDK): only `cancel` blocks.
        Dialect::ClineSdk | Dialect::ClineLegacy => {
            let json = cline_json(out);
            assert_eq!(json.get("cancel"), Some(&serde_json::json!(true)), "{out}");
            assert!(!str_at(&json, "errorMessage").is_empty(), "{out}");
        }
    }
}

async fn each_dialect(socket: &Path, closed: bool) {
    for dialect in Dialect::ALL {
        let payload = dialect.shell_payload("rm -rf build");
        let mut shim = Shim::new(socket, Some(dialect.arg()));
        if closed {
            shim = shim.fail_closed();
        }
        let out = shim.run(&payload).await;
        if closed {
            assert_fail_closed(&out, dialect);
        } else {
            assert_fail_open(&out, dialect);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_gateway_fails_open() {
    let dir = private_dir();
    each_dialect(&dir.path().join("gateway.sock"), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_gateway_fails_closed_when_asked() {
    let dir = private_dir();
    each_dialect(&dir.path().join("gateway.sock"), true).await;
}

/// A socket file left behind by a dead gateway (connection refused).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_socket_fails_open_and_closed() {
    let dir = private_dir();
    let socket = dir.path().join("gateway.sock");
    drop(std::os::unix::net::UnixListener::bind(&socket).expect("bind"));
    assert!(socket.exists());
    each_dialect(&socket, false).await;
    each_dialect(&socket, true).await;
}

/// A "gateway" that accepts and never answers: the shim's own deadline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_gateway_hits_the_shim_deadline() {
    let dir = private_dir();
    let socket = dir.path().join("gateway.sock");
    let listener = tokio::net::UnixListener::bind(&socket).expect("bind");
    let holder = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    for dialect in [Dialect::ClaudeCode, Dialect::ClineSdk] {
        let payload = dialect.shell_payload("ls");
        let open = Shim::new(&socket, Some(dialect.arg()))
            .env("HOOKGATE_TIMEOUT_MS", "300")
            .run(&payload)
            .await;
        assert_fail_open(&open, dialect);
        let closed = Shim::new(&socket, Some(dialect.arg()))
            .env("HOOKGATE_TIMEOUT_MS", "300")
            .fail_closed()
            .run(&payload)
            .await;
        assert_fail_closed(&closed, dialect);
    }
    holder.abort();
}

/// A "gateway" that answers garbage: a malformed reply is never replayed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_reply_fails_open() {
    let dir = private_dir();
    let socket = dir.path().join("gateway.sock");
    let listener = tokio::net::UnixListener::bind(&socket).expect("bind");
    let liar = tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\n\r\n{\"permission\":\"deny\"}")
                .await;
            let _ = stream.shutdown().await;
        }
    });
    for dialect in Dialect::ALL {
        let out = Shim::new(&socket, Some(dialect.arg()))
            .run(dialect.shell_payload("ls"))
            .await;
        assert_fail_open(&out, dialect);
    }
    liar.abort();
}
