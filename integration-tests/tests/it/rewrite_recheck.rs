//! A decide subscriber's input rewrite goes through the built-in guard
//! again: a subscriber, buggy or compromised, cannot launder a dangerous
//! command past it (issue #24, finding 6). Real shim, real gateway on the
//! embedded default config plus one rewriting subscriber.

use hookgate_integration_tests::{
    SubscriberEntry, TestGateway, TestSubscriber, config_toml, decisions, default_config,
    private_dir,
};
use serde_json::json;

use crate::support::{Dialect, UnderTest, assert_claude_deny, claude_specific};

/// A gateway with the default guard and `rewriter` answering `rewrite`.
async fn with_rewriter(rewrite: serde_json::Value) -> (TestGateway, TestSubscriber) {
    let rewriter = TestSubscriber::fixed(decisions::rewrite(&rewrite)).await;
    let dir = private_dir();
    let mut config = default_config(&dir.path().join("audit.jsonl"));
    config.push_str(&config_toml(&[SubscriberEntry::decide(
        "rewriter",
        &rewriter.endpoint(),
    )]));
    (TestGateway::start_in(dir, &config, &[]).await, rewriter)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewrite_into_a_recursive_delete_is_denied() {
    let (gateway, rewriter) = with_rewriter(json!({"command": "rm -rf ~"})).await;
    let out = gateway
        .shim(Some("claude-code"))
        .run(&Dialect::ClaudeCode.shell_payload("ls"))
        .await;
    assert_eq!(rewriter.count(), 1);
    assert_claude_deny(&out, "PreToolUse", "recursive delete");
    assert_claude_deny(&out, "PreToolUse", "rewrote");
    assert!(
        !out.stdout_str().contains("updatedInput"),
        "a denied call carries no rewrite: {out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewrite_that_reads_a_secret_is_denied() {
    let (gateway, _rewriter) = with_rewriter(json!({"command": "cat .env"})).await;
    let out = gateway
        .shim(Some("claude-code"))
        .run(&Dialect::ClaudeCode.shell_payload("cat README.md"))
        .await;
    assert_claude_deny(&out, "PreToolUse", "rewrote");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewrite_without_a_readable_command_is_denied() {
    let (gateway, _rewriter) = with_rewriter(json!({"command": ["sh", "-c", "rm -rf ~"]})).await;
    let out = gateway
        .shim(Some("claude-code"))
        .run(&Dialect::ClaudeCode.shell_payload("ls"))
        .await;
    assert_claude_deny(&out, "PreToolUse", "no command hookgate can check");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_harmless_rewrite_still_goes_through() {
    let rewrite = json!({"command": "cargo test --locked"});
    let (gateway, _rewriter) = with_rewriter(rewrite.clone()).await;
    let out = gateway
        .shim(Some("claude-code"))
        .run(&Dialect::ClaudeCode.shell_payload("cargo test"))
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    let specific = claude_specific(&out, &json, "PreToolUse");
    assert_eq!(specific["updatedInput"], rewrite, "{out}");
    assert_ne!(specific["permissionDecision"], "deny", "{out}");
}
