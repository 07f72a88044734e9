//! Per-subscriber filters (`agents`, `events`, `tools`) decide who is
//! asked; a subscriber filtered out never sees the event.

use hookgate_integration_tests::{SubscriberEntry, TestSubscriber, decisions, payloads};
use serde_json::json;

use crate::support::{Dialect, UnderTest, assert_claude_deny, cline_json, gateway};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_matching_subscribers_are_asked() {
    let shell = TestSubscriber::fixed(decisions::deny("shell-only")).await;
    let cursor = TestSubscriber::fixed(decisions::deny("cursor-only")).await;
    let post = TestSubscriber::fixed(decisions::context("post-only")).await;
    let gateway = gateway(&[
        SubscriberEntry::decide("shell", &shell.endpoint()).tools(&["shell"]),
        SubscriberEntry::decide("cursor", &cursor.endpoint()).agents(&["cursor"]),
        SubscriberEntry::decide("post", &post.endpoint()).events(&["post_tool_use"]),
    ])
    .await;

    // Claude Code running a shell command: only the shell filter matches.
    let out = gateway
        .shim(Some("claude-code"))
        .run(Dialect::ClaudeCode.shell_payload("make"))
        .await;
    assert_claude_deny(&out, "PreToolUse", "shell-only");
    assert!(!out.stdout_str().contains("cursor-only"), "{out}");
    assert_eq!((shell.count(), cursor.count(), post.count()), (1, 0, 0));

    // Cline writing a file: no filter matches, the reply is neutral.
    let out = gateway
        .shim(Some("cline"))
        .run(payloads::fixture("cline", "legacy.PreToolUse.json"))
        .await;
    let reply = cline_json(&out);
    assert!(
        reply == json!({}) || reply == json!({"cancel": false}),
        "{out}"
    );
    assert_eq!((shell.count(), cursor.count(), post.count()), (1, 0, 0));

    // Cursor after a shell tool ran: the agent and event filters match.
    let out = gateway
        .shim(Some("cursor"))
        .run(payloads::fixture("cursor", "postToolUse.json"))
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    assert_eq!(
        out.json(),
        json!({"additional_context": "post-only"}),
        "{out}"
    );
    assert_eq!((shell.count(), cursor.count(), post.count()), (2, 1, 1));
}
