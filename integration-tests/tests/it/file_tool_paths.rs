//! Every path field of the agents' file tools reaches the default guard,
//! and a call naming more paths than hookgate reads is denied, not checked
//! in part (issue #24, finding 5: include patterns, globs, `uri`
//! arguments, patch headers, long and deep MCP lists). Real shim, real
//! gateway on the embedded default config; the verdict is read from the
//! agent's reply.

use hookgate_integration_tests::{TestGateway, payloads};
use serde_json::{Value, json};

use crate::guard_corpus::blocked;
use crate::support::{Dialect, UnderTest};

/// `(dialect, fixture dir, fixture, tool, input, reason)`.
type Case = (
    Dialect,
    &'static str,
    &'static str,
    &'static str,
    Value,
    &'static str,
);

fn cases() -> Vec<Case> {
    let many: Vec<String> = (0..300).map(|i| format!("src/f{i}.rs")).collect();
    let mut deep = json!({"path": "/home/dev/acme/.env"});
    for _ in 0..14 {
        deep = json!({ "items": [deep] });
    }
    vec![
        (
            Dialect::GeminiCli,
            "gemini-cli",
            "BeforeTool.json",
            "read_many_files",
            json!({"include": ["**/.env"], "paths": ["src"]}),
            "secrets file",
        ),
        (
            Dialect::GeminiCli,
            "gemini-cli",
            "BeforeTool.json",
            "grep_search",
            json!({"pattern": "KEY", "include_pattern": ".env*"}),
            "secrets file",
        ),
        (
            Dialect::Codex,
            "codex",
            "PreToolUse.json",
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: .env\n+TOKEN=x\n*** End Patch\n"}),
            "secrets file",
        ),
        (
            Dialect::Droid,
            "droid",
            "PreToolUse.json",
            "ApplyPatch",
            json!({"input": "*** Begin Patch\n*** Update File: /home/dev/acme/.env\n@@\n-A=1\n+A=2\n*** End Patch"}),
            "secrets file",
        ),
        (
            Dialect::ClaudeCode,
            "claude-code",
            "PreToolUse.json",
            "mcp__fs__read_resource",
            json!({"uri": "file:///home/dev/acme/.env"}),
            "secrets file",
        ),
        (
            Dialect::ClaudeCode,
            "claude-code",
            "PreToolUse.json",
            "Grep",
            json!({"pattern": "SECRET", "glob": ".env.*", "path": "."}),
            "secrets file",
        ),
        (
            Dialect::ClaudeCode,
            "claude-code",
            "PreToolUse.json",
            "mcp__fs__read_many",
            json!({ "paths": many }),
            "more paths than hookgate checks",
        ),
        (
            Dialect::ClaudeCode,
            "claude-code",
            "PreToolUse.json",
            "mcp__fs__batch",
            deep,
            "more paths than hookgate checks",
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_file_tool_path_field_is_checked() {
    let gateway = TestGateway::start_embedded().await;
    let mut failures = Vec::new();
    for (dialect, dir, fixture, tool, input, reason) in cases() {
        let payload = payloads::claude_shaped_tool(dir, fixture, tool, input.clone());
        let out = gateway.shim(Some(dialect.arg())).run(&payload).await;
        match blocked(dialect, &out) {
            Some(why) if why.contains(reason) => {}
            Some(why) => failures.push(format!("{dialect:?} {tool} {input}: denied for {why:?}")),
            None => failures.push(format!("{dialect:?} {tool} {input}: allowed: {out}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An ordinary multi-file read stays allowed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ordinary_multi_file_read_is_allowed() {
    let gateway = TestGateway::start_embedded().await;
    let payload = payloads::claude_shaped_tool(
        "gemini-cli",
        "BeforeTool.json",
        "read_many_files",
        json!({"include": ["src/**/*.rs", "Cargo.toml"]}),
    );
    let out = gateway
        .shim(Some(Dialect::GeminiCli.arg()))
        .run(&payload)
        .await;
    assert_eq!(blocked(Dialect::GeminiCli, &out), None, "{out}");
}
