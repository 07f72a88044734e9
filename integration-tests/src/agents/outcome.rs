//! What a real agent run left behind, for the test to assert on: exit
//! status, output, the model's recorded requests and the run directory
//! (where the marker files are).

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::time::Duration;

use hookgate_adapters::Dialect;
use serde_json::Value;
use tempfile::TempDir;

use super::install::ClaudeCode;
use super::setup::RunPaths;
use crate::fake_model::RecordedRequest;

/// Keep every run's directory (set to 1 to inspect a passing run).
const KEEP_ENV: &str = "HOOKGATE_KEEP_AGENT_RUNS";

/// What a run left: the agent's exit status and output, the requests the
/// model received, and the run directory (marker files live in
/// [`AgentOutcome::work`]). The directory is removed on drop, unless the
/// test is failing or `HOOKGATE_KEEP_AGENT_RUNS=1`.
#[derive(Debug)]
pub struct AgentOutcome {
    pub(crate) agent: Dialect,
    /// `None` when the harness had to kill the run.
    pub(crate) status: Option<ExitStatus>,
    pub(crate) elapsed: Duration,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) requests: Vec<RecordedRequest>,
    pub(crate) paths: RunPaths,
    pub(crate) dir: Option<TempDir>,
    /// What [`AgentOutcome::next_session`] needs to start another.
    pub(crate) next: Option<Session>,
}

impl AgentOutcome {
    /// The agent's exit status (through `timeout` and the fake model).
    pub fn status(&self) -> Option<ExitStatus> {
        self.status
    }

    /// Every request the fake model received, in order.
    pub fn requests(&self) -> &[RecordedRequest] {
        &self.requests
    }

    /// The conversation turns (`POST …/messages`, `…/chat/completions`).
    pub fn model_calls(&self) -> Vec<&RecordedRequest> {
        self.requests.iter().filter(|r| r.is_model_call()).collect()
    }

    /// The agent's working directory.
    pub fn work(&self) -> &Path {
        &self.paths.work
    }

    /// The run directory.
    pub fn dir(&self) -> &Path {
        &self.paths.root
    }

    /// The agent's stdout (stream-json / `--json` lines).
    pub fn stdout(&self) -> &str {
        &self.stdout
    }

    /// The stdout lines that are JSON objects.
    pub fn stdout_json(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(Value::is_object)
            .collect()
    }

    /// How long the run took (namespace, fake model and agent).
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    pub(crate) fn log_summary(&self) {
        eprintln!(
            "real agents: {:?} run in {} took {:.1}s, {} model calls, status {:?}",
            self.agent,
            self.paths.root.display(),
            self.elapsed.as_secs_f64(),
            self.model_calls().len(),
            self.status
        );
    }
}

impl fmt::Display for AgentOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:?} run in {} ({:.1}s): status {:?}",
            self.agent,
            self.paths.root.display(),
            self.elapsed.as_secs_f64(),
            self.status
        )?;
        for (i, request) in self.requests.iter().enumerate() {
            writeln!(
                f,
                "  request {i}: {} {} (turn {}) -> {}",
                request.method,
                request.path,
                request.turn(),
                request.reply
            )?;
        }
        writeln!(f, "--- agent stdout (tail) ---\n{}", tail(&self.stdout))?;
        write!(f, "--- agent stderr (tail) ---\n{}", tail(&self.stderr))
    }
}

impl Drop for AgentOutcome {
    fn drop(&mut self) {
        let keep = std::thread::panicking() || std::env::var_os(KEEP_ENV).is_some_and(|v| v == "1");
        if let (true, Some(dir)) = (keep, self.dir.take()) {
            eprintln!(
                "real agents: kept the run directory {}",
                dir.keep().display()
            );
        }
    }
}

/// The last few KiB of an output.
fn tail(text: &str) -> &str {
    const KEEP: usize = 6000;
    let mut start = text.len().saturating_sub(KEEP);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// What a next session of the same run keeps (see
/// [`AgentOutcome::next_session`]).
#[derive(Debug)]
pub(crate) struct Session {
    pub(super) fake_model: PathBuf,
    pub(super) shim: PathBuf,
    pub(super) env: Vec<(String, String)>,
    pub(super) claude: ClaudeCode,
    pub(super) installed: bool,
    pub(super) session: u32,
}
