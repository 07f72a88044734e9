//! Cline SDK file hooks, `tool_call` of `run_commands`: deny (refusal),
//! allow, context and `overrideInput`, as the one JSON object the SDK reads
//! from stdout (it ignores exit codes).

use hookgate_integration_tests::{decisions, payloads};
use hookgate_proto::v1 as pb;
use serde_json::json;

use crate::support::{Dialect, answer, assert_cline_refusal, cline_json};

fn payload() -> String {
    payloads::fixture("cline", "tool_call.json")
}

fn assert_canonical(event: &pb::HookEvent) {
    assert_eq!(event.agent(), pb::Agent::Cline);
    assert_eq!(event.dialect(), pb::Dialect::ClineSdk);
    assert_eq!(event.native_event, "tool_call");
    assert_eq!(event.kind(), pb::EventKind::PreToolUse);
    assert!(event.blocking);
    let tool = event.tool.as_ref().expect("tool");
    assert_eq!(tool.name, "run_commands");
    assert_eq!(tool.class(), pb::ToolClass::Shell);
    assert_eq!(tool.command.as_deref(), Some("npm test"));
    assert_eq!(tool.call_id.as_deref(), Some("call_7f3a9b"));
    assert_eq!(event.workspace_roots, vec!["/home/dev/acme-api".to_owned()]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deny() {
    let (out, event) = answer(
        Dialect::ClineSdk,
        &payload(),
        decisions::deny("no npm here"),
    )
    .await;
    assert_canonical(&event);
    assert_cline_refusal(&out, "no npm here");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow() {
    let (out, event) = answer(Dialect::ClineSdk, &payload(), decisions::allow()).await;
    assert_canonical(&event);
    // The SDK has no explicit allow: an empty control object.
    assert_eq!(cline_json(&out), json!({}), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_injection() {
    let (out, event) = answer(
        Dialect::ClineSdk,
        &payload(),
        decisions::context("Current branch: feat/validation"),
    )
    .await;
    assert_canonical(&event);
    assert_eq!(
        cline_json(&out),
        json!({"context": "Current branch: feat/validation"}),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_rewrite() {
    let rewritten = json!({"commands": ["npm test -- --ci"]});
    let (out, event) = answer(
        Dialect::ClineSdk,
        &payload(),
        decisions::rewrite(&rewritten),
    )
    .await;
    assert_canonical(&event);
    assert_eq!(
        cline_json(&out),
        json!({"overrideInput": rewritten}),
        "{out}"
    );
}
