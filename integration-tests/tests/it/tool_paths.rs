//! The paths a tool call names reach remote subscribers in `Tool.paths`
//! (issue #25, item 5): every agent's file tools, Copilot's PascalCase
//! `Write` and Codex's `apply_patch` included. Real shim, real gateway, a
//! real gRPC subscriber; the check is on what the subscriber received.

use hookgate_integration_tests::{SubscriberEntry, TestSubscriber, decisions};
use serde_json::json;

use crate::guard_corpus::file_calls;
use crate::support::{Dialect, UnderTest, gateway};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_agents_file_tools_reach_subscribers_with_their_paths() {
    let policy = TestSubscriber::fixed(decisions::neutral()).await;
    let gateway = gateway(&[SubscriberEntry::decide("policy", &policy.endpoint())]).await;
    let path = "/home/dev/acme/src/orders.ts";
    let mut calls = file_calls("write", path);
    calls.extend(file_calls("read", path));
    let patch = format!("*** Begin Patch\n*** Update File: {path}\n@@\n-a\n+b\n*** End Patch\n");
    calls.push((
        Dialect::Codex,
        "apply_patch",
        hookgate_integration_tests::payloads::claude_shaped_tool(
            "codex",
            "PreToolUse.json",
            "apply_patch",
            json!({ "command": patch }),
        ),
    ));
    let dialects: std::collections::BTreeSet<String> =
        calls.iter().map(|(d, _, _)| format!("{d:?}")).collect();
    assert_eq!(
        dialects.len(),
        Dialect::ALL.len(),
        "a file tool of every dialect: {dialects:?}"
    );

    let mut failures = Vec::new();
    for (n, (dialect, tool, payload)) in calls.iter().enumerate() {
        let out = gateway.shim(Some(dialect.arg())).run(payload).await;
        assert_eq!(out.code, Some(0), "{dialect:?} {tool}: {out}");
        let events = policy.wait_for(n + 1, crate::support::EVENTUALLY).await;
        let Some(sent) = events.get(n).and_then(|e| e.tool.clone()) else {
            failures.push(format!(
                "{dialect:?} {tool}: no tool in {:?}",
                events.get(n)
            ));
            continue;
        };
        if !sent.paths.iter().any(|p| p == path) || sent.paths_overflow {
            failures.push(format!(
                "{dialect:?} {tool}: paths {:?} (overflow {})",
                sent.paths, sent.paths_overflow
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
