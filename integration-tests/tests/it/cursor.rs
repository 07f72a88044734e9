//! Cursor: deny and allow on `beforeShellExecution`, context injection on
//! `postToolUse` (the tool events where Cursor reads `additional_context`)
//! and input rewrite on `preToolUse`, in Cursor's flat snake_case JSON.

use hookgate_integration_tests::{decisions, payloads};
use hookgate_proto::v1 as pb;
use serde_json::json;

use crate::support::{Dialect, answer, str_at};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deny_shell_execution() {
    let payload = payloads::fixture("cursor", "beforeShellExecution.json");
    let (out, event) = answer(
        Dialect::Cursor,
        &payload,
        decisions::deny("force-push is blocked"),
    )
    .await;
    assert_eq!(event.native_event, "beforeShellExecution");
    assert_eq!(event.kind(), pb::EventKind::PreToolUse);
    let tool = event.tool.as_ref().expect("tool");
    assert_eq!(tool.class(), pb::ToolClass::Shell);
    assert_eq!(
        tool.command.as_deref(),
        Some("git push --force origin main")
    );
    assert_eq!(event.agent_version.as_deref(), Some("3.9.16"));
    // Cursor: JSON with exit 0 (exit 2 plus JSON shows the raw JSON).
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    assert_eq!(str_at(&json, "permission"), "deny", "{out}");
    assert!(
        str_at(&json, "user_message").contains("force-push is blocked"),
        "{out}"
    );
    assert!(
        str_at(&json, "agent_message").contains("force-push is blocked"),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow_shell_execution() {
    let payload = payloads::fixture("cursor", "beforeShellExecution.json");
    let (out, _) = answer(Dialect::Cursor, &payload, decisions::allow()).await;
    assert_eq!(out.code, Some(0), "{out}");
    assert_eq!(out.json(), json!({"permission": "allow"}), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_injection_after_tool_use() {
    let payload = payloads::fixture("cursor", "postToolUse.json");
    let (out, event) = answer(
        Dialect::Cursor,
        &payload,
        decisions::context("checkout.ts is owned by payments."),
    )
    .await;
    assert_eq!(event.kind(), pb::EventKind::PostToolUse);
    assert!(event.capabilities.unwrap_or_default().context);
    assert_eq!(out.code, Some(0), "{out}");
    assert_eq!(
        out.json(),
        json!({"additional_context": "checkout.ts is owned by payments."}),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_is_not_sent_where_cursor_ignores_it() {
    let payload = payloads::fixture("cursor", "beforeShellExecution.json");
    let (out, event) = answer(Dialect::Cursor, &payload, decisions::context("ignored")).await;
    assert!(!event.capabilities.unwrap_or_default().context);
    assert_eq!(out.code, Some(0), "{out}");
    assert_eq!(out.json(), json!({}), "neutral reply expected: {out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_rewrite_before_tool_use() {
    let payload = payloads::fixture("cursor", "preToolUse.json");
    let rewritten = json!({"command": "npm test -- checkout --ci", "cwd": "", "timeout": 30000});
    let (out, event) = answer(Dialect::Cursor, &payload, decisions::rewrite(&rewritten)).await;
    assert_eq!(event.native_event, "preToolUse");
    let tool = event.tool.as_ref().expect("tool");
    assert_eq!(tool.name, "Shell");
    assert_eq!(tool.class(), pb::ToolClass::Shell);
    assert_eq!(tool.command.as_deref(), Some("npm test -- checkout"));
    assert_eq!(
        tool.call_id.as_deref(),
        Some("d024a132-85b4-4c79-80f0-6b2e2fffc1fe")
    );
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    assert_eq!(str_at(&json, "permission"), "allow", "{out}");
    assert_eq!(json.get("updated_input"), Some(&rewritten), "{out}");
    assert!(
        json.as_object().is_some_and(|o| o.len() == 2),
        "nothing else: {out}"
    );
}
