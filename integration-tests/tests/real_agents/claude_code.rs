//! Claude Code 2.1 (`claude -p`) with `gateway-shim claude-code` as the
//! command hook of every event.
//!
//! Claude Code keeps going after a blocked tool call: the block reaches the
//! model as the tool's error result in the next request. The flows are the
//! shared ones ([`Conformance`]); what is Claude's own is checked on what
//! they return: whether the tool result is an error.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::AgentOutcome;
use hookgate_integration_tests::fake_model::AnthropicToolResult;
use hookgate_proto::v1::EventKind;

use crate::flows::{Conformance, anthropic_tool_texts};
use crate::support::{of_kind, the_shell_call};

const CLAUDE: Conformance = Conformance {
    agent: Dialect::ClaudeCode,
    tool_texts: anthropic_tool_texts,
};

/// The tool results the model read in the final turn, after checking there
/// were exactly two turns: the tool turn and the final one.
fn final_turn_tool_results(outcome: &AgentOutcome) -> Vec<AnthropicToolResult> {
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "a tool turn and a final turn\n{outcome}");
    calls[1].anthropic_tool_results()
}

/// The one tool result of the final turn is (or is not) an error.
fn assert_tool_error(outcome: &AgentOutcome, is_error: bool) {
    let results = final_turn_tool_results(outcome);
    assert!(
        results.len() == 1 && results[0].is_error == is_error,
        "the tool's result must be an error: {is_error}; {results:?}\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    let ran = CLAUDE
        .deny_blocks_and_the_model_reads_why("HG-CLAUDE-DENY: policy forbids touching this file")
        .await;
    assert_tool_error(&ran.outcome, true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_observers_see_its_output() {
    let ran = CLAUDE
        .allow_runs_and_the_model_reads_the_output("HG-CLAUDE-OUTPUT-41")
        .await;
    assert_tool_error(&ran.outcome, false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    let ran = CLAUDE.context_reaches_the_model("HG-CLAUDE").await;
    let prompts = of_kind(&ran.events, EventKind::PromptSubmit);
    assert_eq!(prompts.len(), 1, "{prompts:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_command_is_the_one_that_runs() {
    let ran = CLAUDE.rewrite_runs_the_new_command().await;
    the_shell_call(&ran.events, &ran.command);
    assert_tool_error(&ran.outcome, false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    CLAUDE.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    let down = CLAUDE.gateway_down_fails_closed().await;
    assert_tool_error(&down.outcome, true);
}
