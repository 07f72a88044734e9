//! Gemini CLI 0.61.0 (`gemini -p`, the Gemini API) with `gateway-shim` —
//! no agent argument — as the command hook of every event in
//! `~/.gemini/settings.json`. The gateway must tell Gemini from Claude
//! Code and Qwen Code (which also sends `timestamp`) by itself, and answer
//! in Gemini's own reply format: Gemini ignores Claude Code's
//! `permissionDecision`.
//!
//! Gemini keeps going after a blocked tool call: the block reaches the
//! model as the `functionResponse` of the next request.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::decisions;
use hookgate_integration_tests::fake_model::RecordedRequest;
use hookgate_proto::v1::{Decision, EventKind};

use crate::flows::Conformance;
use crate::scenario::{Gated, Marker, only_on};
use crate::support::run;

/// Gemini's tool results are `functionResponse` parts.
const GEMINI: Conformance = Conformance {
    agent: Dialect::GeminiCli,
    tool_texts: RecordedRequest::gemini_function_responses,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    GEMINI
        .deny_blocks_and_the_model_reads_why("HG-GEMINI-DENY: policy forbids touching this file")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_the_model_reads_its_output() {
    GEMINI
        .allow_runs_and_the_model_reads_the_output("HG-GEMINI-OUTPUT-41")
        .await;
}

/// Gemini delivers context from SessionStart and BeforeAgent (in the first
/// request's user turn) and AfterTool (appended to the tool's output).
/// BeforeTool's context is ignored (a loss, not tested here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    GEMINI.context_reaches_the_model("HG-GEMINI").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    GEMINI.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    GEMINI.gateway_down_fails_closed().await;
}

/// Gemini merges `tool_input` into the original input: the new `command` wins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_command_runs_instead_of_the_original() {
    GEMINI.rewrite_runs_the_new_command().await;
}

/// AfterAgent `decision: "block"`: the reason is sent as a new user turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followup_at_the_stop_continues_the_loop() {
    GEMINI
        .followup_continues_the_loop("HG-GEMINI-FOLLOWUP: run the linter too")
        .await;
}

/// Nobody can answer an ask headless: it blocks like a deny.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ask_blocks_the_command_headless() {
    GEMINI
        .ask_blocks_headless("HG-GEMINI-ASK: a human must approve this")
        .await;
}

/// BeforeTool `continue: false`: the tool does not run and the run ends
/// there, with no model request after the tool call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_halt_before_the_tool_ends_the_run() {
    let run = run(Dialect::GeminiCli);
    let marker = Marker::in_work(&run, "halted-marker");
    let halt = Decision {
        halt: true,
        reason: "HG-GEMINI-HALT: stop everything".to_owned(),
        ..decisions::neutral()
    };
    let gated = Gated::deciding(only_on(EventKind::PreToolUse, halt)).await;

    let outcome = gated.shell_then_text(run, &marker.touch(), "Done.").await;

    marker.assert_not_ran(&outcome, "the halted command ran");
    assert_eq!(
        outcome.model_calls().len(),
        1,
        "the run ended at the halt\n{outcome}"
    );
    gated.assert_status_names(GEMINI.agent).await;
}
