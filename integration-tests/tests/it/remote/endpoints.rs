//! One subscriber, two endpoints: calls take turns, and when one endpoint
//! is killed mid-run every event still gets the policy's answer (the call
//! fails over inside its deadline); nothing fails, nothing is counted as
//! failed.

use futures_util::future::join_all;
use hookgate_integration_tests::{
    OnError, SubscriberEntry, TestGateway, TestSubscriber, config_toml,
};

use super::{POLICY_SAYS_NO, call, deny, deny_reason, policy};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_endpoint_killed_mid_run_fails_no_event() {
    let a = TestSubscriber::fixed(deny()).await;
    let b = TestSubscriber::fixed(deny()).await;
    let entry = SubscriberEntry::decide("policy", &a.endpoint()).on_error(OnError::Deny);
    let one = format!("endpoint = \"{}\"", a.endpoint());
    let both = format!("endpoint = [\"{}\", \"{}\"]", a.endpoint(), b.endpoint());
    let config = config_toml(&[entry]).replace(&one, &both);
    assert!(config.contains(&both), "{config}");
    let gateway = TestGateway::start(&config).await;

    for _ in 0..6 {
        assert_eq!(deny_reason(&call(&gateway).await), POLICY_SAYS_NO);
    }
    assert!(
        a.count() > 0 && b.count() > 0,
        "both endpoints serve: {} + {}",
        a.count(),
        b.count()
    );
    let before = b.count();
    let b_endpoint = b.endpoint();

    // Killed between two calls of one run, then under concurrent calls.
    let _ = b.kill().await;
    for _ in 0..6 {
        assert_eq!(deny_reason(&call(&gateway).await), POLICY_SAYS_NO);
    }
    let burst = join_all((0..8).map(|_| call(&gateway))).await;
    for out in &burst {
        assert_eq!(deny_reason(out), POLICY_SAYS_NO, "{out}");
    }
    assert_eq!(
        a.count() + before,
        6 + 6 + 8,
        "every event answered by a live endpoint"
    );
    let sub = policy(&gateway).await;
    assert_eq!(sub["fail_closed"], 0, "no event failed: {sub}");
    assert_eq!(sub["errors"], 0, "{sub}");
    assert_eq!(sub["breaker"], "closed", "{sub}");
    // Per endpoint: the killed one handed calls on, the live one none.
    let endpoints = sub["endpoints"].as_array().expect("endpoints");
    let detail: Vec<(&str, bool)> = endpoints
        .iter()
        .map(|e| {
            (
                e["endpoint"].as_str().unwrap_or(""),
                e["failed"].as_u64() > Some(0),
            )
        })
        .collect();
    assert_eq!(
        detail,
        [(a.endpoint().as_str(), false), (b_endpoint.as_str(), true)],
        "{sub}"
    );
}
