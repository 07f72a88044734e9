//! The Cline CLI 3.0 (`cline --json`) with `.clinerules/hooks/<Event>`
//! wrapper scripts running `gateway-shim cline`.
//!
//! What Cline does with a blocking reply differs from Claude Code: a
//! `cancel` aborts the whole task (no further model request, the reason
//! reaches neither the model nor stdout; `run_result.finishReason` is
//! `"aborted"`), so a deny is asserted as exactly that.

use hookgate_integration_tests::agents::{Agent, AgentOutcome};
use hookgate_integration_tests::fake_model::Script;
use hookgate_integration_tests::{SubscriberEntry, TestSubscriber, decisions};
use hookgate_proto::v1::EventKind;
use serde_json::{Value, json};

use crate::support::{
    dead_socket, eventually, fallback_reasons, gateway, of_kind, run, the_shell_call, touch,
};

/// `run_result.finishReason` of the `--json` output.
fn finish_reason(outcome: &AgentOutcome) -> String {
    outcome
        .stdout_json()
        .iter()
        .rev()
        .find(|line| line.get("type").and_then(Value::as_str) == Some("run_result"))
        .and_then(|line| line.get("finishReason").and_then(Value::as_str))
        .unwrap_or_default()
        .to_owned()
}

/// The task was aborted at the tool call: one model request, no second.
fn assert_aborted_at_the_tool(outcome: &AgentOutcome) {
    assert_eq!(
        outcome.model_calls().len(),
        1,
        "a cancel ends the task before any further model request\n{outcome}"
    );
    assert_eq!(finish_reason(outcome), "aborted", "{outcome}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_task_is_aborted() {
    let run = run(Agent::Cline);
    let marker = run.work().join("denied-marker");
    let command = touch(&marker);
    let policy = TestSubscriber::respond(|event| match event.kind() {
        EventKind::PreToolUse => decisions::deny("HG-CLINE-DENY: policy forbids this"),
        _ => decisions::neutral(),
    })
    .await;
    let gateway = gateway(&[SubscriberEntry::decide("policy", &policy.endpoint())]).await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Understood."))
        .run()
        .await;

    assert!(!marker.exists(), "the denied command ran\n{outcome}");
    the_shell_call(&policy.events(), &command);
    assert_aborted_at_the_tool(&outcome);
    assert!(
        of_kind(&policy.events(), EventKind::PostToolUse).is_empty(),
        "no tool ran, so no post-tool event"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_observers_see_its_output() {
    let run = run(Agent::Cline);
    let marker = run.work().join("allowed-marker");
    let output = "HG-CLINE-OUTPUT-73";
    let command = format!("{} && echo {output}", touch(&marker));
    let policy = TestSubscriber::respond(|event| match event.kind() {
        EventKind::PreToolUse => decisions::allow(),
        _ => decisions::neutral(),
    })
    .await;
    let observer = TestSubscriber::fixed(decisions::deny("observers cannot decide")).await;
    let gateway = gateway(&[
        SubscriberEntry::decide("policy", &policy.endpoint()),
        SubscriberEntry::observe("audit", &observer.endpoint()),
    ])
    .await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(
        marker.exists(),
        "the allowed command did not run\n{outcome}"
    );
    the_shell_call(&policy.events(), &command);
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "{outcome}");
    assert_eq!(finish_reason(&outcome), "completed", "{outcome}");
    let results = calls[1].openai_tool_messages();
    assert!(
        results.len() == 1 && results[0].contains(output),
        "{results:?}\n{outcome}"
    );
    let post = eventually(&observer, "post-tool-use with the output", |e| {
        e.kind() == EventKind::PostToolUse
            && e.tool
                .as_ref()
                .and_then(|t| t.output.as_deref())
                .is_some_and(|o| o.contains(output))
    })
    .await;
    let tool = post.tool.expect("post-tool-use has a tool");
    assert_eq!(tool.command.as_deref(), Some(command.as_str()), "{tool:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    const BEFORE_TOOL: &str = "HG-CLINE-CONTEXT-PRE-TOOL";
    const AFTER_TOOL: &str = "HG-CLINE-CONTEXT-POST-TOOL";
    let run = run(Agent::Cline);
    let marker = run.work().join("context-marker");
    let command = touch(&marker);
    let policy = TestSubscriber::respond(|event| match event.kind() {
        EventKind::PreToolUse => decisions::context(BEFORE_TOOL),
        EventKind::PostToolUse => decisions::context(AFTER_TOOL),
        _ => decisions::neutral(),
    })
    .await;
    let gateway = gateway(&[SubscriberEntry::decide("policy", &policy.endpoint())]).await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(marker.exists(), "{outcome}");
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "{outcome}");
    for context in [BEFORE_TOOL, AFTER_TOOL] {
        assert!(
            !calls[0].mentions(context) && calls[1].mentions(context),
            "{context} belongs to the request after the tool\n{outcome}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_command_is_the_one_that_runs() {
    let run = run(Agent::Cline);
    let original = run.work().join("original-marker");
    let rewritten = run.work().join("rewritten-marker");
    let command = touch(&original);
    let input = json!({"commands": [touch(&rewritten)]});
    let policy = TestSubscriber::respond(move |event| match event.kind() {
        EventKind::PreToolUse => decisions::rewrite(&input),
        _ => decisions::neutral(),
    })
    .await;
    let gateway = gateway(&[SubscriberEntry::decide("policy", &policy.endpoint())]).await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(
        rewritten.exists(),
        "the rewritten command did not run\n{outcome}"
    );
    assert!(!original.exists(), "the original command ran\n{outcome}");
    the_shell_call(&policy.events(), &command);
    assert_eq!(outcome.model_calls().len(), 2, "{outcome}");
    assert_eq!(finish_reason(&outcome), "completed", "{outcome}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    let run = run(Agent::Cline);
    let marker = run.work().join("fail-open-marker");
    let command = touch(&marker);
    let socket = dead_socket(&run);

    let outcome = run
        .socket(&socket)
        .hooks(&["PreToolUse"])
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(
        marker.exists(),
        "fail-open must let the command run\n{outcome}"
    );
    assert_eq!(outcome.model_calls().len(), 2, "{outcome}");
    assert_eq!(
        fallback_reasons(&socket),
        ["unreachable"],
        "the shim ran once and found no gateway\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    let run = run(Agent::Cline);
    let marker = run.work().join("fail-closed-marker");
    let command = touch(&marker);
    let socket = dead_socket(&run);

    let outcome = run
        .socket(&socket)
        .env("HOOKGATE_FAIL", "closed")
        .hooks(&["PreToolUse"])
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(
        !marker.exists(),
        "fail-closed must block the command\n{outcome}"
    );
    assert_eq!(fallback_reasons(&socket), ["unreachable"], "{outcome}");
    assert_aborted_at_the_tool(&outcome);
}
