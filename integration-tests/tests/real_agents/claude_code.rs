//! Claude Code 2.1 (`claude -p`) with `gateway-shim claude-code` as the
//! command hook of every event.
//!
//! Claude Code keeps going after a blocked tool call: the block reaches the
//! model as the tool's error result in the next request.

use hookgate_integration_tests::agents::{Agent, AgentOutcome};
use hookgate_integration_tests::decisions;
use hookgate_integration_tests::fake_model::AnthropicToolResult;
use hookgate_proto::v1::EventKind;
use serde_json::json;

use crate::scenario::{Gated, GatewayDown, Marker, ShimFail, only_on};
use crate::support::{of_kind, run, the_shell_call};

const DENY_REASON: &str = "HG-CLAUDE-DENY: policy forbids touching this file";

/// The tool results the model read in the final turn, after checking there
/// were exactly two turns: the tool turn and the final one.
fn final_turn_tool_results(outcome: &AgentOutcome) -> Vec<AnthropicToolResult> {
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "a tool turn and a final turn\n{outcome}");
    calls[1].anthropic_tool_results()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    let run = run(Agent::ClaudeCode);
    let marker = Marker::in_work(&run, "denied-marker");
    let command = marker.touch();
    let gated = Gated::deciding(only_on(EventKind::PreToolUse, decisions::deny(DENY_REASON))).await;

    let outcome = gated.shell_then_text(run, &command, "Understood.").await;

    marker.assert_not_ran(&outcome, "the denied command ran");
    the_shell_call(&gated.policy.events(), &command);
    let results = final_turn_tool_results(&outcome);
    assert_eq!(results.len(), 1, "{results:?}\n{outcome}");
    assert!(
        results[0].is_error && results[0].content.contains(DENY_REASON),
        "the model must read the deny reason as the tool's error: {results:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_observers_see_its_output() {
    let run = run(Agent::ClaudeCode);
    let marker = Marker::in_work(&run, "allowed-marker");
    let output = "HG-CLAUDE-OUTPUT-41";
    let command = format!("{} && echo {output}", marker.touch());
    let observed = Gated::deciding_and_observed(
        only_on(EventKind::PreToolUse, decisions::allow()),
        decisions::deny("observers cannot decide"),
    )
    .await;

    let outcome = observed.gated.shell_then_text(run, &command, "Done.").await;

    marker.assert_ran(&outcome, "the allowed command did not run");
    the_shell_call(&observed.gated.policy.events(), &command);
    let results = final_turn_tool_results(&outcome);
    assert!(
        results.len() == 1 && !results[0].is_error && results[0].content.contains(output),
        "{results:?}\n{outcome}"
    );
    observed.assert_saw_output(&command, output).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    const AT_SESSION_START: &str = "HG-CLAUDE-CONTEXT-SESSION-START";
    const AT_PROMPT: &str = "HG-CLAUDE-CONTEXT-PROMPT";
    const AFTER_TOOL: &str = "HG-CLAUDE-CONTEXT-POST-TOOL";
    let run = run(Agent::ClaudeCode);
    let marker = Marker::in_work(&run, "context-marker");
    let command = marker.touch();
    let gated = Gated::deciding(|event| match event.kind() {
        EventKind::SessionStart => decisions::context(AT_SESSION_START),
        EventKind::PromptSubmit => decisions::context(AT_PROMPT),
        EventKind::PostToolUse => decisions::context(AFTER_TOOL),
        _ => decisions::neutral(),
    })
    .await;

    let outcome = gated.shell_then_text(run, &command, "Done.").await;

    marker.assert_ran(&outcome, "the command did not run");
    let events = gated.policy.events();
    for kind in [
        EventKind::SessionStart,
        EventKind::PromptSubmit,
        EventKind::PostToolUse,
    ] {
        assert_eq!(of_kind(&events, kind).len(), 1, "{kind:?} in {events:#?}");
    }
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "{outcome}");
    for context in [AT_SESSION_START, AT_PROMPT] {
        assert!(
            calls[0].mentions(context),
            "the first request lacks {context}\n{outcome}"
        );
    }
    assert!(
        !calls[0].mentions(AFTER_TOOL) && calls[1].mentions(AFTER_TOOL),
        "the post-tool context belongs to the request after the tool\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_command_is_the_one_that_runs() {
    let run = run(Agent::ClaudeCode);
    let original = Marker::in_work(&run, "original-marker");
    let rewritten = Marker::in_work(&run, "rewritten-marker");
    let command = original.touch();
    // Claude Code's Bash tool input.
    let input = json!({"command": rewritten.touch(), "description": "rewritten by policy"});
    let gated = Gated::deciding(only_on(EventKind::PreToolUse, decisions::rewrite(&input))).await;

    let outcome = gated.shell_then_text(run, &command, "Done.").await;

    rewritten.assert_ran(&outcome, "the rewritten command did not run");
    original.assert_not_ran(&outcome, "the original command ran");
    the_shell_call(&gated.policy.events(), &command);
    let results = final_turn_tool_results(&outcome);
    assert!(results.len() == 1 && !results[0].is_error, "{results:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    let down = GatewayDown::run(Agent::ClaudeCode, "fail-open-marker", ShimFail::Default).await;

    down.marker
        .assert_ran(&down.outcome, "fail-open must let the command run");
    down.assert_fell_back_once();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    let down = GatewayDown::run(Agent::ClaudeCode, "fail-closed-marker", ShimFail::Closed).await;

    down.marker
        .assert_not_ran(&down.outcome, "fail-closed must block the command");
    down.assert_fell_back_once();
    let results = final_turn_tool_results(&down.outcome);
    assert!(
        results.len() == 1 && results[0].is_error,
        "the model is told the tool was blocked: {results:?}"
    );
}
