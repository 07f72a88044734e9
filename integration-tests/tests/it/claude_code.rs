//! Claude Code, `PreToolUse` of `Bash`: deny, allow, context and input
//! rewrite arrive in Claude Code's exact format, and the subscriber gets
//! the canonical event.

use hookgate_integration_tests::{decisions, payloads};
use hookgate_proto::v1 as pb;
use serde_json::{Value, json};

use crate::support::{
    Dialect, answer, assert_claude_deny, assert_claude_reply, claude_specific, str_at,
};

fn payload() -> String {
    payloads::fixture("claude-code", "PreToolUse.json")
}

/// What the subscriber received is the sample, in canonical form.
fn assert_canonical(event: &pb::HookEvent, payload: &str) {
    assert_eq!(event.agent(), pb::Agent::ClaudeCode);
    assert_eq!(event.dialect(), pb::Dialect::ClaudeCode);
    assert_eq!(event.native_event, "PreToolUse");
    assert_eq!(event.kind(), pb::EventKind::PreToolUse);
    assert!(event.blocking);
    assert!(!event.id.is_empty(), "the gateway gives every event an id");
    assert_eq!(event.raw_json, payload);
    assert_eq!(
        event.session_id.as_deref(),
        Some("3f1c2b7e-8d4a-4b0e-9c61-2a7f5e9d1c44")
    );
    assert_eq!(event.cwd.as_deref(), Some("/home/dev/acme-api"));
    let caps = event.capabilities.expect("capabilities");
    assert!(caps.deny && caps.context && caps.input_rewrite, "{caps:?}");
    let tool = event.tool.as_ref().expect("a tool event has its tool");
    assert_eq!(tool.name, "Bash");
    assert_eq!(tool.class(), pb::ToolClass::Shell);
    assert_eq!(tool.command.as_deref(), Some("npm test -- --runInBand"));
    assert_eq!(tool.call_id.as_deref(), Some("toolu_01ABC123xyz"));
    let input: Value = serde_json::from_str(&tool.input_json).expect("input_json is JSON");
    assert_eq!(
        input,
        json!({"command": "npm test -- --runInBand", "description": "Run test suite",
               "timeout": 120000, "run_in_background": false})
    );
    // The line as the guard parsed it.
    let shell = event.shell.as_ref().expect("a shell tool's line, parsed");
    assert!(shell.resolved);
    let [npm] = shell.commands.as_slice() else {
        panic!("one command: {shell:?}");
    };
    assert_eq!(npm.name, "npm");
    assert_eq!(npm.args, ["test", "--", "--runInBand"]);
    assert_eq!(npm.operands, ["test", "--runInBand"]);
    assert!(npm.flags.is_empty(), "after `--`, operands: {npm:?}");
    assert_eq!(npm.cwd.as_deref(), Some("/home/dev/acme-api"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deny() {
    let payload = payload();
    let (out, event) = answer(
        Dialect::ClaudeCode,
        &payload,
        decisions::deny("no tests on fridays"),
    )
    .await;
    assert_canonical(&event, &payload);
    assert_claude_deny(&out, "PreToolUse", "no tests on fridays");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allow() {
    let payload = payload();
    let (out, event) = answer(Dialect::ClaudeCode, &payload, decisions::allow()).await;
    assert_canonical(&event, &payload);
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    let specific = claude_specific(&out, &json, "PreToolUse");
    assert_eq!(str_at(specific, "permissionDecision"), "allow", "{out}");
    assert!(specific.get("updatedInput").is_none(), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_injection() {
    let payload = payload();
    let (out, event) = answer(
        Dialect::ClaudeCode,
        &payload,
        decisions::context("Deployment target: staging."),
    )
    .await;
    assert_canonical(&event, &payload);
    // Context alone must not decide the permission.
    let context = Some("Deployment target: staging.");
    assert_claude_reply(&out, "PreToolUse", None, context);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_rewrite() {
    let payload = payload();
    let rewritten = json!({"command": "npm test -- --runInBand --ci", "description": "Run test suite",
                           "timeout": 120000, "run_in_background": false});
    let (out, event) = answer(
        Dialect::ClaudeCode,
        &payload,
        decisions::rewrite(&rewritten),
    )
    .await;
    assert_canonical(&event, &payload);
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    let specific = claude_specific(&out, &json, "PreToolUse");
    assert_eq!(str_at(specific, "permissionDecision"), "allow", "{out}");
    assert_eq!(specific.get("updatedInput"), Some(&rewritten), "{out}");
}

/// Without the shim's agent argument the gateway detects Claude Code from
/// the payload and still answers in its format.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn detected_without_agent_argument() {
    use hookgate_integration_tests::{SubscriberEntry, TestSubscriber};
    let payload = payload();
    let subscriber = TestSubscriber::fixed(decisions::deny("detected")).await;
    let gateway =
        crate::support::gateway(&[SubscriberEntry::decide("p", &subscriber.endpoint())]).await;
    let out = gateway.shim(None).run(&payload).await;
    assert_claude_deny(&out, "PreToolUse", "detected");
    assert_canonical(&subscriber.events()[0], &payload);
}
