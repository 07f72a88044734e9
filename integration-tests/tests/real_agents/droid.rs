//! Factory Droid 0.225.2 (`droid exec`, Anthropic Messages) with
//! `gateway-shim` — no agent argument — as the command hook of every event
//! in the event-keyed `~/.factory/hooks.json`. The gateway must tell Droid
//! from Claude Code by itself.
//!
//! Droid keeps going after a blocked tool call: the block reaches the model
//! as the tool's result (`Error: <reason>`) in the next request.

use hookgate_integration_tests::agents::Agent;
use hookgate_integration_tests::decisions;
use hookgate_integration_tests::fake_model::RecordedRequest;
use hookgate_proto::v1::EventKind;

use crate::scenario::{Conformance, Gated, Marker, final_turn_tool_texts, only_on};
use crate::support::{of_kind, run, the_shell_call};

const AGENT: &str = "droid";

/// Droid's tool results are Anthropic `tool_result` blocks.
fn tool_result_texts(request: &RecordedRequest) -> Vec<String> {
    let results = request.anthropic_tool_results();
    results.into_iter().map(|result| result.content).collect()
}

const DROID: Conformance = Conformance {
    agent: Agent::Droid,
    agent_name: AGENT,
    tool_texts: tool_result_texts,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    DROID
        .deny_blocks_and_the_model_reads_why("HG-DROID-DENY: policy forbids touching this file")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_observers_see_it() {
    let run = run(Agent::Droid);
    let marker = Marker::in_work(&run, "allowed-marker");
    let command = marker.touch();
    let observed = Gated::deciding_and_observed(
        only_on(EventKind::PreToolUse, decisions::allow()),
        decisions::deny("observers cannot decide"),
    )
    .await;

    let outcome = observed.gated.shell_then_text(run, &command, "Done.").await;

    marker.assert_ran(&outcome, "the allowed command did not run");
    the_shell_call(&observed.gated.policy.events(), &command);
    let results = final_turn_tool_texts(&outcome, DROID.tool_texts);
    assert!(
        results.len() == 1 && !results[0].contains("Error"),
        "{results:?}\n{outcome}"
    );
    // Droid's tool result is a summary ("Command completed successfully").
    observed
        .assert_saw_output(&command, "exited with code 0")
        .await;
    observed.gated.assert_status_names(AGENT).await;
}

/// Droid delivers context from SessionStart (a user message before the
/// prompt) and PostToolUse (a user message after the tool result); its
/// PreToolUse context is not delivered (a loss, not tested here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    const AT_SESSION_START: &str = "HG-DROID-CONTEXT-SESSION-START";
    const AFTER_TOOL: &str = "HG-DROID-CONTEXT-POST-TOOL";
    let run = run(Agent::Droid);
    let marker = Marker::in_work(&run, "context-marker");
    let command = marker.touch();
    let gated = Gated::deciding(|event| match event.kind() {
        EventKind::SessionStart => decisions::context(AT_SESSION_START),
        EventKind::PostToolUse => decisions::context(AFTER_TOOL),
        _ => decisions::neutral(),
    })
    .await;

    let outcome = gated.shell_then_text(run, &command, "Done.").await;

    marker.assert_ran(&outcome, "the command did not run");
    let events = gated.policy.events();
    for kind in [EventKind::SessionStart, EventKind::PostToolUse] {
        assert_eq!(of_kind(&events, kind).len(), 1, "{kind:?} in {events:#?}");
    }
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "{outcome}");
    assert!(
        calls[0].mentions(AT_SESSION_START),
        "the first request lacks the session context\n{outcome}"
    );
    assert!(
        !calls[0].mentions(AFTER_TOOL) && calls[1].mentions(AFTER_TOOL),
        "the post-tool context belongs to the request after the tool\n{outcome}"
    );
    gated.assert_status_names(AGENT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    DROID.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    DROID.gateway_down_fails_closed().await;
}
