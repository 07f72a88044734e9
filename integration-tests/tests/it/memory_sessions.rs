//! The built-in `memory` subscriber through the real shim and gateway: a
//! fact from a Codex session's tool output is in the additional context of
//! a later Claude Code session in the same project (at its start and at a
//! prompt that asks about it), and not in another project's; no secret of
//! the mask corpus put in a tool output reaches the database file's bytes;
//! `gateway memory forget` removes the fact from them; no tool call reads
//! or writes a configured database; a corrupt database
//! leaves every hook answered, without context, counts the errors in
//! `gateway status`, and memory works again once the file is replaced.

use std::path::Path;

use hookgate_integration_tests::{TestGateway, payloads, private_dir};
use serde_json::{Value, json};

use crate::memory_support::{
    claude, codex, codex_tool_output, compressed, config, file_bytes, holds, memory_cli, payload,
    project, status_until, stored,
};
use crate::support::EVENTUALLY;

const SECRETS: &str = include_str!("../../../mask/src/corpus/secrets.tsv");
const FACT: &str = "the staging database listens on port 6543 (zorblatt-fact)";

/// A Codex session in `cwd` that prints [`FACT`], written and compressed
/// (its turn's Stop sent once its other events are stored).
async fn codex_session(
    gateway: &TestGateway,
    db: &Path,
    cwd: &Path,
    session: &str,
    written_before: u64,
) {
    let shim = || gateway.shim(Some("codex"));
    let prompt = payload(
        "codex",
        "UserPromptSubmit.json",
        json!({ "cwd": cwd, "session_id": session, "prompt": "where does the staging database listen?" }),
    );
    for event in [
        prompt,
        codex_tool_output(cwd, session, "cat deploy/staging.env", FACT),
    ] {
        assert_eq!(shim().run(event).await.code, Some(0));
    }
    status_until(gateway, |row| stored(row) >= written_before + 2).await;
    assert_eq!(
        shim().run(codex("Stop.json", cwd, session)).await.code,
        Some(0)
    );
    compressed(db, 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_codex_fact_reaches_claude_code_in_the_same_project_only() {
    let dir = private_dir();
    let (here, elsewhere) = (project(dir.path(), "shop"), project(dir.path(), "blog"));
    let db = dir.path().join("memory.db");
    let gateway = TestGateway::start(&config(&db)).await;
    codex_session(&gateway, &db, &here.join("src"), "codex-1", 0).await;

    let start = |cwd: &Path| json!({ "cwd": cwd, "session_id": "claude-1" });
    let told = claude(&gateway, "SessionStart.json", start(&here)).await;
    assert!(told.contains("zorblatt-fact"), "{told:?}");
    assert!(told.contains("from codex"), "{told:?}");
    let other = claude(&gateway, "SessionStart.json", start(&elsewhere)).await;
    assert!(!other.contains("zorblatt"), "another project: {other:?}");
    // At a prompt: the memories its words match.
    let prompt = |cwd: &Path, prompt: &str| json!({ "cwd": cwd, "session_id": "claude-1", "prompt": prompt });
    let asked = claude(
        &gateway,
        "UserPromptSubmit.json",
        prompt(&here, "which port for staging?"),
    )
    .await;
    assert!(asked.contains("zorblatt-fact"), "{asked:?}");
    let unrelated = claude(
        &gateway,
        "UserPromptSubmit.json",
        prompt(&here, "rename the widget"),
    )
    .await;
    assert!(!unrelated.contains("zorblatt"), "{unrelated:?}");

    // The CLI finds it, and forgetting the session takes it out of the
    // file's bytes.
    let (code, stdout, stderr) = memory_cli(&db, &["search", "staging port", "--json"]).await;
    assert_eq!(code, Some(0), "{stderr}");
    let found: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        found
            .iter()
            .any(|m| m["text"].as_str().unwrap_or("").contains("zorblatt-fact")),
        "{stdout}"
    );
    assert!(
        found
            .iter()
            .all(|m| m["project"] == here.display().to_string()),
        "{stdout}"
    );
    assert!(holds(&file_bytes(&db), "zorblatt-fact"));
    let (code, stdout, stderr) =
        memory_cli(&db, &["forget", "--session", "codex-1", "--json"]).await;
    assert_eq!(code, Some(0), "{stderr}");
    let forgot: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(forgot["checkpointed"], true, "{forgot}");
    assert!(forgot["memories"].as_u64() >= Some(1), "{forgot}");
    assert!(
        !holds(&file_bytes(&db), "zorblatt-fact"),
        "forgotten text left in the file"
    );
    let after = claude(&gateway, "SessionStart.json", start(&here)).await;
    assert!(!after.contains("zorblatt"), "{after:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_in_a_tool_output_reaches_the_database() {
    let dir = private_dir();
    let cwd = project(dir.path(), "vault");
    let db = dir.path().join("memory.db");
    let gateway = TestGateway::start(&config(&db)).await;
    let rows: Vec<(&str, String, String)> = SECRETS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let fields: Vec<String> = l.split('\t').map(|f| f.replace("\\n", "\n")).collect();
            let family = l.split('\t').next().unwrap_or_default();
            (family, fields[1].clone(), fields[2].clone())
        })
        .collect();
    assert!(rows.len() >= 100, "{} shapes", rows.len());
    // Each shape as the output of its own session's command, so every one
    // is kept as a memory (a session keeps its last commands only).
    for (i, (_, _, text)) in rows.iter().enumerate() {
        let session = format!("s{i}");
        let event = codex_tool_output(&cwd, &session, "cat notes.txt", text);
        assert_eq!(gateway.shim(Some("codex")).run(event).await.code, Some(0));
    }
    status_until(&gateway, |row| stored(row) >= rows.len() as u64).await;
    for i in 0..rows.len() {
        let stop = codex("Stop.json", &cwd, &format!("s{i}"));
        assert_eq!(gateway.shim(Some("codex")).run(stop).await.code, Some(0));
    }
    let stats = compressed(&db, rows.len() as u64).await;
    let bytes = file_bytes(&db);
    let leaks: Vec<&str> = rows
        .iter()
        .filter(|(_, secret, _)| holds(&bytes, secret))
        .map(|(family, _, _)| *family)
        .collect();
    assert!(leaks.is_empty(), "{} leaks: {leaks:?}", leaks.len());
    // Kept, masked, not dropped.
    let (_, stdout, _) = memory_cli(
        &db,
        &["search", "REDACTED", "--json", "--budget", "1000000"],
    )
    .await;
    assert!(
        stdout.lines().count() >= rows.len() / 2,
        "{stats}\n{stdout}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_database_answers_hooks_without_context_and_is_counted() {
    let dir = private_dir();
    let cwd = project(dir.path(), "shop");
    let db = dir.path().join("memory.db");
    std::fs::write(&db, vec![0x5a; 16384]).unwrap();
    let gateway = TestGateway::start(&config(&db)).await;
    let start = json!({ "cwd": cwd, "session_id": "claude-1" });
    assert_eq!(
        claude(&gateway, "SessionStart.json", start.clone()).await,
        ""
    );
    // The injection failed and stood by no opinion (its fail-open answer);
    // the capture of the same event failed too.
    let failures = |row: &Value, key: &str| row["memory"][key].as_u64().unwrap_or(0);
    let row = status_until(&gateway, |row| {
        failures(row, "read_errors") >= 1 && failures(row, "store_errors") >= 1
    })
    .await;
    assert!(row["fail_open"].as_u64() >= Some(1), "{row}");
    assert!(row["errors"].as_u64() >= Some(2), "{row}");
    let event = codex_tool_output(&cwd, "codex-1", "cat deploy/staging.env", FACT);
    assert_eq!(gateway.shim(Some("codex")).run(event).await.code, Some(0));
    status_until(&gateway, |row| failures(row, "store_errors") >= 2).await;
    assert_eq!(
        std::fs::read(&db).unwrap(),
        vec![0x5a; 16384],
        "nothing written over it"
    );

    // Replaced: memory works again, without a restart (the writer opens a
    // failing file again at most once a second, so the session is sent
    // until both its events are stored).
    std::fs::remove_file(&db).unwrap();
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let written = stored(&status_until(&gateway, |_| true).await);
        let event = codex_tool_output(&cwd, "codex-1", "cat deploy/staging.env", FACT);
        assert_eq!(gateway.shim(Some("codex")).run(event).await.code, Some(0));
        let stop = codex("Stop.json", &cwd, "codex-1");
        assert_eq!(gateway.shim(Some("codex")).run(stop).await.code, Some(0));
        if stored(&status_until(&gateway, |_| true).await) >= written + 2 {
            break;
        }
        assert!(tokio::time::Instant::now() < until, "never writable again");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    compressed(&db, 1).await;
    let told = claude(&gateway, "SessionStart.json", start).await;
    assert!(told.contains("zorblatt-fact"), "{told:?}");
}

/// A configured database outside the state directory is one of
/// hookgate's parts: no tool call reads or writes it (it would hand one
/// project's memories to another, or plant some).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_is_out_of_the_agents_reach() {
    let dir = private_dir();
    let db = dir.path().join("kept").join("memory.db");
    let gateway = TestGateway::start(&config(&db)).await;
    for command in [
        format!("cat {}", db.display()),
        format!("cp {}-wal /tmp/copy", db.display()),
        format!("echo planted >> {}", db.display()),
    ] {
        let payload = payloads::claude_bash(&command);
        let out = gateway.shim(Some("claude-code")).run(payload).await;
        crate::support::assert_claude_deny(&out, "PreToolUse", "hookgate self-protection");
    }
}
