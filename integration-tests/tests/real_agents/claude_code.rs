//! Claude Code 2.1 (`claude -p`) with `gateway-shim claude-code` as the
//! command hook of every event.

use hookgate_integration_tests::agents::Agent;
use hookgate_integration_tests::fake_model::Script;
use hookgate_integration_tests::{SubscriberEntry, TestSubscriber, decisions};
use hookgate_proto::v1::EventKind;
use serde_json::json;

use crate::support::{
    dead_socket, eventually, fallback_reasons, gateway, of_kind, run, the_shell_call, touch,
};

const DENY_REASON: &str = "HG-CLAUDE-DENY: policy forbids touching this file";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_does_not_run_and_the_model_reads_why() {
    let run = run(Agent::ClaudeCode);
    let marker = run.work().join("denied-marker");
    let command = touch(&marker);
    let policy = TestSubscriber::respond(|event| match event.kind() {
        EventKind::PreToolUse => decisions::deny(DENY_REASON),
        _ => decisions::neutral(),
    })
    .await;
    let gateway = gateway(&[SubscriberEntry::decide("policy", &policy.endpoint())]).await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Understood."))
        .run()
        .await;

    assert!(!marker.exists(), "the denied command ran\n{outcome}");
    the_shell_call(&policy.events(), &command);
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "a tool turn and a final turn\n{outcome}");
    let results = calls[1].anthropic_tool_results();
    assert_eq!(results.len(), 1, "{results:?}\n{outcome}");
    assert!(
        results[0].is_error && results[0].content.contains(DENY_REASON),
        "the model must read the deny reason as the tool's error: {results:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_command_runs_and_observers_see_its_output() {
    let run = run(Agent::ClaudeCode);
    let marker = run.work().join("allowed-marker");
    let output = "HG-CLAUDE-OUTPUT-41";
    let command = format!("{} && echo {output}", touch(&marker));
    let policy = TestSubscriber::respond(|event| match event.kind() {
        EventKind::PreToolUse => decisions::allow(),
        _ => decisions::neutral(),
    })
    .await;
    let observer = TestSubscriber::fixed(decisions::deny("observers cannot decide")).await;
    let gateway = gateway(&[
        SubscriberEntry::decide("policy", &policy.endpoint()),
        SubscriberEntry::observe("audit", &observer.endpoint()),
    ])
    .await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(
        marker.exists(),
        "the allowed command did not run\n{outcome}"
    );
    the_shell_call(&policy.events(), &command);
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "{outcome}");
    let results = calls[1].anthropic_tool_results();
    assert!(
        results.len() == 1 && !results[0].is_error && results[0].content.contains(output),
        "{results:?}\n{outcome}"
    );
    let post = eventually(&observer, "post-tool-use with the output", |e| {
        e.kind() == EventKind::PostToolUse
            && e.tool
                .as_ref()
                .and_then(|t| t.output.as_deref())
                .is_some_and(|o| o.contains(output))
    })
    .await;
    let tool = post.tool.expect("post-tool-use has a tool");
    assert_eq!(tool.command.as_deref(), Some(command.as_str()), "{tool:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_from_subscribers_reaches_the_model() {
    const AT_SESSION_START: &str = "HG-CLAUDE-CONTEXT-SESSION-START";
    const AT_PROMPT: &str = "HG-CLAUDE-CONTEXT-PROMPT";
    const AFTER_TOOL: &str = "HG-CLAUDE-CONTEXT-POST-TOOL";
    let run = run(Agent::ClaudeCode);
    let marker = run.work().join("context-marker");
    let command = touch(&marker);
    let policy = TestSubscriber::respond(|event| match event.kind() {
        EventKind::SessionStart => decisions::context(AT_SESSION_START),
        EventKind::PromptSubmit => decisions::context(AT_PROMPT),
        EventKind::PostToolUse => decisions::context(AFTER_TOOL),
        _ => decisions::neutral(),
    })
    .await;
    let gateway = gateway(&[SubscriberEntry::decide("policy", &policy.endpoint())]).await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(marker.exists(), "{outcome}");
    let events = policy.events();
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
    let original = run.work().join("original-marker");
    let rewritten = run.work().join("rewritten-marker");
    let command = touch(&original);
    let replacement = touch(&rewritten);
    let input = json!({"command": replacement, "description": "rewritten by policy"});
    let policy = TestSubscriber::respond(move |event| match event.kind() {
        EventKind::PreToolUse => decisions::rewrite(&input),
        _ => decisions::neutral(),
    })
    .await;
    let gateway = gateway(&[SubscriberEntry::decide("policy", &policy.endpoint())]).await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(
        rewritten.exists(),
        "the rewritten command did not run\n{outcome}"
    );
    assert!(!original.exists(), "the original command ran\n{outcome}");
    the_shell_call(&policy.events(), &command);
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "{outcome}");
    let results = calls[1].anthropic_tool_results();
    assert!(results.len() == 1 && !results[0].is_error, "{results:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_the_agent_proceeds_by_default() {
    let run = run(Agent::ClaudeCode);
    let marker = run.work().join("fail-open-marker");
    let command = touch(&marker);
    let socket = dead_socket(&run);

    let outcome = run
        .socket(&socket)
        .hooks(&["PreToolUse"])
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(
        marker.exists(),
        "fail-open must let the command run\n{outcome}"
    );
    assert_eq!(
        fallback_reasons(&socket),
        ["unreachable"],
        "the shim ran once and found no gateway\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_gateway_down_fail_closed_blocks_the_command() {
    let run = run(Agent::ClaudeCode);
    let marker = run.work().join("fail-closed-marker");
    let command = touch(&marker);
    let socket = dead_socket(&run);

    let outcome = run
        .socket(&socket)
        .env("HOOKGATE_FAIL", "closed")
        .hooks(&["PreToolUse"])
        .script(Script::shell_then_text(&command, "Done."))
        .run()
        .await;

    assert!(
        !marker.exists(),
        "fail-closed must block the command\n{outcome}"
    );
    assert_eq!(fallback_reasons(&socket), ["unreachable"], "{outcome}");
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "{outcome}");
    let results = calls[1].anthropic_tool_results();
    assert!(
        results.len() == 1 && results[0].is_error,
        "the model is told the tool was blocked: {results:?}"
    );
}
