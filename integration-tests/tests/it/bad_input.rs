//! Payloads the gateway cannot understand get the agent's neutral reply;
//! no subscriber is asked, nothing blocks.

use hookgate_integration_tests::{SubscriberEntry, TestSubscriber, decisions};

use crate::support::{cline_json, gateway};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unparseable_payloads_get_the_neutral_reply() {
    let subscriber = TestSubscriber::fixed(decisions::deny("must never be asked")).await;
    let gateway = gateway(&[SubscriberEntry::decide("strict", &subscriber.endpoint())]).await;
    let garbage: [&[u8]; 4] = [
        b"this is not json",
        b"",
        b"[1, 2, 3]",
        b"{\"hook_event_name\": \"PreToolUse\", \"tool_input\": ",
    ];
    for payload in garbage {
        let shown = String::from_utf8_lossy(payload);

        let out = gateway.shim(Some("claude-code")).run(payload).await;
        assert_eq!(out.code, Some(0), "claude-code, {shown:?}: {out}");
        assert!(out.stdout.is_empty(), "claude-code, {shown:?}: {out}");

        let out = gateway.shim(Some("cursor")).run(payload).await;
        assert_eq!(out.code, Some(0), "cursor, {shown:?}: {out}");
        if !out.stdout.is_empty() {
            assert_eq!(
                out.json(),
                serde_json::json!({}),
                "cursor, {shown:?}: {out}"
            );
        }

        let out = gateway.shim(Some("cline")).run(payload).await;
        let json = cline_json(&out);
        assert_ne!(
            json.get("cancel"),
            Some(&serde_json::json!(true)),
            "cline, {shown:?}: {out}"
        );
    }
    assert_eq!(
        subscriber.count(),
        0,
        "nothing parseable reached the subscriber"
    );
}
