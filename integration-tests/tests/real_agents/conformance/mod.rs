//! The conformance suite (issue #13): a table of scenarios per agent
//! version — event × decision part — each run through the real CLI with
//! `gateway-shim`, a real gateway and a test subscriber, judged on what the
//! agent did (marker files, the model's requests, how many there were).
//! It writes docs/conformance.md and fails on any row that neither does
//! what the part means (docs/agents.md, top) nor is a documented limit.
//!
//! - [`meaning`]: what each part must make the agent do, per event phase;
//! - [`matrix`]: one scenario run and the markdown it becomes;
//! - [`claude`], [`cline`], [`qwen`], [`droid`], [`gemini`], [`codex`],
//!   [`copilot`], [`opencode`], [`hermes`]: each agent's table and runner. A new agent is one more
//!   such module and one more arm in [`versions`] (the compiler points to
//!   it: the match is over the adapters' `Dialect`);
//! - [`tool_table`]: the table of the agents hooked on a shell tool's pre-
//!   and post-tool events and a stop;
//! - [`doc_check`]: docs/conformance.md agrees with `render`'s capability
//!   tables (no capability is advertised that the matrix did not observe).

mod claude;
mod cline;
mod codex;
mod copilot;
mod doc_check;
mod droid;
mod gemini;
mod hermes;
mod matrix;
mod meaning;
mod opencode;
mod qwen;
mod tool_table;

use std::path::PathBuf;

use futures_util::future::join_all;
use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::{ClaudeCode, has_real_cli};

use matrix::{AgentUnderTest, Row};

/// Every agent version under test, in the adapters' order of dialects
/// (the order docs/conformance.md lists them).
pub(crate) fn agents() -> Vec<AgentUnderTest> {
    Dialect::ALL.into_iter().flat_map(versions).collect()
}

/// The versions under test of the CLI speaking `dialect`: none for a
/// dialect no real CLI speaks ([`has_real_cli`]).
fn versions(dialect: Dialect) -> Vec<AgentUnderTest> {
    match dialect {
        Dialect::ClaudeCode => vec![
            claude::agent(ClaudeCode::Oldest),
            claude::agent(ClaudeCode::Newest),
        ],
        Dialect::ClineSdk => vec![cline::agent()],
        Dialect::QwenCode => vec![qwen::agent()],
        Dialect::Droid => vec![droid::agent()],
        Dialect::GeminiCli => vec![gemini::agent()],
        Dialect::Codex => vec![codex::agent()],
        Dialect::CopilotPascal => vec![copilot::agent(copilot::Case::Pascal)],
        Dialect::CopilotCamel => vec![copilot::agent(copilot::Case::Camel)],
        Dialect::OpenCode => vec![opencode::agent()],
        Dialect::Hermes => vec![hermes::agent()],
        Dialect::Cursor | Dialect::ClineLegacy => Vec::new(),
    }
}

/// Every dialect a real CLI under test speaks has a table, and each table
/// runs the CLI of its own dialect: a new agent cannot be left out.
#[test]
fn every_dialect_with_a_real_cli_has_a_table() {
    for dialect in Dialect::ALL {
        let versions = versions(dialect);
        assert_eq!(
            has_real_cli(dialect),
            !versions.is_empty(),
            "{dialect:?}: a real CLI without a table, or a table without one"
        );
        for version in &versions {
            assert_eq!(version.dialect, dialect, "{}", version.label);
            assert!(!version.scenarios.is_empty(), "{}", version.label);
        }
    }
}

/// docs/conformance.md in this checkout.
pub(crate) fn doc_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/conformance.md")
}

/// Whether the agent labelled `label` runs: all do, unless
/// `HOOKGATE_CONFORMANCE_ONLY` lists (comma-separated) parts of the labels
/// to run, to iterate on one agent.
fn selected(label: &str) -> bool {
    std::env::var("HOOKGATE_CONFORMANCE_ONLY").map_or(true, |only| {
        only.split(',')
            .map(str::trim)
            .any(|part| !part.is_empty() && label.contains(part))
    })
}

/// Runs every scenario of every agent (two agents at a time: the harness
/// caps it), writes docs/conformance.md, then fails on every row that is
/// neither a pass nor a documented limit — and on documented limits that
/// now pass, so the list stays true. An agent left out by
/// `HOOKGATE_CONFORMANCE_ONLY` keeps its section of the current file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_matrix() {
    let path = doc_path();
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let mut sections = Vec::new();
    let mut problems = Vec::new();
    for agent in &agents() {
        if !selected(&agent.label) {
            sections.extend(matrix::old_section(&old, &agent.label).map(str::to_owned));
            continue;
        }
        let rows: Vec<Row> = join_all(agent.scenarios.iter().map(|s| matrix::run(agent, s))).await;
        problems.extend(rows.iter().filter_map(|row| row.problem(agent)));
        sections.push(matrix::section(agent, &rows));
    }
    let doc = matrix::markdown(&sections);
    // Renamed into place: `doc_check` may be reading it at the same time.
    let fresh = path.with_extension("md.new");
    std::fs::write(&fresh, &doc).expect("write docs/conformance.md.new");
    std::fs::rename(&fresh, &path).expect("rename it to docs/conformance.md");
    assert!(
        problems.is_empty(),
        "{} conformance problem(s):\n{}\n\n{doc}",
        problems.len(),
        problems.join("\n")
    );
}
