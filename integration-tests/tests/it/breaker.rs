//! The circuit breaker through the real binaries: a subscriber killed
//! mid-run is skipped once its breaker opens, and one probe closes it when
//! it is back.

use std::sync::Arc;
use std::time::Duration;

use hookgate_integration_tests::{
    ShimOutput, SubscriberEntry, TestGateway, TestSubscriber, config_toml,
};
use hookgate_proto::v1 as pb;
use serde_json::Value;
use tokio::time::Instant;

use crate::support::{Dialect, UnderTest, assert_claude_deny, total_fallbacks};

const FAILURES: u64 = 3;
const COOLDOWN: Duration = Duration::from_millis(2000);
/// Calls made while the breaker is open.
const WHILE_OPEN: u64 = 20;
/// Covers the moment between the gateway recording a failed probe and the
/// test noting the subscriber is back (an ordering margin, not a speed
/// bound).
const SLACK: Duration = Duration::from_millis(200);

fn deny() -> pb::Decision {
    pb::Decision {
        permission: pb::Permission::Deny as i32,
        reason: "policy says no".into(),
        ..pb::Decision::default()
    }
}

async fn call(gateway: &TestGateway) -> ShimOutput {
    let payload = Dialect::ClaudeCode.shell_payload("echo hi");
    gateway.shim(Some("claude-code")).run(payload).await
}

/// Claude Code's neutral answer: `on_error = "allow"` gave no opinion.
fn assert_neutral(out: &ShimOutput) {
    assert_eq!(out.code, Some(0), "{out}");
    assert!(out.stdout.is_empty(), "{out}");
}

async fn policy(gateway: &TestGateway) -> Value {
    crate::support::subscriber_status(gateway, "policy").await
}

fn n(sub: &Value, key: &str) -> u64 {
    sub[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} in {sub}"))
}

/// Calls that reached the subscriber's port and failed.
fn attempts(sub: &Value) -> u64 {
    sub["errors_by_kind"]["connect"]
        .as_u64()
        .expect("connect errors")
        + n(sub, "timeouts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_subscriber_opens_its_breaker_and_closes_it_when_back() {
    let subscriber = TestSubscriber::fixed(deny()).await;
    let entry = SubscriberEntry::decide("policy", &subscriber.endpoint()).timeout_ms(2000);
    let config = format!(
        "{}breaker_failures = {FAILURES}\nbreaker_cooldown_ms = {}\n",
        config_toml(&[entry]),
        COOLDOWN.as_millis()
    );
    let gateway = TestGateway::start(&config).await;
    for _ in 0..5 {
        assert_claude_deny(&call(&gateway).await, "PreToolUse", "policy says no");
    }
    assert_eq!(policy(&gateway).await["breaker"], "closed");

    // Killed: FAILURES failed calls (each answered by on_error) open it.
    let addr = subscriber.kill().await;
    for _ in 0..FAILURES {
        assert_neutral(&call(&gateway).await);
    }
    let opened = policy(&gateway).await;
    assert_eq!(opened["breaker"], "open", "{opened}");
    assert_eq!(n(&opened, "breaker_opened"), 1, "{opened}");
    assert_eq!(attempts(&opened), FAILURES, "{opened}");

    // Open: answered at once, the subscriber not even connected to, but
    // for at most one probe per cool-down that passed meanwhile.
    let started = Instant::now();
    for _ in 0..WHILE_OPEN {
        assert_neutral(&call(&gateway).await);
    }
    let cooldowns = u64::try_from(started.elapsed().as_millis() / COOLDOWN.as_millis())
        .expect("a small number");
    let open = policy(&gateway).await;
    let probes = attempts(&open) - attempts(&opened);
    assert!(
        probes <= cooldowns,
        "{probes} probes in {cooldowns} cool-downs: {open}"
    );
    assert_eq!(
        n(&open, "breaker_open") - n(&opened, "breaker_open") + probes,
        WHILE_OPEN,
        "every call while open was skipped or a probe: {open}"
    );
    assert_eq!(
        n(&open, "fail_open"),
        FAILURES + WHILE_OPEN,
        "on_error applied to each: {open}"
    );

    // Back: the first call a cool-down later is the probe that closes it.
    let back = TestSubscriber::start_at(addr, Arc::new(|_| Box::pin(async { Ok(deny()) }))).await;
    let is_back = Instant::now();
    let last = loop {
        let started = Instant::now();
        let out = call(&gateway).await;
        if started >= is_back + COOLDOWN + SLACK {
            break out;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_claude_deny(&last, "PreToolUse", "policy says no");
    let closed = policy(&gateway).await;
    assert_eq!(closed["breaker"], "closed", "{closed}");
    assert_eq!(n(&closed, "breaker_closed"), 1, "{closed}");
    assert!(back.count() >= 1, "the probe reached the subscriber");
    let doc = gateway.status_json().await;
    let fallbacks = total_fallbacks(&doc);
    assert_eq!(fallbacks, 0, "the gateway answered every call itself");
}
