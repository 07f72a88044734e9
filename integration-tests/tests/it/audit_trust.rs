//! What `gateway audit verify` can be trusted with, through the real
//! binaries (issue #25, item 3): a rotated file deleted from the middle
//! fails it, naming the gap.

use std::path::{Path, PathBuf};

use hookgate_integration_tests::{TestGateway, payloads, run_gateway};
use serde_json::Value;

use crate::support::EVENTUALLY;

/// A guard that denies `rm`, and the audit log at `audit` with `extra`
/// keys.
fn config(audit: &Path, extra: &str) -> String {
    format!(
        "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\
         [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"no rm here\"\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n{extra}\n",
        Value::String(audit.display().to_string())
    )
}

/// The audit subscriber's entry in `gateway status --json`.
fn audit_stats(doc: &Value) -> Value {
    doc["subscribers"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == "audit"))
        .cloned()
        .unwrap_or_default()
}

/// Waits until the audit subscriber has written `n` records.
async fn written(gateway: &TestGateway, n: u64) {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let ok = audit_stats(&gateway.status_json().await)["ok"].as_u64();
        if ok == Some(n) {
            return;
        }
        assert!(tokio::time::Instant::now() < until, "audit ok: {ok:?}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

fn rotated(audit: &Path, n: usize) -> PathBuf {
    PathBuf::from(format!("{}.{n}", audit.display()))
}

async fn verify(audit: &Path) -> (Option<i32>, String, String) {
    let path = audit.display().to_string();
    run_gateway(&["audit", "verify", "--path", &path]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_file_deleted_from_the_middle_fails_verify_naming_it() {
    const CALLS: u64 = 12;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    // 1 KiB: about one record per file.
    let gateway = TestGateway::start(&config(&audit, "max_size_kib = 1\nkeep = 50")).await;
    for i in 0..CALLS {
        let payload = payloads::claude_bash(&format!("echo {i}"));
        gateway.shim(Some("claude-code")).run(payload).await;
    }
    written(&gateway, CALLS).await;
    assert!(rotated(&audit, 4).exists(), "rotated at least 4 times");
    let (code, stdout, stderr) = verify(&audit).await;
    assert_eq!(code, Some(0), "intact before: {stdout}{stderr}");
    assert!(
        stdout.contains(&format!("intact, {CALLS} lines")),
        "{stdout}"
    );
    assert!(
        stdout.contains("not proved"),
        "says what it cannot: {stdout}"
    );

    let gone = std::fs::read_to_string(rotated(&audit, 3)).expect("read .3");
    std::fs::remove_file(rotated(&audit, 3)).expect("delete .3");
    let (code, stdout, stderr) = verify(&audit).await;
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("NOT intact") && stderr.contains(".3 missing"),
        "names the gap: {stderr}"
    );

    // The records older than the gap are still read, not hidden by it.
    let path = audit.display().to_string();
    let (_, shown, _) = run_gateway(&["audit", "--path", &path, "--json", "-n", "100"]).await;
    let expected = CALLS as usize - gone.lines().count();
    assert_eq!(shown.lines().count(), expected, "{shown}");
    assert!(shown.contains("echo 0"), "the oldest record: {shown}");
}
