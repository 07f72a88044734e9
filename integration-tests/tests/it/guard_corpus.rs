//! The embedded default config through the real shim and gateway: the
//! guard's corpora (shell commands and file paths, shared with the
//! gateway's unit tests) for the shell and file tools of Claude Code,
//! Cursor and Cline (SDK and legacy), and the shell tools of Qwen Code,
//! Factory Droid, Gemini CLI, Codex and Copilot CLI (both dialects) and
//! their file tools (Codex has none), judged from the agent's reply; and
//! the secret corpus, which must not reach the audit file, while benign
//! text does.

use std::time::Duration;

use hookgate_integration_tests::{ShimOutput, TestGateway, payloads};
use serde_json::{Value, json};

use crate::support::{Dialect, EVENTUALLY, UnderTest, cline_json, str_at};

const SHELL: &str = include_str!("../../../config/src/tests/default_guard/corpus/shell.tsv");
const FILES: &str = include_str!("../../../config/src/tests/default_guard/corpus/files.tsv");
const SECRETS: &str = include_str!("../../../mask/src/corpus/secrets.tsv");
const BENIGN: &str = include_str!("../../../mask/src/corpus/benign.txt");

/// Tab-separated rows, `#` comments, `\n` in a field is a newline.
fn rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').map(|f| f.replace("\\n", "\n")).collect())
        .collect()
}

/// What the agent will do, read from its reply: `Some(reason)` when the
/// call is blocked (denied, or held for the user to answer an ask), `None`
/// when it goes ahead.
pub(crate) fn blocked(dialect: Dialect, out: &ShimOutput) -> Option<String> {
    match dialect {
        // These answer a pre-tool call in Claude Code's reply shape.
        Dialect::ClaudeCode
        | Dialect::QwenCode
        | Dialect::Droid
        | Dialect::Codex
        | Dialect::CopilotPascal
        | Dialect::OpenCode => match out.code {
            Some(2) => Some(out.stderr_str()),
            Some(0) if out.stdout.iter().all(u8::is_ascii_whitespace) => None,
            Some(0) => {
                let json = out.json();
                let specific = &json["hookSpecificOutput"];
                matches!(str_at(specific, "permissionDecision"), "deny" | "ask")
                    .then(|| str_at(specific, "permissionDecisionReason").to_owned())
            }
            _ => panic!("unexpected Claude Code reply: {out}"),
        },
        Dialect::CopilotCamel | Dialect::GeminiCli => {
            assert_eq!(out.code, Some(0), "{out}");
            if out.stdout.iter().all(u8::is_ascii_whitespace) {
                return None;
            }
            let json = out.json();
            let denied = str_at(&json, "permissionDecision") == "deny"
                || str_at(&json, "decision") == "deny";
            denied.then(|| {
                format!(
                    "{}{}",
                    str_at(&json, "permissionDecisionReason"),
                    str_at(&json, "reason")
                )
            })
        }
        // Hermes reads only a block, whose reason the model reads.
        Dialect::Hermes => {
            assert_eq!(out.code, Some(0), "{out}");
            if out.stdout.iter().all(u8::is_ascii_whitespace) {
                return None;
            }
            let json = out.json();
            (str_at(&json, "decision") == "block").then(|| str_at(&json, "reason").to_owned())
        }
        Dialect::Cursor => {
            assert_eq!(out.code, Some(0), "{out}");
            if out.stdout.iter().all(u8::is_ascii_whitespace) {
                return None;
            }
            let json = out.json();
            matches!(str_at(&json, "permission"), "deny" | "ask").then(|| {
                format!(
                    "{} {}",
                    str_at(&json, "user_message"),
                    str_at(&json, "agent_message")
                )
            })
        }
        // A cancel, or (SDK, built-in tools) the refusal of the one call:
        // an empty `overrideInput` with the reason as context.
        Dialect::ClineSdk | Dialect::ClineLegacy => {
            let json = cline_json(out);
            if json.get("cancel") == Some(&Value::Bool(true)) {
                Some(str_at(&json, "errorMessage").to_owned())
            } else if json.get("overrideInput") == Some(&json!({})) {
                Some(str_at(&json, "context").to_owned())
            } else {
                None
            }
        }
    }
}

/// Sends `payload` and checks the agent's verdict against the corpus row.
async fn expect(
    gateway: &TestGateway,
    dialect: Dialect,
    what: &str,
    payload: &str,
    verdict: &str,
    reason: &str,
) -> Option<String> {
    let out = gateway.shim(Some(dialect.arg())).run(payload).await;
    match (verdict, blocked(dialect, &out)) {
        // An ask blocks too: held for the user, or denied by an agent
        // that cannot ask.
        ("deny" | "ask", Some(got)) if got.contains(reason) => None,
        ("deny" | "ask", Some(got)) => Some(format!(
            "{dialect:?} {what:?}: reason {got:?}, wanted {reason:?}"
        )),
        ("deny" | "ask", None) => Some(format!("{dialect:?} {what:?}: not blocked: {out}")),
        ("allow", None) => None,
        ("allow", Some(got)) => Some(format!("{dialect:?} {what:?}: blocked: {got}")),
        (other, _) => Some(format!("bad verdict {other:?}")),
    }
}

fn report(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shell_corpus_on_every_agents_shell_tools() {
    let gateway = TestGateway::start_embedded().await;
    let mut failures = Vec::new();
    let rows = rows(SHELL);
    assert!(rows.len() > 150);
    for row in &rows {
        let [verdict, reason, command] = row.as_slice() else {
            panic!("bad row {row:?}");
        };
        // Every dialect's shell call, and Cursor's other shape of it.
        let shapes = Dialect::ALL
            .into_iter()
            .map(|dialect| (dialect, dialect.shell_payload(command)))
            .chain([(Dialect::Cursor, payloads::cursor_pre_tool_use(command))]);
        for (dialect, payload) in shapes {
            failures.extend(expect(&gateway, dialect, command, &payload, verdict, reason).await);
        }
    }
    report(&failures);
}

/// `dialect`'s shell-tool payload with its tool replaced by `name` and
/// `input` (the agents added later have no builder per tool).
fn tool_call(dialect: Dialect, name: &str, input: Value) -> String {
    let mut payload: Value =
        serde_json::from_str(&dialect.shell_payload("true")).expect("a JSON payload");
    // Copilot's camelCase payloads say toolName/toolArgs.
    let (name_key, input_key) = if payload.get("toolName").is_some() {
        ("toolName", "toolArgs")
    } else {
        ("tool_name", "tool_input")
    };
    payload[name_key] = json!(name);
    payload[input_key] = input;
    payload.to_string()
}

/// The file tools of the agents added after Claude Code, Cursor and Cline
/// (Codex has none besides its shell), as (dialect, tool, input) for
/// `access`.
fn later_agents_file_tools(access: &str, path: &str) -> Vec<(Dialect, &'static str, Value)> {
    let content = "X=1\n";
    match access {
        "read" => vec![
            (
                Dialect::QwenCode,
                "read_file",
                json!({ "absolute_path": path }),
            ),
            (Dialect::Droid, "Read", json!({ "file_path": path })),
            (
                Dialect::GeminiCli,
                "read_file",
                json!({ "absolute_path": path }),
            ),
            (Dialect::CopilotPascal, "Read", json!({ "file_path": path })),
            (Dialect::CopilotCamel, "view", json!({ "path": path })),
            (Dialect::Hermes, "read_file", json!({ "path": path })),
            (Dialect::OpenCode, "read", json!({ "filePath": path })),
        ],
        "write" => vec![
            (
                Dialect::QwenCode,
                "write_file",
                json!({ "file_path": path, "content": content }),
            ),
            (
                Dialect::Droid,
                "Create",
                json!({ "file_path": path, "content": content }),
            ),
            (
                Dialect::GeminiCli,
                "write_file",
                json!({ "file_path": path, "content": content }),
            ),
            (
                Dialect::CopilotPascal,
                "Write",
                json!({ "file_path": path, "content": content }),
            ),
            (
                Dialect::CopilotCamel,
                "create",
                json!({ "path": path, "file_text": content }),
            ),
            (
                Dialect::Hermes,
                "write_file",
                json!({ "path": path, "content": content }),
            ),
            (
                Dialect::OpenCode,
                "write",
                json!({ "filePath": path, "content": content }),
            ),
        ],
        _ => Vec::new(),
    }
}

/// Every file tool of every agent that names `path`, touching it as
/// `access` (read, write, search).
pub(crate) fn file_calls(access: &str, path: &str) -> Vec<(Dialect, &'static str, String)> {
    let mut calls = first_agents_file_calls(access, path);
    calls.extend(
        later_agents_file_tools(access, path)
            .into_iter()
            .map(|(dialect, tool, input)| (dialect, tool, tool_call(dialect, tool, input))),
    );
    calls
}

/// The file tools of Claude Code, Cursor and Cline, from their builders.
fn first_agents_file_calls(access: &str, path: &str) -> Vec<(Dialect, &'static str, String)> {
    use payloads::*;
    match access {
        "read" => vec![
            (
                Dialect::ClaudeCode,
                "Read",
                claude_tool("Read", json!({ "file_path": path })),
            ),
            (
                Dialect::ClaudeCode,
                "MCP read_file",
                claude_tool("mcp__fs__read_file", json!({ "path": path })),
            ),
            (
                Dialect::Cursor,
                "beforeReadFile",
                cursor_read_file(path, "X=1\n"),
            ),
            (
                Dialect::Cursor,
                "Read",
                cursor_tool("Read", json!({ "file_path": path })),
            ),
            (
                Dialect::Cursor,
                "MCP read_file",
                cursor_mcp("read_file", &json!({ "path": path })),
            ),
            (
                Dialect::ClineSdk,
                "read_files (second)",
                cline_sdk_tool(
                    "read_files",
                    json!({ "files": [{ "path": "README.md" }, { "path": path }] }),
                ),
            ),
            (
                Dialect::ClineLegacy,
                "read_file",
                cline_legacy_tool("read_file", json!({ "path": path })),
            ),
        ],
        "write" => vec![
            (
                Dialect::ClaudeCode,
                "Write",
                claude_tool("Write", json!({ "file_path": path, "content": "X=1\n" })),
            ),
            (
                Dialect::ClaudeCode,
                "Edit",
                claude_tool(
                    "Edit",
                    json!({ "file_path": path, "old_string": "a", "new_string": "b" }),
                ),
            ),
            (
                Dialect::Cursor,
                "Write",
                cursor_tool("Write", json!({ "file_path": path, "content": "X=1\n" })),
            ),
            (
                Dialect::ClineSdk,
                "editor",
                cline_sdk_tool(
                    "editor",
                    json!({ "command": "create", "path": path, "file_text": "X=1\n" }),
                ),
            ),
            (
                Dialect::ClineLegacy,
                "write_to_file",
                cline_legacy_tool("write_to_file", json!({ "path": path, "content": "X=1\n" })),
            ),
        ],
        "search" => vec![
            (
                Dialect::ClaudeCode,
                "Grep",
                claude_tool("Grep", json!({ "pattern": "KEY", "path": path })),
            ),
            (
                Dialect::ClaudeCode,
                "Glob",
                claude_tool("Glob", json!({ "pattern": path })),
            ),
            (
                Dialect::Cursor,
                "Grep",
                cursor_tool("Grep", json!({ "pattern": "KEY", "path": path })),
            ),
            (
                Dialect::ClineLegacy,
                "search_files",
                cline_legacy_tool("search_files", json!({ "path": path, "regex": "KEY" })),
            ),
        ],
        other => panic!("bad access {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn file_corpus_on_every_agents_file_tools() {
    let gateway = TestGateway::start_embedded().await;
    let mut failures = Vec::new();
    for row in rows(FILES) {
        let [verdict, reason, access, path] = row.as_slice() else {
            panic!("bad row {row:?}");
        };
        for (dialect, tool, payload) in file_calls(access, path) {
            let what = format!("{tool} {path}");
            failures.extend(expect(&gateway, dialect, &what, &payload, verdict, reason).await);
        }
    }
    report(&failures);
}

/// The audit file once it holds `lines` lines (bounded polling: the audit
/// writer runs off the hook path).
async fn audit_lines(gateway: &TestGateway, lines: usize) -> String {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let text = std::fs::read_to_string(gateway.audit_log()).unwrap_or_default();
        if text.lines().count() >= lines {
            return text;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the audit log has {} of {lines} lines",
            text.lines().count()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_reaches_the_audit_file() {
    let gateway = TestGateway::start_embedded().await;
    let secrets: Vec<(String, String)> = rows(SECRETS)
        .into_iter()
        .filter_map(|row| match row.as_slice() {
            [_family, secret, text] => Some((secret.clone(), text.clone())),
            _ => None,
        })
        .collect();
    assert!(secrets.len() >= 100, "{} secret rows", secrets.len());
    let benign: Vec<String> = rows(BENIGN).into_iter().map(|row| row.join("\t")).collect();
    let mut sent = 0;
    for (_, text) in &secrets {
        let calls = [
            // In a command line, in a command's output, in the content of
            // a file read (allowed) and of one the guard denies, in a write.
            (Dialect::ClaudeCode, payloads::claude_bash(text)),
            (
                Dialect::ClaudeCode,
                payloads::claude_bash_output("cat notes.txt", text),
            ),
            (
                Dialect::Cursor,
                payloads::cursor_read_file("/Users/dev/acme-web/notes.txt", text),
            ),
            (
                Dialect::Cursor,
                payloads::cursor_read_file("/Users/dev/acme-web/.env", text),
            ),
            (
                Dialect::ClaudeCode,
                payloads::claude_tool(
                    "Write",
                    json!({ "file_path": "/home/dev/acme-api/notes.md", "content": text }),
                ),
            ),
            (Dialect::ClineSdk, payloads::cline_sdk_command(text)),
        ];
        for (dialect, payload) in calls {
            gateway.shim(Some(dialect.arg())).run(&payload).await;
            sent += 1;
        }
    }
    for text in &benign {
        gateway
            .shim(Some("claude-code"))
            .run(payloads::claude_bash(text))
            .await;
        sent += 1;
    }
    // Contents no pattern masks: stored for an allowed read, absent for a
    // denied one.
    let allowed =
        payloads::cursor_read_file("/Users/dev/acme-web/notes.txt", "SETTING=allowed-marker\n");
    let denied = payloads::cursor_read_file("/Users/dev/acme-web/.env", "SETTING=denied-marker\n");
    for payload in [allowed, denied] {
        gateway.shim(Some("cursor")).run(&payload).await;
        sent += 1;
    }
    let log = audit_lines(&gateway, sent).await;
    let leaks: Vec<&str> = secrets
        .iter()
        .filter(|(secret, _)| log.contains(secret.as_str()))
        .map(|(secret, _)| secret.as_str())
        .collect();
    assert!(leaks.is_empty(), "secrets in the audit log: {leaks:?}");
    let commands: Vec<String> = log
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("every audit line is JSON"))
        .map(|line| str_at(&line["payload"]["tool_input"], "command").to_owned())
        .collect();
    for text in &benign {
        assert!(
            commands.contains(text),
            "benign text masked or missing: {text:?}"
        );
    }
    // The denied read's content is not stored at all, not even masked.
    assert!(
        log.contains("allowed-marker"),
        "the allowed read's content is logged"
    );
    assert!(
        !log.contains("denied-marker"),
        "the denied read's content is not"
    );
    assert!(
        log.contains("its payload is not stored"),
        "no withheld payload"
    );
}
