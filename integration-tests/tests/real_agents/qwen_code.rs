//! Qwen Code 0.24.4 (`qwen -p`, OpenAI chat completions) with
//! `gateway-shim` — no agent argument — as the command hook of every event
//! in `~/.qwen/settings.json`. The gateway must tell Qwen from Claude Code
//! and Gemini CLI by itself.
//!
//! Qwen keeps going after a blocked tool call: the block reaches the model
//! as the tool message of the next request.

use hookgate_integration_tests::agents::Agent;
use hookgate_integration_tests::decisions;
use hookgate_integration_tests::fake_model::RecordedRequest;
use hookgate_proto::v1::EventKind;

use crate::scenario::{Conformance, Gated, Marker};
use crate::support::{of_kind, run};

const AGENT: &str = "qwen-code";

/// Qwen's tool results are `role: "tool"` chat messages.
const QWEN: Conformance = Conformance {
    agent: Agent::QwenCode,
    agent_name: AGENT,
    tool_texts: RecordedRequest::openai_tool_messages,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    QWEN.deny_blocks_and_the_model_reads_why("HG-QWEN-DENY: policy forbids touching this file")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_the_model_reads_its_output() {
    QWEN.allow_runs_and_the_model_reads_the_output("HG-QWEN-OUTPUT-41")
        .await;
}

/// Qwen delivers context from SessionStart and UserPromptSubmit (in the
/// first request) and PostToolUse (appended to the tool result). Its
/// PreToolUse context is dropped in 0.24.4 (a loss, not tested here).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    const AT_SESSION_START: &str = "HG-QWEN-CONTEXT-SESSION-START";
    const AT_PROMPT: &str = "HG-QWEN-CONTEXT-PROMPT";
    const AFTER_TOOL: &str = "HG-QWEN-CONTEXT-POST-TOOL";
    let run = run(Agent::QwenCode);
    let marker = Marker::in_work(&run, "context-marker");
    let command = marker.touch();
    let gated = Gated::deciding(|event| match event.kind() {
        EventKind::SessionStart => decisions::context(AT_SESSION_START),
        // The first UserPromptSubmit carries the prompt; the one Qwen sends
        // again before the tool-result turn has none.
        EventKind::PromptSubmit if event.prompt.is_some() => decisions::context(AT_PROMPT),
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
    let prompts = of_kind(&events, EventKind::PromptSubmit);
    assert!(
        prompts.iter().any(|e| e.prompt.is_some()),
        "the user's prompt reached the subscriber: {prompts:#?}"
    );
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
    gated.assert_status_names(AGENT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    QWEN.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    QWEN.gateway_down_fails_closed().await;
}
