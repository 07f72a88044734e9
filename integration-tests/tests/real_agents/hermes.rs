//! Hermes Agent 0.19.0 (`hermes chat -Q -q`, OpenAI chat completions
//! through its `custom` provider) with `gateway-shim` — no agent argument
//! — as the shell hook of each event in `~/.hermes/config.yaml`, consent
//! recorded in its allowlist. The gateway tells Hermes' documents by their
//! snake_case event names and `extra` object.
//!
//! Hermes keeps going after a blocked tool call: the block's reason
//! reaches the model as the tool message of the next request
//! (`{"error": R}`). A run takes about 30 s: the tests run concurrently.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::fake_model::RecordedRequest;
use hookgate_proto::v1::EventKind;

use crate::flows::{Conformance, ContextPoints};

/// Hermes' tool results are `role: "tool"` chat messages.
const HERMES: Conformance = Conformance {
    agent: Dialect::Hermes,
    tool_texts: RecordedRequest::openai_tool_messages,
};

/// Only `pre_llm_call`'s context reaches the model (appended to the
/// user's message, so in every request of the turn); `on_session_start`'s
/// and `post_tool_call`'s are ignored (losses, not tested here).
const HERMES_CONTEXT: ContextPoints = ContextPoints {
    first_request: &[EventKind::PromptSubmit],
    after_tool: &[],
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    HERMES
        .deny_blocks_and_the_model_reads_why("HG-HERMES-DENY: policy forbids touching this file")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_the_model_reads_its_output() {
    HERMES
        .allow_runs_and_the_model_reads_the_output("HG-HERMES-OUTPUT-41")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    HERMES
        .context_reaches_the_model_at("HG-HERMES", &HERMES_CONTEXT)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    HERMES.gateway_down_fails_open().await;
}

/// Hermes ignores exit codes: fail-closed is the shim's block reply on
/// stdout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    HERMES.gateway_down_fails_closed().await;
}

/// The built-in guard (no subscriber) stops a force push, and `gateway
/// status` counts the events under `hermes`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_guard_stops_a_force_push() {
    HERMES.guard_stops_a_force_push().await;
}
