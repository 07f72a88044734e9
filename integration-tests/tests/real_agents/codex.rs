//! Codex 0.171.0 (`codex exec`, the OpenAI Responses API) with
//! `gateway-shim` — no agent argument — as the command hook of every event
//! in `~/.codex/hooks.json`. The gateway must tell Codex from Claude Code
//! by itself and answer from Codex's own strict schemas: a reply Codex
//! rejects counts as no reply, and the tool runs.
//!
//! Codex keeps going after a blocked tool call: the block reaches the
//! model as the `function_call_output` of the next request.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::fake_model::RecordedRequest;

use crate::flows::Conformance;

/// Codex's tool results are `function_call_output` items.
const CODEX: Conformance = Conformance {
    agent: Dialect::Codex,
    tool_texts: RecordedRequest::responses_tool_outputs,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    CODEX
        .deny_blocks_and_the_model_reads_why("HG-CODEX-DENY: policy forbids touching this file")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_the_model_reads_its_output() {
    CODEX
        .allow_runs_and_the_model_reads_the_output("HG-CODEX-OUTPUT-41")
        .await;
}

/// Codex delivers context from SessionStart and UserPromptSubmit (in the
/// first request) and PostToolUse (in the request after the tool), each
/// as a developer message. Stop has no context (a loss, not tested here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    CODEX.context_reaches_the_model("HG-CODEX").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    CODEX.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    CODEX.gateway_down_fails_closed().await;
}

/// Codex applies `updatedInput` only with `permissionDecision: "allow"`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewritten_command_runs_instead_of_the_original() {
    CODEX.rewrite_runs_the_new_command().await;
}

/// Stop `decision: "block"`: the reason comes back as a `<hook_prompt>` user message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_followup_at_the_stop_continues_the_loop() {
    CODEX
        .followup_continues_the_loop("HG-CODEX-FOLLOWUP: run the linter too")
        .await;
}

/// Nobody can answer an ask headless: it blocks like a deny.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ask_blocks_the_command_headless() {
    CODEX
        .ask_blocks_headless("HG-CODEX-ASK: a human must approve this")
        .await;
}
