//! A large tool output reaches subscribers once (issue #25, item 5): a
//! 3 MB Gemini CLI output, which Gemini itself sends twice
//! (`llmContent`, `returnDisplay`), used to reach a subscriber three times
//! over and break one with gRPC's default 4 MiB limit, while the audit log
//! said it answered "none". Now it arrives, its text once (in
//! `tool.output`, `raw_json` holding markers), and a call that still fails
//! is logged as failed, not as an answer.

use std::path::Path;

use hookgate_integration_tests::{SubscriberEntry, TestSubscriber, decisions, payloads};
use serde_json::{Value, json};

use crate::decision_log::{logged_within, subscriber};
use hookgate_integration_tests::TestGateway;

use crate::support::EVENTUALLY;

/// How long the audit writer may take to mask and write a record of
/// several megabytes (a bound, not a measurement).
const MASKING: std::time::Duration = std::time::Duration::from_secs(60);

/// Gemini CLI's AfterTool with `output` as the command's output, shaped as
/// Gemini sends it: once for the model, once for display.
fn gemini_after_tool(output: &str) -> String {
    let mut payload: Value =
        serde_json::from_str(&payloads::fixture("gemini-cli", "AfterTool.json")).expect("JSON");
    payload["tool_response"] = json!({
        "llmContent": format!("<untrusted_context>\nOutput: {output}\n</untrusted_context>"),
        "returnDisplay": output,
    });
    payload.to_string()
}

fn config(policy: &str, audit: &Path) -> String {
    format!(
        "{}\n[[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n",
        hookgate_integration_tests::config_toml(&[
            SubscriberEntry::decide("policy", policy).timeout_ms(10_000)
        ]),
        Value::String(audit.display().to_string())
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_output_reaches_a_default_limit_subscriber_once() {
    // tonic's default decoding limit: 4 MiB.
    let policy = TestSubscriber::fixed(decisions::context("seen")).await;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start(&config(&policy.endpoint(), &audit)).await;
    let output: String = std::iter::repeat_n("0123456789abcdef\n", 3 << 20 >> 4).collect();
    let payload = gemini_after_tool(&output);
    assert!(
        payload.len() > 6 << 20,
        "Gemini's own payload holds it twice"
    );

    let out = gateway.shim(Some("gemini-cli")).run(&payload).await;
    assert_eq!(out.code, Some(0), "{out}");
    assert!(
        out.stdout_str().contains("seen"),
        "the subscriber answered: {out}"
    );
    let events = policy.wait_for(1, EVENTUALLY).await;
    let tool = events[0].tool.clone().expect("a tool");
    assert!(tool.output.as_deref().unwrap_or_default().contains(&output));
    assert_eq!(tool.elided_from_raw_json, 2);
    let raw: Value = serde_json::from_str(&events[0].raw_json).expect("raw_json is JSON");
    for key in ["llmContent", "returnDisplay"] {
        let marker = raw["tool_response"][key].as_str().unwrap_or_default();
        assert!(
            marker.contains("the same text is in tool.output"),
            "{key}: {marker:.200}"
        );
    }
    assert_eq!(
        raw["tool_input"],
        serde_json::from_str::<Value>(&payload).unwrap()["tool_input"]
    );

    // Masking megabytes takes the audit writer a while on a loaded machine.
    let lines = logged_within(&audit, 1, MASKING).await;
    let policy = subscriber(&lines[0], "policy");
    assert_eq!(policy["name"], "policy", "{}", lines[0]["subscribers"]);
    assert_eq!(policy.get("failed"), None, "{}", lines[0]["subscribers"]);
}

/// Text the event carries nowhere else stays, so a 5 MB prompt still
/// breaks a 4 MiB subscriber: the log says the call failed (and what its
/// `on_error` made of it), never that it answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_fails_is_logged_as_failed() {
    let policy = TestSubscriber::fixed(decisions::context("seen")).await;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start(&config(&policy.endpoint(), &audit)).await;
    let mut payload: Value =
        serde_json::from_str(&payloads::fixture("claude-code", "UserPromptSubmit.json"))
            .expect("JSON");
    payload["prompt"] = json!("p".repeat(5 << 20));
    let out = gateway
        .shim(Some("claude-code"))
        .run(payload.to_string())
        .await;
    assert_eq!(out.code, Some(0), "on_error = allow: {out}");
    let lines = logged_within(&audit, 1, MASKING).await;
    let sub = subscriber(&lines[0], "policy");
    assert_eq!(sub["permission"], "none", "{sub}");
    assert!(
        sub["failed"].as_str().is_some_and(|f| !f.is_empty()),
        "{sub}"
    );
}
