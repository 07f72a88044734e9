//! OpenCode 1.18.33 (`opencode run`, OpenAI chat completions through its
//! `@ai-sdk/openai-compatible` provider) with hookgate's plugin in
//! `~/.config/opencode/plugin/` running `gateway-shim` — no agent
//! argument. The gateway tells OpenCode's documents by their dotted hook
//! names.
//!
//! OpenCode keeps going after a blocked tool call: the plugin's throw
//! reaches the model as the tool message of the next request.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::fake_model::RecordedRequest;

use crate::flows::Conformance;

/// OpenCode's tool results are `role: "tool"` chat messages.
const OPENCODE: Conformance = Conformance {
    agent: Dialect::OpenCode,
    tool_texts: RecordedRequest::openai_tool_messages,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    OPENCODE
        .deny_blocks_and_the_model_reads_why("HG-OPENCODE-DENY: policy forbids touching this file")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_the_model_reads_its_output() {
    OPENCODE
        .allow_runs_and_the_model_reads_the_output("HG-OPENCODE-OUTPUT-41")
        .await;
}

/// The plugin puts session.created's and chat.message's context in the
/// system prompt of every request, and the post-tool context after the
/// tool's result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    OPENCODE.context_reaches_the_model("HG-OPENCODE").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    OPENCODE.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    OPENCODE.gateway_down_fails_closed().await;
}

/// The built-in guard (no subscriber) stops a force push, and `gateway
/// status` counts the events under `opencode`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_guard_stops_a_force_push() {
    OPENCODE.guard_stops_a_force_push().await;
}
