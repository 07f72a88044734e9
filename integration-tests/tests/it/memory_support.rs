//! What the memory tests share: a gateway config with the memory
//! built-in, project directories, agents' sample payloads with fields set,
//! the shim's context, `gateway memory` on the database file, and waits on
//! `gateway status` and the file's stats.

use std::path::{Path, PathBuf};

use hookgate_integration_tests::{TestGateway, payloads, run_gateway};
use serde_json::{Value, json};

use crate::support::EVENTUALLY;

pub(crate) fn config(db: &Path) -> String {
    // The longest injection wait allowed: the tests judge what is
    // injected, not how fast, on a loaded machine.
    format!(
        "[[subscriber]]\nname = \"memory\"\nbuiltin = \"memory\"\npath = {}\ntimeout_ms = 1000\n",
        Value::String(db.display().to_string())
    )
}

/// A project directory (a git root) with a subdirectory, under `dir`.
pub(crate) fn project(dir: &Path, name: &str) -> PathBuf {
    let root = dir.join(name);
    std::fs::create_dir_all(root.join(".git")).expect("make a .git directory");
    std::fs::create_dir_all(root.join("src")).expect("make a subdirectory");
    root
}

/// A sample payload of `agent_dir` with `fields` set.
pub(crate) fn payload(agent_dir: &str, file: &str, fields: Value) -> String {
    let mut doc: Value =
        serde_json::from_str(&payloads::fixture(agent_dir, file)).expect("a JSON sample");
    for (key, value) in fields.as_object().expect("fields as an object") {
        doc[key] = value.clone();
    }
    doc.to_string()
}

pub(crate) fn codex_tool_output(cwd: &Path, session: &str, command: &str, output: &str) -> String {
    payload(
        "codex",
        "PostToolUse.json",
        json!({ "cwd": cwd, "session_id": session, "tool_input": { "command": command }, "tool_response": output }),
    )
}

pub(crate) fn codex(file: &str, cwd: &Path, session: &str) -> String {
    payload("codex", file, json!({ "cwd": cwd, "session_id": session }))
}

/// The additional context of a Claude Code reply, if any.
pub(crate) fn context(stdout: &str) -> String {
    let reply: Value = serde_json::from_str(stdout).unwrap_or(Value::Null);
    reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

pub(crate) async fn claude(gateway: &TestGateway, file: &str, fields: Value) -> String {
    let out = gateway
        .shim(Some("claude-code"))
        .run(payload("claude-code", file, fields))
        .await;
    assert_eq!(out.code, Some(0), "{out}");
    context(&out.stdout_str())
}

pub(crate) async fn memory_cli(db: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let path = db.display().to_string();
    let mut all = vec!["memory", "--path", path.as_str()];
    all.extend_from_slice(args);
    run_gateway(&all).await
}

/// `gateway memory stats --json` once the database holds no raw
/// observation and at least `memories` memories (each session compressed).
pub(crate) async fn compressed(db: &Path, memories: u64) -> Value {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let (code, stdout, stderr) = memory_cli(db, &["stats", "--json"]).await;
        let stats: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        if code == Some(0)
            && stats["observations"] == 0
            && stats["memories"].as_u64() >= Some(memories)
        {
            return stats;
        }
        assert!(tokio::time::Instant::now() < until, "{stdout}{stderr}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The memory subscriber's row of `gateway status --json`, once `ready`.
pub(crate) async fn status_until(gateway: &TestGateway, ready: impl Fn(&Value) -> bool) -> Value {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let doc = gateway.status_json().await;
        let row = doc["subscribers"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["name"] == "memory").cloned())
            .unwrap_or(Value::Null);
        if ready(&row) {
            return row;
        }
        assert!(tokio::time::Instant::now() < until, "{row}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Captures the writer stored, from a status row.
pub(crate) fn stored(row: &Value) -> u64 {
    row["memory"]["stored"].as_u64().unwrap_or(0)
}

pub(crate) fn file_bytes(db: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(db).unwrap_or_default();
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    bytes.extend(std::fs::read(PathBuf::from(wal)).unwrap_or_default());
    bytes
}

pub(crate) fn holds(bytes: &[u8], text: &str) -> bool {
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}
