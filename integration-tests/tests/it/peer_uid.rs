//! A connection from another user is refused, by the shim (it will not
//! talk to a socket another uid owns) and, when file ownership and
//! permissions would let it through, by the gateway's peer-uid check.
//!
//! Needs root (to run the shim as `nobody` with `setpriv`); skipped with a
//! printed reason otherwise.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::{ShimOutput, SubscriberEntry, TestSubscriber, decisions};

use crate::support::{
    AS_NOBODY, Dialect, EVENTUALLY, UnderTest, cannot_switch_users, claude_specific, gateway,
    nobody_ids, str_at,
};

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|err| panic!("chmod {mode:o} {}: {err}", path.display()));
}

/// The shim's fail-closed reply to a Claude Code `PreToolUse`: not served.
fn assert_blocked_unserved(out: &ShimOutput) {
    assert!(
        !out.stdout_str().contains("served") && !out.stderr_str().contains("served"),
        "another uid was served: {out}"
    );
    match out.code {
        Some(2) => assert!(!out.stderr.is_empty(), "{out}"),
        Some(0) => assert_eq!(
            str_at(&out.json()["hookSpecificOutput"], "permissionDecision"),
            "deny",
            "{out}"
        ),
        _ => panic!("expected the shim's fail-closed reply: {out}"),
    }
}

fn refusal_logged(log: &str) -> bool {
    log.lines().any(|line| {
        let line = line.to_lowercase();
        line.contains("uid") && line.contains("refused")
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_uid_is_refused() {
    if let Some(reason) = cannot_switch_users() {
        eprintln!("SKIPPED other_uid_is_refused: {reason}");
        return;
    }
    let (nobody_uid, nobody_gid) = nobody_ids().expect("checked above");
    let subscriber = TestSubscriber::fixed(decisions::context("served")).await;
    let gateway = gateway(&[SubscriberEntry::decide("p", &subscriber.endpoint())]).await;

    // Open the private directory and the socket to everyone, and give
    // `nobody` a copy of the shim it can execute.
    let shim = gateway.dir().join("gateway-shim");
    // Copied by a `cp` process, not in this process: a file this test
    // process held open for writing could be inherited by a child another
    // test thread forks at that moment, and exec would then fail with
    // ETXTBSY ("text file busy").
    let copied = std::process::Command::new("cp")
        .arg(&binaries().shim)
        .arg(&shim)
        .status()
        .expect("run cp");
    assert!(copied.success(), "copy the shim");
    chmod(&shim, 0o755);
    chmod(gateway.dir(), 0o755);
    chmod(gateway.socket(), 0o777);
    let payload = Dialect::ClaudeCode.shell_payload("id");
    let as_nobody = || {
        gateway
            .shim(Some("claude-code"))
            .program(&shim)
            .wrapped(&AS_NOBODY)
            .fail_closed()
    };

    // Control: through the same path and permissions, the owner is served.
    let out = gateway
        .shim(Some("claude-code"))
        .program(&shim)
        .run(&payload)
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    assert_eq!(
        str_at(
            claude_specific(&out, &json, "PreToolUse"),
            "additionalContext"
        ),
        "served"
    );
    assert_eq!(subscriber.count(), 1);

    // 1. `nobody`'s shim will not talk to a socket root owns.
    let out = as_nobody().run(&payload).await;
    assert_blocked_unserved(&out);

    // 2. Hand the socket file to `nobody`: the shim's own check passes, so
    //    only the gateway's SO_PEERCRED check can stop the connection.
    std::os::unix::fs::chown(gateway.socket(), Some(nobody_uid), Some(nobody_gid))
        .expect("chown the socket to nobody");
    let out = as_nobody().run(&payload).await;
    assert_blocked_unserved(&out);
    assert_eq!(
        subscriber.count(),
        1,
        "the refused calls never reached a subscriber"
    );
    let logged = gateway.wait_for_stderr(EVENTUALLY, refusal_logged).await;
    assert!(
        logged,
        "the gateway logged no uid refusal; stderr:\n{}",
        gateway.stderr()
    );
}
