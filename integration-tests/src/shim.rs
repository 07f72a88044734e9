//! One real `gateway-shim` process, run the way an agent runs a hook.
//!
//! The shim runs with a cleared environment plus `PATH` and what the test
//! sets, so an agent variable that happens to be set on the machine running
//! the tests (`CLAUDE_PROJECT_DIR`, `CURSOR_*`, ...) cannot change which
//! dialect is detected.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use crate::binaries::binaries;

/// The shim's total deadline in tests: generous, because these tests check
/// correctness, not speed, and run on loaded 2-core machines. Tests about
/// the shim's own deadline override `HOOKGATE_TIMEOUT_MS`.
pub const TEST_SHIM_TIMEOUT_MS: &str = "20000";
/// The harness kills a shim that outlives this (and fails the test).
const HARNESS_DEADLINE: Duration = Duration::from_secs(60);

/// What the shim answered.
#[derive(Debug, Clone)]
pub struct ShimOutput {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// `None` when killed by a signal.
    pub code: Option<i32>,
}

impl ShimOutput {
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn stderr_str(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// Stdout as one JSON document; panics (with the whole output) if it is
    /// not exactly that.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.stdout)
            .unwrap_or_else(|err| panic!("shim stdout is not one JSON document ({err}): {self}"))
    }
}

impl std::fmt::Display for ShimOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}, stdout {:?}, stderr {:?}",
            self.code,
            self.stdout_str(),
            self.stderr_str()
        )
    }
}

/// A shim invocation, built up then [`Shim::run`].
#[derive(Debug, Clone)]
pub struct Shim {
    program: PathBuf,
    /// A command the shim runs under (e.g. `setpriv ... --`).
    wrapper: Vec<String>,
    /// The shim's arguments.
    args: Vec<String>,
    envs: Vec<(String, String)>,
}

impl Shim {
    /// The shim talking to `socket`, with `agent` as its arguments, split
    /// at spaces (`cursor`, `copilot preToolUse`; none: the gateway detects
    /// the agent).
    pub fn new(socket: &Path, agent: Option<&str>) -> Shim {
        Shim::of(&binaries().shim, socket, agent)
    }

    /// Like [`Shim::new`], running `program` (e.g. the static release
    /// build) without looking for the binaries under test at all.
    pub fn of(program: &Path, socket: &Path, agent: Option<&str>) -> Shim {
        Shim {
            program: program.to_path_buf(),
            wrapper: Vec::new(),
            args: agent
                .map(|words| words.split_whitespace().map(str::to_owned).collect())
                .unwrap_or_default(),
            envs: vec![
                ("HOOKGATE_SOCKET".into(), socket.display().to_string()),
                ("HOOKGATE_TIMEOUT_MS".into(), TEST_SHIM_TIMEOUT_MS.into()),
            ],
        }
    }

    /// Sets (or replaces) an environment variable.
    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.envs.retain(|(n, _)| n != name);
        self.envs.push((name.to_owned(), value.to_owned()));
        self
    }

    /// `HOOKGATE_FAIL=closed`.
    pub fn fail_closed(self) -> Self {
        self.env("HOOKGATE_FAIL", "closed")
    }

    /// Runs another copy of the shim binary (e.g. one another user can read).
    pub fn program(mut self, program: &Path) -> Self {
        self.program = program.to_path_buf();
        self
    }

    /// Runs the shim under `wrapper` (`wrapper[0]` is the program).
    pub fn wrapped(mut self, wrapper: &[&str]) -> Self {
        self.wrapper = wrapper.iter().map(|s| (*s).to_owned()).collect();
        self
    }

    /// Runs the shim with `payload` on stdin and returns its output. Panics
    /// if it cannot be spawned or outlives the harness deadline.
    pub async fn run(&self, payload: impl AsRef<[u8]>) -> ShimOutput {
        let mut command = match self.wrapper.split_first() {
            Some((program, args)) => {
                let mut command = Command::new(program);
                command.args(args).arg(&self.program);
                command
            }
            None => Command::new(&self.program),
        };
        command.args(&self.args);
        command.env_clear();
        if let Some(path) = std::env::var_os("PATH") {
            command.env("PATH", path);
        }
        command
            .envs(self.envs.iter().map(|(n, v)| (n, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command
            .spawn()
            .unwrap_or_else(|err| panic!("spawn {}: {err}", self.program.display()));
        let mut stdin = child.stdin.take().expect("piped stdin");
        let payload = payload.as_ref().to_vec();
        // The shim may answer without reading everything (e.g. an oversized
        // payload): a broken pipe here is its business, not the test's.
        let writer = tokio::spawn(async move {
            let _ = stdin.write_all(&payload).await;
            let _ = stdin.shutdown().await;
        });
        let output = tokio::time::timeout(HARNESS_DEADLINE, child.wait_with_output())
            .await
            .unwrap_or_else(|_| panic!("gateway-shim still running after {HARNESS_DEADLINE:?}"))
            .expect("wait for gateway-shim");
        let _ = writer.await;
        ShimOutput {
            stdout: output.stdout,
            stderr: output.stderr,
            code: output.status.code(),
        }
    }
}
