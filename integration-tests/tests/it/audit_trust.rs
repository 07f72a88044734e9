//! What `gateway audit verify` can be trusted with, through the real
//! binaries (issue #25, item 3): a rotated file deleted from the middle
//! fails it, naming the gap; a log moved away while the gateway runs is
//! reopened at its path (counted, warned, still verifiable); and an anchor
//! catches a consistent rewrite of the whole chain that the files alone
//! cannot show.

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

async fn verify(audit: &Path, anchor: Option<&Path>) -> (Option<i32>, String, String) {
    let path = audit.display().to_string();
    let mut args = vec!["audit", "verify", "--path", &path];
    let anchor = anchor.map(|a| a.display().to_string());
    if let Some(anchor) = &anchor {
        args.extend(["--anchor", anchor]);
    }
    run_gateway(&args).await
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
    let (code, stdout, stderr) = verify(&audit, None).await;
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
    let (code, stdout, stderr) = verify(&audit, None).await;
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

    let (code, stdout, stderr) = verify(&audit, None).await;
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("intact, 1 lines"), "{stdout}");
    assert!(
        stdout.contains("not checked"),
        "says it starts mid-chain: {stdout}"
    );
}

/// Rewrites the log at `audit` consistently: every `deny` made an `allow`,
/// each `prev` recomputed, the head sidecar too: what someone who can
/// write the files can do.
fn rewrite_whole_chain(audit: &Path) {
    let text = std::fs::read_to_string(audit).expect("read the log");
    let mut prev = "0".repeat(64);
    let mut out = String::new();
    let mut lines = 0;
    for line in text.lines() {
        let mut record: Value = serde_json::from_str(line).expect("a JSON line");
        if record["decision"]["permission"] == "deny" {
            record["decision"]["permission"] = json!("allow");
        }
        record["prev"] = json!(prev);
        let line = record.to_string();
        prev = sha256_hex(&line);
        out.push_str(&line);
        out.push('\n');
        lines += 1;
    }
    std::fs::write(audit, out).expect("rewrite the log");
    let head = json!({ "lines": lines, "last": prev, "file_seq": 0 });
    let head_path = format!("{}.head", audit.display());
    std::fs::write(head_path, head.to_string()).expect("rewrite the head");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anchor_catches_a_rewrite_of_the_whole_chain() {
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let anchor = dir.path().join("anchors").join("head.json");
    let extra = format!("anchor = {}", Value::String(anchor.display().to_string()));
    let gateway = TestGateway::start(&config(&audit, &extra)).await;
    for command in ["echo one", "rm -rf two", "echo three"] {
        gateway
            .shim(Some("claude-code"))
            .run(payloads::claude_bash(command))
            .await;
    }
    written(&gateway, 3).await;
    let head: Value =
        serde_json::from_str(&std::fs::read_to_string(&anchor).expect("the anchor")).expect("JSON");
    assert_eq!(head["lines"], 3, "{head}");
    let doc = gateway.status_json().await;
    assert_eq!(audit_stats(&doc)["audit"]["anchor_errors"], 0, "{doc}");
    drop(gateway);

    let (code, stdout, stderr) = verify(&audit, Some(&anchor)).await;
    assert_eq!(code, Some(0), "untouched: {stdout}{stderr}");
    assert!(stdout.contains("matches the chain's head"), "{stdout}");

    rewrite_whole_chain(&audit);
    let (code, stdout, stderr) = verify(&audit, None).await;
    assert_eq!(
        code,
        Some(0),
        "a consistent rewrite passes without the anchor: {stdout}{stderr}"
    );
    let (code, stdout, stderr) = verify(&audit, Some(&anchor)).await;
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("NOT intact") && stderr.contains("rewritten"),
        "{stderr}"
    );
}
