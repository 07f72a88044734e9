//! Gemini CLI 0.61.0 (`gemini -p`, the Gemini API) with `gateway-shim` —
//! no agent argument — as the command hook of every event in
//! `~/.gemini/settings.json`. The gateway must tell Gemini from Claude
//! Code and Qwen Code (which also sends `timestamp`) by itself, and answer
//! in Gemini's own reply format: Gemini ignores Claude Code's
//! `permissionDecision`.
//!
//! Gemini keeps going after a blocked tool call: the block reaches the
//! model as the `functionResponse` of the next request.

use hookgate_integration_tests::agents::Agent;
use hookgate_integration_tests::decisions;
use hookgate_integration_tests::fake_model::RecordedRequest;
use hookgate_proto::v1::EventKind;

use crate::scenario::{Conformance, Gated, Marker};
use crate::support::{of_kind, run};

const AGENT: &str = "gemini-cli";

/// Gemini's tool results are `functionResponse` parts.
const GEMINI: Conformance = Conformance {
    agent: Agent::GeminiCli,
    agent_name: AGENT,
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
    const AT_SESSION_START: &str = "HG-GEMINI-CONTEXT-SESSION-START";
    const AT_PROMPT: &str = "HG-GEMINI-CONTEXT-PROMPT";
    const AFTER_TOOL: &str = "HG-GEMINI-CONTEXT-AFTER-TOOL";
    let run = run(Agent::GeminiCli);
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
    let results = calls[1].gemini_function_responses();
    assert!(
        !calls[0].mentions(AFTER_TOOL) && results.len() == 1 && results[0].contains(AFTER_TOOL),
        "the after-tool context belongs to the tool's result: {results:?}\n{outcome}"
    );
    gated.assert_status_names(AGENT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    GEMINI.gateway_down_fails_open().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    GEMINI.gateway_down_fails_closed().await;
}
