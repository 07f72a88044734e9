//! Cline's legacy VS Code hooks, `PreToolUse`: deny (cancel), allow,
//! context (`contextModification`); this format has no input rewrite, so
//! a rewrite is dropped and the tool call goes on unchanged.

use hookgate_integration_tests::{decisions, payloads};
use hookgate_proto::v1 as pb;
use serde_json::json;

use crate::support::{Dialect, answer, assert_cline_cancel, cline_json};

fn payload() -> String {
    payloads::fixture("cline", "legacy.PreToolUse.json")
}

fn assert_canonical(event: &pb::HookEvent) {
    assert_eq!(event.agent(), pb::Agent::Cline);
    assert_eq!(event.dialect(), pb::Dialect::ClineLegacy);
    assert_eq!(event.native_event, "PreToolUse");
    assert_eq!(event.kind(), pb::EventKind::PreToolUse);
    assert!(event.blocking);
    assert!(!event.capabilities.unwrap_or_default().input_rewrite);
    let tool = event.tool.as_ref().expect("tool");
    assert_eq!(tool.name, "write_to_file");
    assert_eq!(tool.class(), pb::ToolClass::FileWrite);
    assert_eq!(tool.file_path.as_deref(), Some("src/validate.js"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deny() {
    let (out, event) = answer(
        Dialect::ClineLegacy,
        &payload(),
        decisions::deny("use .ts files"),
    )
    .await;
    assert_canonical(&event);
    assert_cline_cancel(&out, "use .ts files");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow() {
    let (out, event) = answer(Dialect::ClineLegacy, &payload(), decisions::allow()).await;
    assert_canonical(&event);
    assert_eq!(cline_json(&out), json!({"cancel": false}), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_injection() {
    let (out, event) = answer(
        Dialect::ClineLegacy,
        &payload(),
        decisions::context("WORKSPACE_RULES: Use zod for all request validation"),
    )
    .await;
    assert_canonical(&event);
    let json = cline_json(&out);
    assert_eq!(json.get("cancel"), Some(&json!(false)), "{out}");
    assert_eq!(
        json.get("contextModification"),
        Some(&json!(
            "WORKSPACE_RULES: Use zod for all request validation"
        )),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_rewrite_is_not_supported() {
    let rewritten = json!({"path": "src/validate.ts", "content": "export {}\n"});
    let (out, event) = answer(
        Dialect::ClineLegacy,
        &payload(),
        decisions::rewrite(&rewritten),
    )
    .await;
    assert_canonical(&event);
    // The rewrite is dropped (the gateway counts the loss); the allow stays.
    assert_eq!(cline_json(&out), json!({"cancel": false}), "{out}");
}

/// A legacy shell command is classed as a shell tool with its command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execute_command_is_a_shell_tool() {
    let payload = payloads::cline_legacy_command("git push --force");
    let (out, event) = answer(Dialect::ClineLegacy, &payload, decisions::deny("force")).await;
    let tool = event.tool.as_ref().expect("tool");
    assert_eq!(tool.name, "execute_command");
    assert_eq!(tool.class(), pb::ToolClass::Shell);
    assert_eq!(tool.command.as_deref(), Some("git push --force"));
    assert_cline_cancel(&out, "force");
}
