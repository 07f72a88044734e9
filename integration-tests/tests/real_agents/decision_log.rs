//! The decision log says what the agent really got (issue #25, item 3),
//! with the real Qwen Code CLI: a subscriber slower than the shim's
//! deadline is cut short of it (the agent runs the tool, fail-open, and the
//! log says the call was cut and the reply delivered), and a shim the agent
//! kills with its own hook timeout leaves a `deny` the agent never got,
//! which the log marks as such.

use std::path::Path;
use std::time::Duration;

use hookgate_adapters::Dialect;
use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::fake_model::Script;
use hookgate_integration_tests::{
    OnError, SubscriberEntry, TestGateway, TestSubscriber, config_toml, run_gateway,
};
use hookgate_proto::v1::Decision;
use serde_json::{Value, json};

use crate::support::{run, touch};

/// A gateway with `entries` and the audit log at `audit`.
async fn audited(entries: &[SubscriberEntry], audit: &Path) -> TestGateway {
    TestGateway::start(&format!(
        "{}\n[[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n",
        config_toml(entries),
        Value::String(audit.display().to_string())
    ))
    .await
}

/// A subscriber that answers `decision` after `delay`.
async fn slow(delay: Duration, decision: Decision) -> TestSubscriber {
    TestSubscriber::start(std::sync::Arc::new(move |_| {
        let decision = decision.clone();
        Box::pin(async move {
            tokio::time::sleep(delay).await;
            Ok(decision)
        })
    }))
    .await
}

/// The audit log's pre-tool-use records, once `n` lines are there.
async fn pre_tool_records(audit: &Path) -> Vec<Value> {
    let until = tokio::time::Instant::now() + crate::support::EVENTUALLY;
    loop {
        let records: Vec<Value> = std::fs::read_to_string(audit)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .filter(|r: &Value| r["kind"] == "pre_tool_use")
            .collect();
        if !records.is_empty() || tokio::time::Instant::now() >= until {
            return records;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The shim's deadline (2 s) passes before the subscriber's (30 s): the
/// gateway cuts the call 100 ms short of it and answers by the
/// subscriber's `on_error = "allow"`, so the agent runs the tool, the shim
/// never falls back, and the log says the call was cut at the shim's
/// deadline and the reply delivered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscriber_past_the_shims_deadline_is_cut_and_the_log_says_so() {
    let policy = slow(
        Duration::from_secs(60),
        hookgate_integration_tests::decisions::deny("too late"),
    )
    .await;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = audited(
        &[SubscriberEntry::decide("slow", &policy.endpoint())
            .events(&["pre_tool_use"])
            .timeout_ms(30_000)
            .on_error(OnError::Allow)],
        &audit,
    )
    .await;
    let run = run(Dialect::QwenCode).env("HOOKGATE_TIMEOUT_MS", "2000");
    let marker = run.work().join("ran-marker");
    let outcome = run
        .script(Script::shell_then_text(&touch(&marker), "Done."))
        .socket(gateway.socket())
        .run()
        .await;

    assert!(marker.exists(), "fail-open: the tool ran\n{outcome}");
    let records = pre_tool_records(&audit).await;
    assert_eq!(records.len(), 1, "{records:#?}");
    let record = &records[0];
    assert_eq!(record["delivery"], "delivered", "{record}");
    assert_eq!(record["fail_mode"], "open", "{record}");
    assert_eq!(record["decision"]["permission"], "none", "{record}");
    assert_eq!(
        record["subscribers"]
            .as_array()
            .and_then(|all| all.iter().find(|s| s["name"] == "slow"))
            .map(|slow| slow["failed"].clone()),
        Some(json!("no answer before the shim's deadline")),
        "{record}"
    );
    let left = record["deadline_left_ms"].as_u64().unwrap_or(0);
    assert!(left > 0 && left <= 2000, "{record}");
    let doc = gateway.status_json().await;
    assert_eq!(crate::support::fallback_reasons(gateway.socket()).len(), 0);
    let cuts = doc["subscribers"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == "slow"))
        .map(|s| s["deadline_cuts"].clone());
    assert_eq!(cuts, Some(json!(1)), "{doc}");
}

/// Qwen's hooks for PreToolUse only, with a `timeout` of one second (Qwen
/// counts it in milliseconds), shorter than the shim's deadline.
fn short_hook_timeout(home: &Path) {
    let path = home.join(".qwen/settings.json");
    let mut settings: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("Qwen's settings"))
            .expect("JSON");
    let shim = binaries().shim.display().to_string();
    settings["hooks"] = json!({"PreToolUse": [{"matcher": "", "hooks": [
        {"type": "command", "command": format!("'{shim}'"), "timeout": 1000}
    ]}]});
    std::fs::write(&path, settings.to_string()).expect("write Qwen's settings");
}

/// The agent gives up on the hook after its own 1 s timeout and runs the
/// tool; the subscriber's deny comes 4 s later and never reaches it. The
/// log keeps the deny, says it was not delivered, and `gateway audit
/// --decision deny` marks it (`--delivered` leaves it out).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deny_the_agent_never_got_is_marked_not_delivered() {
    let policy = slow(
        Duration::from_secs(4),
        hookgate_integration_tests::decisions::deny("HG-TOO-LATE"),
    )
    .await;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = audited(
        &[SubscriberEntry::decide("slow", &policy.endpoint()).timeout_ms(10_000)],
        &audit,
    )
    .await;
    let run = run(Dialect::QwenCode).installed_hooks(short_hook_timeout);
    let marker = run.work().join("ran-marker");
    let outcome = run
        .script(Script::shell_then_text(&touch(&marker), "Done."))
        .socket(gateway.socket())
        .run()
        .await;

    assert!(
        marker.exists(),
        "Qwen ran the tool when its hook timed out\n{outcome}"
    );
    let records = pre_tool_records(&audit).await;
    assert_eq!(records.len(), 1, "{records:#?}");
    assert_eq!(records[0]["decision"]["permission"], "deny");
    assert_eq!(records[0]["delivery"], "gone", "{}", records[0]);

    let path = audit.display().to_string();
    let (_, table, _) = run_gateway(&["audit", "--path", &path, "--decision", "deny"]).await;
    assert_eq!(table.lines().count(), 1, "{table}");
    assert!(
        table.contains("NOT DELIVERED") && table.contains("HG-TOO-LATE"),
        "{table}"
    );
    let (_, refused, _) = run_gateway(&[
        "audit",
        "--path",
        &path,
        "--decision",
        "deny",
        "--delivered",
    ])
    .await;
    assert_eq!(refused.trim(), "", "the agent refused nothing: {refused}");
}
