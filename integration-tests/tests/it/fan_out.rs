//! The fan-out: decide subscribers are called in parallel, and one that
//! misses its deadline gets its `on_error` policy without holding up the
//! reply.

use std::sync::Arc;
use std::time::Duration;

use hookgate_integration_tests::{OnError, SubscriberEntry, TestSubscriber, decisions};
use hookgate_proto::v1 as pb;
use tokio::sync::Barrier;

use crate::support::{
    Dialect, EVENTUALLY, UnderTest, assert_claude_allow, assert_claude_deny, assert_cline_refusal,
    claude_specific, gateway, str_at,
};

/// How long each rendezvous subscriber waits for the other. If the gateway
/// called them one after the other, the first would wait this long alone
/// and answer "sequential".
const PATIENCE: Duration = Duration::from_secs(8);

/// Two decide subscribers each wait until the other has received the same
/// event. That can only happen if the gateway called both before either
/// answered: no clocks involved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decide_subscribers_are_called_in_parallel() {
    let barrier = Arc::new(Barrier::new(2));
    let sequential = || decisions::deny("fan-out is sequential: the other subscriber never came");
    let first = TestSubscriber::rendezvous(
        barrier.clone(),
        PATIENCE,
        decisions::context("from-first"),
        sequential(),
    )
    .await;
    let second = TestSubscriber::rendezvous(
        barrier,
        PATIENCE,
        decisions::context("from-second"),
        sequential(),
    )
    .await;
    let gateway = gateway(&[
        SubscriberEntry::decide("first", &first.endpoint()).priority(10),
        SubscriberEntry::decide("second", &second.endpoint()).priority(1),
    ])
    .await;
    let payload = Dialect::ClaudeCode.shell_payload("cargo test");
    let out = gateway.shim(Some("claude-code")).run(&payload).await;

    assert_eq!((first.count(), second.count()), (1, 1));
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    let specific = claude_specific(&out, &json, "PreToolUse");
    assert!(
        specific.get("permissionDecision").is_none(),
        "no deny expected: {out}"
    );
    let context = str_at(specific, "additionalContext");
    let (a, b) = (context.find("from-first"), context.find("from-second"));
    assert!(a.is_some() && b.is_some(), "both contexts merged: {out}");
    assert!(a < b, "the higher priority's context comes first: {out}");
}

/// A subscriber that hangs past `timeout_ms` with `on_error = "allow"`:
/// the reply is the other subscriber's decision, and it still comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hung_subscriber_failing_open_leaves_the_others_decision() {
    let hung = TestSubscriber::hanging().await;
    let other = TestSubscriber::fixed(pb::Decision {
        permission: pb::Permission::Allow as i32,
        additional_context: "from-the-other".into(),
        ..pb::Decision::default()
    })
    .await;
    let gateway = gateway(&[
        SubscriberEntry::decide("hung", &hung.endpoint())
            .timeout_ms(200)
            .on_error(OnError::Allow),
        SubscriberEntry::decide("other", &other.endpoint()),
    ])
    .await;
    let payload = Dialect::ClaudeCode.shell_payload("ls");
    let out = gateway.shim(Some("claude-code")).run(&payload).await;

    assert_eq!((hung.count(), other.count()), (1, 1), "both were asked");
    assert_claude_allow(&out, "PreToolUse", "from-the-other");
}

/// The same with `on_error = "deny"`: the hung subscriber's policy denies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hung_subscriber_failing_closed_denies() {
    let hung = TestSubscriber::hanging().await;
    let other = TestSubscriber::fixed(decisions::allow()).await;
    let gateway = gateway(&[
        SubscriberEntry::decide("hung", &hung.endpoint())
            .timeout_ms(200)
            .on_error(OnError::Deny),
        SubscriberEntry::decide("other", &other.endpoint()),
    ])
    .await;

    let out = gateway
        .shim(Some("claude-code"))
        .run(Dialect::ClaudeCode.shell_payload("ls"))
        .await;
    assert_claude_deny(&out, "PreToolUse", "");

    let out = gateway
        .shim(Some("cline"))
        .run(Dialect::ClineSdk.shell_payload("ls"))
        .await;
    // on_error = deny is a deny: the one call is refused, the task goes on.
    assert_cline_refusal(&out, "hookgate: subscriber");
    hung.wait_for(2, EVENTUALLY).await;
}

/// A subscriber that is not even listening (connection refused) is an
/// error like a timeout: its policy applies, nothing hangs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreachable_subscriber_gets_its_policy() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let gateway = gateway(&[
        SubscriberEntry::decide("gone", &format!("http://127.0.0.1:{port}"))
            .timeout_ms(500)
            .on_error(OnError::Deny),
    ])
    .await;
    let out = gateway
        .shim(Some("cursor"))
        .run(Dialect::Cursor.shell_payload("ls"))
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    assert_eq!(str_at(&out.json(), "permission"), "deny", "{out}");
}
