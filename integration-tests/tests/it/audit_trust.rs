//! What `gateway audit verify` can be trusted with, through the real
//! binaries (issue #25, item 3): a rotated file deleted from the middle
//! fails it, naming the gap; a log moved away while the gateway runs is
//! reopened at its path (counted, warned, still verifiable).

use std::path::{Path, PathBuf};

use hookgate_integration_tests::{TestGateway, payloads, run_gateway};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::decision_log::logged;
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

fn sha256_hex(line: &str) -> String {
    Sha256::digest(line.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_moved_away_while_running_is_reopened_counted_and_verifies() {
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start(&config(&audit, "")).await;
    gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("echo before"))
        .await;
    let before = logged(&audit, 1).await;
    let last = std::fs::read_to_string(&audit).expect("read the log");
    let last = sha256_hex(last.lines().last().expect("a line"));

    let moved = dir.path().join("moved.jsonl");
    std::fs::rename(&audit, &moved).expect("move the log away");
    let out = gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("rm -rf after"))
        .await;
    assert!(out.stdout_str().contains("\"deny\""), "{out}");

    let after = logged(&audit, 1).await;
    assert_eq!(after.len(), 1, "a new file at the path: {after:?}");
    assert!(after[0]["payload"].to_string().contains("rm -rf after"));
    assert_eq!(
        after[0]["prev"],
        json!(last),
        "chains to the last line written"
    );
    let old = std::fs::read_to_string(&moved).expect("read the moved log");
    assert_eq!(old.lines().count(), before.len(), "nothing more went there");

    let doc = gateway.status_json().await;
    assert_eq!(audit_stats(&doc)["audit"]["reopened"], 1, "{doc}");
    let socket = gateway.socket().display().to_string();
    let (code, text, stderr) = run_gateway(&["status", "--socket", &socket]).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("decision log") && l.contains("audit: reopened 1")),
        "{text}"
    );
    assert!(
        gateway
            .wait_for_stderr(EVENTUALLY, |e| e.contains("WARN")
                && e.contains("moved or deleted while open"))
            .await,
        "warned: {}",
        gateway.stderr()
    );
    assert!(
        !gateway.stderr().contains("rm -rf after"),
        "no payload in the log"
    );

    let (code, stdout, stderr) = verify(&audit).await;
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("intact, 1 lines"), "{stdout}");
    assert!(
        stdout.contains("not checked"),
        "says it starts mid-chain: {stdout}"
    );
}
