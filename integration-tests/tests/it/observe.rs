//! Observe subscribers get every event but are never awaited.

use hookgate_integration_tests::{SubscriberEntry, TestSubscriber, decisions};

use crate::support::{Dialect, EVENTUALLY, UnderTest, assert_claude_deny, gateway};

/// The observe subscriber's deadline: far beyond the shim's own total
/// deadline (`TEST_SHIM_TIMEOUT_MS`, 20 s). Were the gateway to await the
/// blocking observer, the shim would give up first and answer its neutral
/// fail-open reply, not the deny asserted below.
const OBSERVE_TIMEOUT_MS: u64 = 60_000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn observers_do_not_delay_the_reply() {
    let blocked = TestSubscriber::hanging().await;
    let watcher = TestSubscriber::fixed(decisions::deny("observers cannot decide")).await;
    let decider = TestSubscriber::fixed(decisions::deny("decided")).await;
    let gateway = gateway(&[
        SubscriberEntry::observe("blocked", &blocked.endpoint()).timeout_ms(OBSERVE_TIMEOUT_MS),
        SubscriberEntry::observe("watcher", &watcher.endpoint()).timeout_ms(OBSERVE_TIMEOUT_MS),
        SubscriberEntry::decide("decider", &decider.endpoint()),
    ])
    .await;

    let mut payloads = Vec::new();
    for i in 0..3 {
        let payload = Dialect::ClaudeCode.shell_payload(&format!("echo observed-{i}"));
        let out = gateway.shim(Some("claude-code")).run(&payload).await;
        assert_claude_deny(&out, "PreToolUse", "decided");
        assert!(
            !out.stdout_str().contains("observers cannot decide")
                && !out.stderr_str().contains("observers cannot decide"),
            "an observer's decision must be ignored: {out}"
        );
        payloads.push(payload);
    }

    let seen = watcher.wait_for(3, EVENTUALLY).await;
    let mut raw: Vec<String> = seen.iter().map(|e| e.raw_json.clone()).collect();
    raw.sort();
    payloads.sort();
    assert_eq!(raw, payloads, "the observer saw every event, as sent");
    // The blocked observer received the first event and is still stuck in
    // it; whether later events queue or are dropped (and counted) is the
    // gateway's bounded-queue policy, not asserted here.
    blocked.wait_for(1, EVENTUALLY).await;
}
