//! A real `gateway serve` process for the bench: its private socket
//! directory, its config (listing only what is measured), its RSS.
//!
//! Stopped with SIGTERM (then SIGKILL after a grace period) on drop.

use std::fmt::Write as _;
use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use tempfile::TempDir;

/// How long a gateway may take to accept connections.
const READY_DEADLINE: Duration = Duration::from_secs(15);
/// How long a gateway may take to stop after SIGTERM.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// Every connection slot the gateway allows: the bench's clients must
/// never be refused for lack of one.
const MAX_CONNECTIONS: usize = 1024;

/// One decide subscriber of the bench config.
#[derive(Debug, Clone)]
pub(crate) struct Decider {
    pub(crate) endpoint: String,
    pub(crate) timeout: Duration,
}

/// The config of a gateway that asks exactly `deciders` (nothing else: no
/// built-in guard or audit).
pub(crate) fn config_toml(deciders: &[Decider]) -> String {
    let mut toml = format!("[server]\nmax_connections = {MAX_CONNECTIONS}\n");
    for (i, decider) in deciders.iter().enumerate() {
        let _ = write!(
            toml,
            "\n[[subscriber]]\nname = \"bench-{i}\"\nendpoint = \"{}\"\nmode = \"decide\"\ntimeout_ms = {}\non_error = \"allow\"\n",
            decider.endpoint,
            decider.timeout.as_millis()
        );
    }
    toml
}

/// A new directory in /tmp, mode 0700 as the gateway and the shim expect
/// of a socket's directory (tempfile leaves the mode to the umask).
pub(crate) fn private_dir(prefix: &str) -> anyhow::Result<TempDir> {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in("/tmp")
        .context("creating a socket directory")?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .context("making the socket directory private")?;
    Ok(dir)
}

/// A running gateway.
#[derive(Debug)]
pub(crate) struct Gateway {
    child: Child,
    binary: PathBuf,
    socket: PathBuf,
    stderr_path: PathBuf,
    // Last: removed after the process is gone.
    _dir: TempDir,
}

impl Gateway {
    /// Starts `gateway serve --config <file> --socket <path>` and returns
    /// once the socket accepts connections.
    pub(crate) fn start(binary: &Path, config_toml: &str) -> anyhow::Result<Gateway> {
        Gateway::launch(binary, &hookgate_integration_tests::standalone(config_toml))
    }

    /// A gateway on the embedded default config as it ships (guard,
    /// self-protection, decision log), loaded as a user's is: an empty
    /// user file over the embedded layer. Its decision log goes to the
    /// gateway's own directory (`XDG_STATE_HOME`).
    pub(crate) fn start_default(binary: &Path) -> anyhow::Result<Gateway> {
        Gateway::launch(binary, "")
    }

    /// Starts `gateway serve --config <file> --socket <path>` with `config`
    /// as the file; the gateway's directory is also its config and state
    /// home.
    fn launch(binary: &Path, config: &str) -> anyhow::Result<Gateway> {
        // Short path in /tmp: Unix socket paths must stay under 108 bytes.
        let dir = private_dir("hookbench-")?;
        let socket = dir.path().join("gateway.sock");
        let config_path = dir.path().join("gateway.toml");
        let stderr_path = dir.path().join("gateway.stderr");
        std::fs::write(&config_path, config).context("writing the gateway config")?;
        let stderr = File::create(&stderr_path).context("creating the gateway stderr file")?;
        let child = Command::new(binary)
            .args(["--log-level", "warn", "serve", "--config"])
            .arg(&config_path)
            .arg("--socket")
            .arg(&socket)
            .env("XDG_CONFIG_HOME", dir.path())
            .env("XDG_STATE_HOME", dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        let mut gateway = Gateway {
            child,
            binary: binary.to_path_buf(),
            socket,
            stderr_path,
            _dir: dir,
        };
        gateway.wait_ready()?;
        Ok(gateway)
    }

    fn wait_ready(&mut self) -> anyhow::Result<()> {
        let deadline = Instant::now() + READY_DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait()? {
                bail!("gateway exited {status} at startup:\n{}", self.stderr());
            }
            if std::os::unix::net::UnixStream::connect(&self.socket).is_ok() {
                return Ok(());
            }
            if Instant::now() > deadline {
                bail!(
                    "gateway not ready after {READY_DEADLINE:?}:\n{}",
                    self.stderr()
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub(crate) fn socket(&self) -> &Path {
        &self.socket
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `gateway status --json` of this gateway.
    pub(crate) fn status_json(&self) -> anyhow::Result<serde_json::Value> {
        let output = Command::new(&self.binary)
            .arg("status")
            .arg("--socket")
            .arg(&self.socket)
            .arg("--json")
            .output()
            .context("running gateway status")?;
        if !output.status.success() {
            bail!(
                "gateway status failed: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        serde_json::from_slice(&output.stdout).context("gateway status --json is not JSON")
    }

    /// PreToolUse events the gateway answered, by `gateway status`.
    pub(crate) fn pre_tool_events(&self) -> anyhow::Result<u64> {
        let status = self.status_json()?;
        let events = status["events"]
            .as_array()
            .context("status without events")?;
        Ok(events
            .iter()
            .filter(|e| e["event"] == "pre_tool_use")
            .filter_map(|e| e["count"].as_u64())
            .sum())
    }

    /// What the gateway logged (warnings and errors).
    pub(crate) fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    /// Fails if the gateway has died.
    pub(crate) fn check_alive(&mut self) -> anyhow::Result<()> {
        if let Some(status) = self.child.try_wait()? {
            bail!("gateway exited {status}:\n{}", self.stderr());
        }
        Ok(())
    }

    /// The shim's fallback record next to the socket: it exists only if
    /// some shim call did not get the gateway's answer.
    pub(crate) fn fallback_record(&self) -> Option<String> {
        let mut name = self.socket.as_os_str().to_owned();
        name.push(".fallbacks");
        std::fs::read_to_string(PathBuf::from(name)).ok()
    }

    /// Resident set size, its peak and its two parts (the process's own
    /// memory and mapped files), in KiB, from `/proc/<pid>/status`.
    pub(crate) fn memory(&self) -> anyhow::Result<Memory> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .context("reading the gateway's /proc status")?;
        let field = |name: &str| -> anyhow::Result<u64> {
            let line = status
                .lines()
                .find(|l| l.starts_with(name))
                .with_context(|| format!("{name} missing from /proc status"))?;
            line[name.len()..]
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .with_context(|| format!("parsing {line:?}"))
        };
        Ok(Memory {
            rss_kib: field("VmRSS:")?,
            hwm_kib: field("VmHWM:")?,
            anon_kib: field("RssAnon:")?,
            file_kib: field("RssFile:")?,
        })
    }
}

/// CPU time (user + system, all threads) a process has used so far, from
/// `/proc/<pid>/stat` (`self` for the bench itself), in USER_HZ = 100 ticks.
pub(crate) fn cpu_time(pid: &str) -> anyhow::Result<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .with_context(|| format!("reading /proc/{pid}/stat"))?;
    // Fields after the parenthesized command name: state is field 3,
    // utime field 14 and stime field 15.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .context("malformed /proc stat")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| -> anyhow::Result<u64> {
        fields
            .get(i)
            .context("short /proc stat")?
            .parse()
            .context("parsing /proc stat")
    };
    let total = ticks(11)? + ticks(12)?;
    Ok(Duration::from_millis(total * 10))
}

/// A memory reading.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Memory {
    pub(crate) rss_kib: u64,
    pub(crate) hwm_kib: u64,
    /// The process's own memory (heap, stacks).
    pub(crate) anon_kib: u64,
    /// Pages of files mapped in, mostly the gateway binary's: shared with
    /// the page cache, and counted in VmRSS.
    pub(crate) file_kib: u64,
}

impl Drop for Gateway {
    fn drop(&mut self) {
        // Warnings mean some measured events took an error path: show them.
        let logged = self.stderr();
        if !logged.trim().is_empty() {
            eprintln!("hookbench: gateway {} logged:", self.pid());
            for line in logged.lines().take(10) {
                eprintln!("  {line}");
            }
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let deadline = Instant::now() + STOP_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
