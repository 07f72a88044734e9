//! Shadow mode through the real binaries: a shadow subscriber that denies
//! everything changes no reply, and each of its would-be denies is counted.

use hookgate_integration_tests::{SubscriberEntry, TestSubscriber};
use hookgate_proto::v1 as pb;

use crate::support::{
    Dialect, EVENTUALLY, UnderTest, assert_claude_allow, gateway, total_fallbacks,
};

const CALLS: usize = 40;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denying_shadow_changes_no_reply_and_its_denies_are_counted() {
    let policy = TestSubscriber::fixed(pb::Decision {
        permission: pb::Permission::Allow as i32,
        additional_context: "policy allows".into(),
        ..pb::Decision::default()
    })
    .await;
    let strict = TestSubscriber::fixed(pb::Decision {
        permission: pb::Permission::Deny as i32,
        reason: "strict would deny".into(),
        ..pb::Decision::default()
    })
    .await;
    let gateway = gateway(&[
        SubscriberEntry::decide("policy", &policy.endpoint()),
        SubscriberEntry::shadow("strict", &strict.endpoint()).priority(100),
    ])
    .await;
    for i in 0..CALLS {
        let payload = Dialect::ClaudeCode.shell_payload(&format!("echo {i}"));
        let out = gateway.shim(Some("claude-code")).run(payload).await;
        assert_claude_allow(&out, "PreToolUse", "policy allows");
        assert!(!out.stdout_str().contains("strict"), "{out}");
    }
    // The shadow was asked about every event (off the hook path).
    strict.wait_for(CALLS, EVENTUALLY).await;
    assert_eq!(policy.count(), CALLS);

    // Its verdicts land once its calls finish: poll, then exactly CALLS.
    let until = tokio::time::Instant::now() + EVENTUALLY;
    let sub = loop {
        let doc = gateway.status_json().await;
        assert_eq!(total_fallbacks(&doc), 0);
        let sub = doc["subscribers"]
            .as_array()
            .expect("subscribers")
            .iter()
            .find(|s| s["name"] == "strict")
            .cloned()
            .expect("the shadow subscriber");
        if sub["would"]["deny"] == CALLS || tokio::time::Instant::now() >= until {
            break sub;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    assert_eq!(sub["would"]["deny"], CALLS, "{sub}");
    assert_eq!(sub["would"]["allow"], 0, "{sub}");
    assert_eq!(sub["drops"], 0, "{sub}");
    let doc = gateway.status_json().await;
    let outcomes = &doc["events"][0]["outcomes"];
    assert_eq!(outcomes["allow"], CALLS, "no reply was a deny: {outcomes}");
    assert_eq!(outcomes["deny"], 0, "{outcomes}");
}
