//! The built-in `approval` through the real gateway and shim: a matching
//! call is held (past the shim's normal deadline only when the shim takes
//! holds), listed by `gateway approvals list --json` with its input masked,
//! released by `approve ID` or refused by `deny ID --reason R`; nobody
//! answering applies `on_timeout`, `max_held` overflows get it at once
//! (counted), and a stopping gateway answers every held call.

use std::path::Path;
use std::time::{Duration, Instant};

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::{Shim, ShimOutput, TestGateway, payloads};
use serde_json::Value;
use tokio::task::JoinHandle;

use crate::support::{assert_claude_deny, claude_specific, str_at};

/// How long a test waits for a held call to be listed.
const LISTED_WITHIN: Duration = Duration::from_secs(10);

/// A gateway with one `approval` holding `make deploy` and a decision log.
pub(crate) async fn gateway(keys: &str) -> TestGateway {
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let config = format!(
        r#"
[[subscriber]]
name = "hold"
builtin = "approval"
{keys}

[[subscriber.rules]]
id = "deploy"
shell = "^make deploy"
reason = "deploys need a person"

[[subscriber]]
name = "log"
builtin = "audit"
path = {audit:?}
"#
    );
    TestGateway::start_in(dir, &config, &[]).await
}

/// The held shims' own deadline: long enough for the call to reach the
/// hold on a busy machine, short next to the holds.
const SHIM_TIMEOUT_MS: u64 = 3000;

/// A Claude Code shell call of `command`, run by a shim with a
/// [`SHIM_TIMEOUT_MS`] deadline that takes holds of up to `hold_max_ms`
/// (none: it takes none), failing closed.
pub(crate) fn call(
    gateway: &TestGateway,
    command: &str,
    hold_max_ms: Option<u64>,
) -> JoinHandle<ShimOutput> {
    call_within(gateway, command, SHIM_TIMEOUT_MS, hold_max_ms)
}

/// [`call`] with a shim deadline of `timeout_ms`, failing closed.
fn call_within(
    gateway: &TestGateway,
    command: &str,
    timeout_ms: u64,
    hold_max_ms: Option<u64>,
) -> JoinHandle<ShimOutput> {
    let mut shim = Shim::new(gateway.socket(), Some("claude-code"))
        .env("HOOKGATE_TIMEOUT_MS", &timeout_ms.to_string())
        .fail_closed();
    if let Some(ms) = hold_max_ms {
        shim = shim.env("HOOKGATE_HOLD_MAX_MS", &ms.to_string());
    }
    let payload = payloads::claude_bash(command);
    tokio::spawn(async move { shim.run(payload).await })
}

/// Runs `gateway approvals ARGS --socket S`; (exit code, stdout, stderr).
pub(crate) async fn approvals(socket: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = tokio::process::Command::new(&binaries().gateway)
        .arg("approvals")
        .args(args)
        .arg("--socket")
        .arg(socket)
        .output()
        .await
        .expect("run gateway approvals");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `gateway approvals list --json`, once `count` calls are held.
pub(crate) async fn listed(socket: &Path, count: usize) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let (code, stdout, stderr) = approvals(socket, &["list", "--json"]).await;
        assert_eq!(code, Some(0), "{stderr}");
        let held: Vec<Value> = serde_json::from_str(&stdout).expect("a JSON array");
        if held.len() == count {
            return held;
        }
        assert!(
            start.elapsed() < LISTED_WITHIN,
            "{count} held calls never listed: {stdout}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the held call's shim is past its own deadline (it started
/// before the call was held), so an answer after it proves the hold kept
/// the shim waiting.
async fn past_the_shims_deadline(held: &Value) {
    let held_at = held["held_at_unix_ms"].as_u64().expect("held_at_unix_ms");
    let past = held_at + SHIM_TIMEOUT_MS + 500;
    loop {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        if now > past {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn permission_decision(out: &ShimOutput) -> String {
    let json = out.json();
    str_at(
        claude_specific(out, &json, "PreToolUse"),
        "permissionDecision",
    )
    .to_owned()
}

/// The decision log's record of the call whose command starts with
/// `command`.
async fn logged(gateway: &TestGateway, command: &str) -> Value {
    let audit = gateway.dir().join("audit.jsonl");
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(&audit).unwrap_or_default();
        let found = text
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find(|record| {
                record["tool"]["command"]
                    .as_str()
                    .is_some_and(|c| c.starts_with(command))
            });
        if let Some(record) = found {
            return record;
        }
        assert!(
            start.elapsed() < LISTED_WITHIN,
            "no record of {command}: {text}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_held_call_is_listed_masked_and_approved_past_the_shims_deadline() {
    let gateway = gateway("hold_ms = 30000").await;
    let command = "make deploy TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let shim = call(&gateway, command, Some(60_000));
    let held = listed(gateway.socket(), 1).await;
    let held = &held[0];
    assert_eq!(held["agent"], "claude-code");
    assert_eq!(held["tool"], "Bash");
    assert_eq!(held["rule"], "deploy");
    assert!(held["session"].is_string(), "{held}");
    let input = held["input"].as_str().expect("input");
    assert!(input.contains("make deploy"), "{input}");
    assert!(
        !input.contains("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
        "masked: {input}"
    );
    assert!(held["time_left_ms"].as_u64().expect("time left") > 0);

    past_the_shims_deadline(held).await;
    let id = held["id"].to_string();
    let (code, stdout, stderr) =
        approvals(gateway.socket(), &["approve", &id, "--as", "reviewer"]).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("approved "), "{stdout}");
    let out = shim.await.expect("the shim task");
    assert_eq!(permission_decision(&out), "allow", "{out}");
    assert!(listed(gateway.socket(), 0).await.is_empty());

    // The decision log says who approved, through what, after how long.
    let record = logged(&gateway, "make deploy").await;
    assert!(
        !record
            .to_string()
            .contains("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
        "{record}"
    );
    let hold = record["subscribers"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["name"] == "hold"))
        .unwrap_or_else(|| panic!("no `hold` in {record}"));
    let approval = &hold["approval"];
    assert_eq!(approval["outcome"], "approved", "{record}");
    assert_eq!(approval["approver"], "reviewer", "{record}");
    assert_eq!(approval["channel"], "cli", "{record}");
    assert!(
        approval["wait_ms"].as_u64().expect("wait_ms") >= SHIM_TIMEOUT_MS,
        "{record}"
    );
    // Answered once: a second answer finds nothing.
    let (code, _, stderr) = approvals(gateway.socket(), &["deny", &id]).await;
    assert_eq!(code, Some(1));
    assert!(stderr.contains("no call"), "{stderr}");
}

#[tokio::test]
async fn a_denied_call_carries_the_reason_and_other_calls_are_not_held() {
    let gateway = gateway("hold_ms = 30000").await;
    let shim = call(&gateway, "make deploy", Some(60_000));
    // A call no rule matches is answered at once, not held.
    let other = call(&gateway, "make test", Some(60_000))
        .await
        .expect("the shim task");
    assert!(other.code == Some(0), "{other}");
    assert!(
        other.stdout.is_empty() || permission_decision(&other) != "deny",
        "{other}"
    );
    let held = listed(gateway.socket(), 1).await;
    let id = held[0]["id"].to_string();
    let (code, _, stderr) = approvals(
        gateway.socket(),
        &["deny", &id, "--reason", "not on a Friday"],
    )
    .await;
    assert_eq!(code, Some(0), "{stderr}");
    let out = shim.await.expect("the shim task");
    assert_claude_deny(&out, "PreToolUse", "not on a Friday");
}

#[tokio::test]
async fn nobody_answering_applies_on_timeout() {
    let gateway = gateway("hold_ms = 300\non_timeout = \"deny\"").await;
    let out = call(&gateway, "make deploy", Some(60_000))
        .await
        .expect("the shim task");
    assert_claude_deny(&out, "PreToolUse", "nobody answered");

    let gateway = self::gateway("hold_ms = 300\non_timeout = \"allow\"").await;
    let out = call(&gateway, "make deploy", Some(60_000))
        .await
        .expect("the shim task");
    assert_eq!(permission_decision(&out), "allow", "{out}");
}

#[tokio::test]
async fn a_shim_that_takes_no_holds_is_held_within_its_own_deadline() {
    let gateway = gateway("hold_ms = 30000").await;
    // No hold maximum: the gateway answers on_timeout before the shim's
    // deadline, rather than the shim falling back on its own (failing
    // closed, whose reason would say the gateway did not answer in time).
    let out = call(&gateway, "make deploy", None)
        .await
        .expect("the shim task");
    assert_claude_deny(&out, "PreToolUse", "nobody answered");
}

#[tokio::test]
async fn past_max_held_on_timeout_applies_at_once_and_is_counted() {
    let gateway = gateway("hold_ms = 30000\nmax_held = 1").await;
    let first = call(&gateway, "make deploy one", Some(60_000));
    let held = listed(gateway.socket(), 1).await;
    let second = call(&gateway, "make deploy two", Some(60_000))
        .await
        .expect("the shim task");
    assert_claude_deny(&second, "PreToolUse", "not held");
    let status = crate::support::subscriber_status(&gateway, "hold").await;
    assert_eq!(status["drops"], 1, "{status}");
    let id = held[0]["id"].to_string();
    let (code, _, stderr) = approvals(gateway.socket(), &["approve", &id]).await;
    assert_eq!(code, Some(0), "{stderr}");
    let out = first.await.expect("the shim task");
    assert_eq!(permission_decision(&out), "allow", "{out}");
}

#[tokio::test]
async fn a_stopping_gateway_answers_every_held_call() {
    let mut gateway = gateway("hold_ms = 30000").await;
    let first = call(&gateway, "make deploy one", Some(60_000));
    let second = call(&gateway, "make deploy two", Some(60_000));
    listed(gateway.socket(), 2).await;
    assert_eq!(gateway.terminate().await, Some(0), "{}", gateway.stderr());
    for shim in [first, second] {
        let out = shim.await.expect("the shim task");
        assert_claude_deny(&out, "PreToolUse", "gateway stopped");
    }
}
