//! The Cline CLI 3.0 (`cline --json`) with `.clinerules/hooks/<Event>`
//! wrapper scripts running `gateway-shim cline`.
//!
//! A deny refuses the one call and the task goes on (the reason reaches the
//! model); a halt is Cline's `cancel`, which aborts the whole task (no
//! further model request; `run_result.finishReason` is `"aborted"`).

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::AgentOutcome;
use hookgate_integration_tests::decisions;
use hookgate_integration_tests::fake_model::RecordedRequest;
use hookgate_proto::v1::EventKind;
use serde_json::{Value, json};

use crate::flows::{Conformance, ContextPoints};
use crate::scenario::{Gated, GatewayDown, Marker, ShimFail, only_on};
use crate::support::{run, the_shell_call};

/// Cline's tool results are OpenAI `tool` messages.
const CLINE: Conformance = Conformance {
    agent: Dialect::ClineSdk,
    tool_texts: RecordedRequest::openai_tool_messages,
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

/// The task went on past the tool call and completed: a tool turn and a
/// final turn.
fn assert_completed_after_the_tool(outcome: &AgentOutcome) {
    assert_eq!(
        outcome.model_calls().len(),
        2,
        "a tool turn and a final turn\n{outcome}"
    );
    assert_eq!(finish_reason(outcome), "completed", "{outcome}");
}

/// A deny refuses the one call (`overrideInput: {}` fails Cline's input
/// validation), the model reads why, and the task goes on to completion.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_the_model_reads_why_and_the_task_goes_on() {
    const REASON: &str = "HG-CLINE-DENY: policy forbids this";
    let run = run(Dialect::ClineSdk);
    let marker = Marker::in_work(&run, "denied-marker");
    let command = marker.touch();
    let gated = Gated::deciding(only_on(EventKind::PreToolUse, decisions::deny(REASON))).await;

    let outcome = gated.shell_then_text(run, &command, "Understood.").await;

    marker.assert_not_ran(&outcome, "the denied command ran");
    the_shell_call(&gated.policy.events(), &command);
    assert_completed_after_the_tool(&outcome);
    let next = outcome.model_calls()[1];
    assert!(
        next.mentions(REASON),
        "the model's next request must carry the deny reason\n{outcome}"
    );
}

/// A halt is Cline's `cancel`: the task ends at the tool call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_halt_stops_the_task_at_the_tool() {
    let run = run(Dialect::ClineSdk);
    let marker = Marker::in_work(&run, "halted-marker");
    let command = marker.touch();
    let gated = Gated::deciding(only_on(
        EventKind::PreToolUse,
        decisions::halt("HG-CLINE-HALT"),
    ))
    .await;

    let outcome = gated.shell_then_text(run, &command, "Understood.").await;

    marker.assert_not_ran(&outcome, "the halted command ran");
    assert_aborted_at_the_tool(&outcome);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_observers_see_its_output() {
    let ran = CLINE
        .allow_runs_and_the_model_reads_the_output("HG-CLINE-OUTPUT-73")
        .await;
    assert_completed_after_the_tool(&ran.outcome);
}

/// Cline delivers the context of both tool hooks in the request after
/// the tool.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    let points = ContextPoints {
        first_request: &[],
        after_tool: &[EventKind::PreToolUse, EventKind::PostToolUse],
    };
    CLINE
        .context_reaches_the_model_at("HG-CLINE", &points)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_command_is_the_one_that_runs() {
    let run = run(Dialect::ClineSdk);
    let original = Marker::in_work(&run, "original-marker");
    let rewritten = Marker::in_work(&run, "rewritten-marker");
    let command = original.touch();
    // Cline's execute_command input, as its hook reply shapes it.
    let input = json!({"commands": [rewritten.touch()]});
    let gated = Gated::deciding(only_on(EventKind::PreToolUse, decisions::rewrite(&input))).await;

    let outcome = gated.shell_then_text(run, &command, "Done.").await;

    rewritten.assert_ran(&outcome, "the rewritten command did not run");
    original.assert_not_ran(&outcome, "the original command ran");
    the_shell_call(&gated.policy.events(), &command);
    assert_completed_after_the_tool(&outcome);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    let down = CLINE.gateway_down_fails_open().await;
    assert_eq!(down.outcome.model_calls().len(), 2, "{}", down.outcome);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    let down = GatewayDown::run(Dialect::ClineSdk, "fail-closed-marker", ShimFail::Closed).await;

    down.marker
        .assert_not_ran(&down.outcome, "fail-closed must block the command");
    down.assert_fell_back_once();
    assert_aborted_at_the_tool(&down.outcome);
}
