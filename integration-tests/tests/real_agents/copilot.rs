//! GitHub Copilot CLI 1.0.102 (`copilot -p`, bring-your-own-key OpenAI
//! chat completions, offline) in both of its config dialects, from a user
//! hook file in `~/.copilot/hooks/`: PascalCase events with `gateway-shim`
//! and no argument (the gateway must tell these Claude-shaped payloads,
//! `timestamp` and all, from Claude Code's and Gemini CLI's), and camelCase
//! events with `gateway-shim copilot <event>` (their payloads name no
//! event). Both must be counted as `copilot`.
//!
//! Copilot keeps going after a blocked tool call: the block reaches the
//! model as the tool message of the next request. Context from
//! sessionStart and the prompt event arrives in the first request, from
//! postToolUse appended to the tool's result — in both dialects from a
//! top-level `additionalContext` (Claude Code's nested one is ignored).

use hookgate_adapters::Dialect;
use hookgate_integration_tests::fake_model::RecordedRequest;

use crate::flows::Conformance;

const PASCAL: Conformance = Conformance {
    agent: Dialect::CopilotPascal,
    tool_texts: RecordedRequest::openai_tool_messages,
};

const CAMEL: Conformance = Conformance {
    agent: Dialect::CopilotCamel,
    tool_texts: RecordedRequest::openai_tool_messages,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pascal_a_denied_command_does_not_run_and_the_model_reads_why() {
    PASCAL
        .deny_blocks_and_the_model_reads_why("HG-COPILOT-DENY: policy forbids touching this file")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pascal_an_allowed_command_runs_and_the_model_reads_its_output() {
    PASCAL
        .allow_runs_and_the_model_reads_the_output("HG-COPILOT-OUTPUT-41")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pascal_context_from_subscribers_reaches_the_model() {
    PASCAL.context_reaches_the_model("HG-COPILOT").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pascal_with_the_gateway_down_the_agent_proceeds_by_default() {
    PASCAL.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pascal_with_the_gateway_down_fail_closed_blocks_the_command() {
    PASCAL.gateway_down_fails_closed().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camel_a_denied_command_does_not_run_and_the_model_reads_why() {
    CAMEL
        .deny_blocks_and_the_model_reads_why("HG-COPILOT-CAMEL-DENY: policy forbids this")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camel_an_allowed_command_runs_and_the_model_reads_its_output() {
    CAMEL
        .allow_runs_and_the_model_reads_the_output("HG-COPILOT-CAMEL-OUTPUT-41")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camel_context_from_subscribers_reaches_the_model() {
    CAMEL.context_reaches_the_model("HG-COPILOT-CAMEL").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camel_with_the_gateway_down_the_agent_proceeds_by_default() {
    CAMEL.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camel_with_the_gateway_down_fail_closed_blocks_the_command() {
    CAMEL.gateway_down_fails_closed().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pascal_a_rewritten_command_runs_instead_of_the_original() {
    PASCAL.rewrite_runs_the_new_command().await;
}

/// agentStop / Stop `decision: "block"`: the reason is submitted as a new
/// user prompt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pascal_a_followup_at_the_stop_continues_the_loop() {
    PASCAL
        .followup_continues_the_loop("HG-COPILOT-PASCAL-FOLLOWUP: run the linter too")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camel_a_rewritten_command_runs_instead_of_the_original() {
    CAMEL.rewrite_runs_the_new_command().await;
}

/// agentStop / Stop `decision: "block"`: the reason is submitted as a new
/// user prompt.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camel_a_followup_at_the_stop_continues_the_loop() {
    CAMEL
        .followup_continues_the_loop("HG-COPILOT-CAMEL-FOLLOWUP: run the linter too")
        .await;
}

/// Nobody can answer an ask in `-p`: it blocks like a deny.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pascal_an_ask_blocks_the_command_headless() {
    PASCAL
        .ask_blocks_headless("HG-COPILOT-PASCAL-ASK: a human must approve this")
        .await;
}

/// Nobody can answer an ask in `-p`: it blocks like a deny.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn camel_an_ask_blocks_the_command_headless() {
    CAMEL
        .ask_blocks_headless("HG-COPILOT-CAMEL-ASK: a human must approve this")
        .await;
}
