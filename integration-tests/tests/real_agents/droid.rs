//! Factory Droid 0.225.2 (`droid exec`, Anthropic Messages) with
//! `gateway-shim` — no agent argument — as the command hook of every event
//! in the event-keyed `~/.factory/hooks.json`. The gateway must tell Droid
//! from Claude Code by itself.
//!
//! Droid keeps going after a blocked tool call: the block reaches the model
//! as the tool's result (`Error: <reason>`) in the next request.

use hookgate_adapters::Dialect;
use hookgate_proto::v1::EventKind;

use crate::flows::{Conformance, ContextPoints, anthropic_tool_texts, final_turn_tool_texts};

const DROID: Conformance = Conformance {
    agent: Dialect::Droid,
    tool_texts: anthropic_tool_texts,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    DROID
        .deny_blocks_and_the_model_reads_why("HG-DROID-DENY: policy forbids touching this file")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_observers_see_it() {
    // Droid's tool result is a summary ("Command completed successfully").
    let ran = DROID
        .allow_runs_and_is_observed(None, "exited with code 0")
        .await;
    let results = final_turn_tool_texts(&ran.outcome, DROID.tool_texts);
    assert!(
        results.len() == 1 && !results[0].contains("Error"),
        "{results:?}\n{}",
        ran.outcome
    );
}

/// Droid delivers context from SessionStart (a user message before the
/// prompt) and PostToolUse (a user message after the tool result); its
/// PreToolUse context is not delivered (a loss, not tested here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    let points = ContextPoints {
        first_request: &[EventKind::SessionStart],
        after_tool: &[EventKind::PostToolUse],
    };
    DROID
        .context_reaches_the_model_at("HG-DROID", &points)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    DROID.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    DROID.gateway_down_fails_closed().await;
}
