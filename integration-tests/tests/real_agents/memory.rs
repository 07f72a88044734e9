//! The built-in `memory` subscriber with real agent CLIs (issue #31): a
//! fact a Codex session's shell command printed is in what the model is
//! sent at the start of a later Claude Code session in the same project,
//! and not in a Claude Code session of another project. The two agents
//! share nothing but the gateway and its database: the fact crosses from
//! one CLI to the other only through hookgate.

use std::path::{Path, PathBuf};

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::AgentOutcome;
use hookgate_integration_tests::fake_model::Script;
use hookgate_integration_tests::{TestGateway, private_dir, run_gateway};
use serde_json::Value;

use crate::support::{EVENTUALLY, run};

/// Printed by the Codex session's command, and by nothing else.
const FACT: &str = "HG-MEMORY-FACT-staging-db-port-6543-quxbaz";

/// A gateway whose only subscriber is the memory built-in on `db` (the
/// longest injection wait allowed: the test judges what is told, not how
/// fast, on a loaded machine).
async fn memory_gateway(db: &Path) -> TestGateway {
    let config = format!(
        "[[subscriber]]\nname = \"memory\"\nbuiltin = \"memory\"\npath = {}\ntimeout_ms = 1000\n",
        Value::String(db.display().to_string())
    );
    TestGateway::start(&config).await
}

/// A project (a git root) named `name` under `dir`.
fn project(dir: &Path, name: &str) -> PathBuf {
    let root = dir.join(name);
    std::fs::create_dir_all(root.join(".git")).expect("make a .git directory");
    root
}

/// Waits until the database holds no raw observation and at least one
/// memory: the Codex session was captured and compressed (at its Stop).
async fn compressed(db: &Path) -> Value {
    let path = db.display().to_string();
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let (code, stdout, stderr) =
            run_gateway(&["memory", "--path", &path, "stats", "--json"]).await;
        let stats: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        if code == Some(0) && stats["observations"] == 0 && stats["memories"].as_u64() >= Some(1) {
            return stats;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the Codex session was not compressed: {stdout}{stderr}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The first model call of `outcome` (the session's start and prompt).
fn first_call(outcome: &AgentOutcome) -> &hookgate_integration_tests::fake_model::RecordedRequest {
    let calls = outcome.model_calls();
    assert!(!calls.is_empty(), "the model was never called\n{outcome}");
    calls[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fact_from_codex_reaches_a_later_claude_session_in_its_project_only() {
    let dir = private_dir();
    let db = dir.path().join("memory.db");
    let shop = project(dir.path(), "shop");
    let other = project(dir.path(), "other");
    let gateway = memory_gateway(&db).await;

    // Codex runs a command whose output is the fact; its Stop compresses
    // the session into memories.
    let codex = run(Dialect::Codex)
        .work_in(&shop)
        .socket(gateway.socket())
        .script(Script::shell_then_text(&format!("echo {FACT}"), "Done."))
        .run()
        .await;
    let outputs = codex
        .model_calls()
        .last()
        .map(|call| call.responses_tool_outputs())
        .unwrap_or_default();
    assert!(
        outputs.iter().any(|o| o.contains(FACT)),
        "Codex's command did not print the fact: {outputs:?}\n{codex}"
    );
    let stats = compressed(&db).await;
    assert_eq!(stats["projects"], 1, "{stats}");

    // A later Claude Code session in the same project, and one in another
    // project, run side by side: neither asks about the fact.
    let prompt = "Run the scripted command.";
    let same = run(Dialect::ClaudeCode)
        .work_in(&shop)
        .socket(gateway.socket())
        .prompt(prompt)
        .run();
    let elsewhere = run(Dialect::ClaudeCode)
        .work_in(&other)
        .socket(gateway.socket())
        .prompt(prompt)
        .run();
    let (same, elsewhere) = tokio::join!(same, elsewhere);

    assert!(
        first_call(&same).mentions(FACT),
        "the same project's Claude session was not told the fact at its start\n{same}"
    );
    assert!(
        first_call(&same).mentions("Notes hookgate kept from earlier sessions"),
        "the fact must come under memory's heading\n{same}"
    );
    for call in elsewhere.model_calls() {
        assert!(
            !call.mentions(FACT),
            "another project's Claude session was told the fact\n{elsewhere}"
        );
    }
    // The other project's session did run and reach the model.
    first_call(&elsewhere);
}
