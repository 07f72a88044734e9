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

/// Fail-closed means closed: a payload nobody can understand is blocked,
/// in the way each agent obeys, and still no subscriber is asked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unparseable_payloads_are_blocked_fail_closed() {
    let subscriber = TestSubscriber::fixed(decisions::allow()).await;
    let gateway = gateway(&[SubscriberEntry::decide("lenient", &subscriber.endpoint())]).await;
    let payload = b"{\"hook_event_name\": \"PreToolUse\", \"tool_input\": ";
    let out = gateway
        .shim(Some("claude-code"))
        .fail_closed()
        .run(payload)
        .await;
    assert_eq!(out.code, Some(2), "claude-code: {out}");
    assert!(out.stderr_str().contains("could not understand"), "{out}");

    let out = gateway
        .shim(Some("cursor"))
        .env("HOOKGATE_FAIL", "closed")
        .run(payload)
        .await;
    assert_eq!(out.code, Some(2), "cursor: {out}");

    let out = gateway.shim(Some("cline")).fail_closed().run(payload).await;
    assert_eq!(
        cline_json(&out).get("cancel"),
        Some(&serde_json::json!(true)),
        "cline: {out}"
    );
    assert_eq!(subscriber.count(), 0);

    let status = gateway.status_json().await;
    assert_eq!(status["unparsed"]["not_json"], 3, "{status}");
    assert_eq!(status["unparsed_replies"]["closed"], 3, "{status}");
}

/// What JavaScript writes and serde_json alone rejects (a lone surrogate
/// escape, which a model controls through any tool argument; a number
/// beyond f64; a BOM; deep nesting) is understood, so the embedded
/// default's guard still denies reading `.env`, fail-open or fail-closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payloads_javascript_writes_are_guarded() {
    let dir = hookgate_integration_tests::private_dir();
    let config = hookgate_integration_tests::default_config(&dir.path().join("audit.jsonl"));
    let gateway = hookgate_integration_tests::TestGateway::start_in(dir, &config, &[]).await;
    let deep = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
    let tails = [
        r#""command":"cat .env \ud800""#.to_owned(),
        r#""command":"cat .env","n":1e400"#.to_owned(),
        format!(r#""command":"cat .env","deep":{deep}"#),
    ];
    for tail in tails {
        let payload = format!(
            r#"{{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{{tail}}}}}"#
        );
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), payload.as_bytes()].concat();
        for bytes in [payload.as_bytes().to_vec(), with_bom] {
            for closed in [false, true] {
                let mut shim = gateway.shim(Some("claude-code"));
                if closed {
                    shim = shim.fail_closed();
                }
                let out = shim.run(&bytes).await;
                let shown = &payload[..payload.len().min(100)];
                let json = out.json();
                assert_eq!(
                    json["hookSpecificOutput"]["permissionDecision"], "deny",
                    "{shown} (closed: {closed}): {out}"
                );
                assert!(
                    out.stdout_str().contains(".env"),
                    "the guard's reason: {out}"
                );
            }
        }
    }
    let status = gateway.status_json().await;
    assert_eq!(status["parse_errors"], 0, "{status}");
}
