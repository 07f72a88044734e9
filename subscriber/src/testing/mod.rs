//! The test kit: a subscriber tested without an agent.
//!
//! [`Kit::start`] serves the handlers on a private Unix socket, starts a
//! real `gateway` whose only subscriber they are, and runs the real
//! `gateway-shim` the way an agent runs its hook, so
//! `kit.shell("claude-code", "terraform destroy")` is exactly what Claude
//! Code would receive. [`samples`] lists every agent's sample payloads of
//! the hookgate repository, each of which [`Kit::run`] sends.
//!
//! ```no_run
//! # async fn t() -> Result<(), hookgate_subscriber::testing::KitError> {
//! use hookgate_subscriber::{Subscriber, deny, none, testing::Kit};
//! let app = Subscriber::new().on_pre_tool_use(|e| {
//!     if e.runs("terraform", &["destroy"]) { deny("no terraform destroy") } else { none() }
//! });
//! let kit = Kit::start(app).await?;
//! let reply = kit.shell("claude-code", "terraform destroy -auto-approve").await?;
//! assert!(reply.says("no terraform destroy"));
//! kit.stop().await;
//! # Ok(()) }
//! ```
//!
//! Where things are: see [`repository`] and [`binaries`].

#![expect(
    clippy::disallowed_methods,
    reason = "test support: writes the kit's config and reads the gateway's log"
)]

mod samples;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::{Child, Command};

use crate::{Decision, Event, ServeOptions, Server, Subscriber};

pub use samples::{Sample, binaries, repository, sample, samples, shell_call, shell_dialects};

/// How long the gateway waits for the subscriber, in the kit's config.
pub const SUBSCRIBER_TIMEOUT_MS: u64 = 10_000;
/// The shim's own deadline (generous: a kit tests answers, not speed).
pub const SHIM_TIMEOUT_MS: u64 = 20_000;
const READY: Duration = Duration::from_secs(15);

/// The kit could not run, or the handler failed on a call.
#[derive(Debug, Clone, thiserror::Error)]
#[error("hookgate test kit: {0}")]
pub struct KitError(pub String);

/// What the agent receives from its hook command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Reply {
    /// Stdout as JSON (`None` when it is empty or not JSON).
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.stdout).ok()
    }

    /// Does the agent receive `text` anywhere (stdout, stderr, or a string
    /// inside stdout's JSON)?
    pub fn says(&self, text: &str) -> bool {
        fn strings(v: &serde_json::Value, text: &str) -> bool {
            match v {
                serde_json::Value::String(s) => s.contains(text),
                serde_json::Value::Array(items) => items.iter().any(|i| strings(i, text)),
                serde_json::Value::Object(map) => map.values().any(|i| strings(i, text)),
                _ => false,
            }
        }
        self.stdout.contains(text)
            || self.stderr.contains(text)
            || self.json().is_some_and(|v| strings(&v, text))
    }
}

/// What the kit recorded.
#[derive(Debug, Default)]
struct Record {
    events: Vec<Event>,
    decisions: Vec<Decision>,
}

/// Handlers behind a real gateway; see the module's documentation.
#[derive(Debug)]
pub struct Kit {
    record: Arc<Mutex<Record>>,
    /// The kit's own server (`None` in front of an outside subscriber).
    server: Option<Server>,
    gateway: Child,
    shim: PathBuf,
    // Last: removed after the processes are gone.
    dir: tempfile::TempDir,
}

impl Kit {
    /// Serves `app` and starts a gateway in front of it.
    pub async fn start(app: Subscriber) -> Result<Kit, KitError> {
        Kit::start_with(app, None).await
    }

    /// [`Kit::start`], with a bearer token the gateway sends and the
    /// subscriber requires.
    pub async fn start_with(app: Subscriber, token: Option<&str>) -> Result<Kit, KitError> {
        let dir = private_dir()?;
        let record = Arc::new(Mutex::new(Record::default()));
        let app = Arc::new(app);
        let seen = Arc::clone(&record);
        let recording = Subscriber::new().on_event_async(move |event| {
            let (app, seen) = (Arc::clone(&app), Arc::clone(&seen));
            async move {
                if let Ok(mut r) = seen.lock() {
                    r.events.push(event.clone());
                }
                let decision = app.decide(event).await;
                if let Ok(mut r) = seen.lock() {
                    r.decisions.push(decision.clone());
                }
                decision
            }
        });
        let mut options = ServeOptions::default();
        if let Some(token) = token {
            options = options.token(token);
        }
        let address = format!("unix:{}", dir.path().join("subscriber.sock").display());
        let server = recording
            .start(&address, options)
            .await
            .map_err(|e| KitError(e.to_string()))?;
        let endpoint = server.endpoint().to_owned();
        Kit::gateway(dir, record, Some(server), &endpoint, token).await
    }

    /// A gateway in front of a subscriber served elsewhere (`endpoint` as
    /// the gateway's config spells it: `unix:///path`, `http://host:port`).
    /// Its events and decisions are not recorded.
    pub async fn front(endpoint: &str, token: Option<&str>) -> Result<Kit, KitError> {
        let record = Arc::new(Mutex::new(Record::default()));
        Kit::gateway(private_dir()?, record, None, endpoint, token).await
    }

    async fn gateway(
        dir: tempfile::TempDir,
        record: Arc<Mutex<Record>>,
        server: Option<Server>,
        endpoint: &str,
        token: Option<&str>,
    ) -> Result<Kit, KitError> {
        let (gateway, shim) = binaries()?;
        let config = dir.path().join("gateway.toml");
        let endpoint = serde_json::Value::String(endpoint.to_owned());
        let token_line = if token.is_some() {
            "token_env = \"HOOKGATE_KIT_TOKEN\"\n"
        } else {
            ""
        };
        std::fs::write(
            &config,
            format!(
                "# Written by the hookgate test kit.\n[[subscriber]]\nname = \"kit\"\n\
                 endpoint = {endpoint}\nmode = \"decide\"\ntimeout_ms = {SUBSCRIBER_TIMEOUT_MS}\n\
                 on_error = \"allow\"\n{token_line}"
            ),
        )
        .map_err(|e| KitError(format!("write the gateway config: {e}")))?;
        let socket = dir.path().join("gateway.sock");
        let stderr = std::fs::File::create(dir.path().join("gateway.stderr"))
            .map_err(|e| KitError(format!("the gateway's stderr file: {e}")))?;
        let mut command = Command::new(&gateway);
        command
            .arg("serve")
            .arg("--socket")
            .arg(&socket)
            .arg("--config")
            .arg(&config)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("XDG_CONFIG_HOME", dir.path())
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .env("HOOKGATE_SYSTEM_CONFIG", dir.path().join("system.toml"))
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .kill_on_drop(true);
        if let Some(home) = std::env::var_os("HOME") {
            command.env("HOME", home);
        }
        if let Some(token) = token {
            command.env("HOOKGATE_KIT_TOKEN", token);
        }
        let gateway = command
            .spawn()
            .map_err(|e| KitError(format!("start {}: {e}", gateway.display())))?;
        let mut kit = Kit {
            record,
            server,
            gateway,
            shim,
            dir,
        };
        kit.wait_ready(&socket).await?;
        Ok(kit)
    }

    async fn wait_ready(&mut self, socket: &Path) -> Result<(), KitError> {
        let deadline = tokio::time::Instant::now() + READY;
        let mut admin = socket.as_os_str().to_owned();
        admin.push(".admin");
        loop {
            if let Ok(Some(status)) = self.gateway.try_wait() {
                return Err(KitError(format!(
                    "the gateway exited ({status}) before listening:\n{}",
                    self.gateway_log()
                )));
            }
            if accepts(socket).await && accepts(Path::new(&admin)).await {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                return Err(KitError(format!(
                    "the gateway did not listen within {READY:?}:\n{}",
                    self.gateway_log()
                )));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The gateway's hook socket.
    pub fn socket(&self) -> PathBuf {
        self.dir.path().join("gateway.sock")
    }

    /// What the gateway wrote to stderr so far.
    pub fn gateway_log(&self) -> String {
        std::fs::read(self.dir.path().join("gateway.stderr"))
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }

    /// Every event the handlers received, in order.
    pub fn events(&self) -> Vec<Event> {
        self.record
            .lock()
            .map(|r| r.events.clone())
            .unwrap_or_default()
    }

    /// What the handlers answered, in order.
    pub fn decisions(&self) -> Vec<Decision> {
        self.record
            .lock()
            .map(|r| r.decisions.clone())
            .unwrap_or_default()
    }

    /// Stops the gateway and the subscriber.
    pub async fn stop(mut self) {
        let _ = self.gateway.start_kill();
        let _ = self.gateway.wait().await;
        if let Some(server) = self.server {
            let _ = server.stop().await;
        }
    }

    /// Runs the shim as the agent would, with `sample`.
    pub async fn run(&self, sample: &Sample) -> Result<Reply, KitError> {
        self.run_raw(&sample.args, &sample.payload).await
    }

    /// Runs the shim with `args` (`["claude-code"]`, `["copilot",
    /// "preToolUse"]`) and `payload` on stdin.
    pub async fn run_raw(&self, args: &[String], payload: &[u8]) -> Result<Reply, KitError> {
        let errors_before = self.errors();
        let mut shim = Command::new(&self.shim)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOOKGATE_SOCKET", self.socket())
            .env("HOOKGATE_TIMEOUT_MS", SHIM_TIMEOUT_MS.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| KitError(format!("start the shim: {e}")))?;
        if let Some(mut stdin) = shim.stdin.take() {
            let payload = payload.to_vec();
            // The shim may answer before reading it all.
            tokio::spawn(async move {
                let _ = stdin.write_all(&payload).await;
            });
        }
        let limit = Duration::from_millis(SHIM_TIMEOUT_MS) + Duration::from_secs(30);
        let out = tokio::time::timeout(limit, shim.wait_with_output())
            .await
            .map_err(|_| KitError(format!("the shim still ran after {limit:?}")))?
            .map_err(|e| KitError(format!("wait for the shim: {e}")))?;
        if let Some(server) = &self.server
            && let Ok(errors) = server.stats().errors.lock()
            && errors.len() > errors_before
            && let Some((id, what)) = errors.last()
        {
            return Err(KitError(format!("on event {id}: {what}")));
        }
        Ok(Reply {
            exit_code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }

    fn errors(&self) -> usize {
        self.server
            .as_ref()
            .and_then(|s| s.stats().errors.lock().ok().map(|e| e.len()))
            .unwrap_or(0)
    }

    /// What `dialect`'s agent receives when its shell tool is about to run
    /// `command`.
    pub async fn shell(&self, dialect: &str, command: &str) -> Result<Reply, KitError> {
        self.run(&shell_call(dialect, command)?).await
    }

    /// What the agent receives for one sample (`"codex/SessionStart"`).
    pub async fn sample(&self, path: &str) -> Result<Reply, KitError> {
        self.run(&sample(path)?).await
    }
}

/// A fresh 0700 directory with a short path (Unix socket paths are
/// limited to ~100 bytes).
fn private_dir() -> Result<tempfile::TempDir, KitError> {
    let dir = tempfile::Builder::new()
        .prefix("hgkit-")
        .tempdir_in("/tmp")
        .map_err(|e| KitError(format!("a private directory: {e}")))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
            .map_err(|e| KitError(format!("chmod the private directory: {e}")))?;
    }
    Ok(dir)
}

async fn accepts(path: &Path) -> bool {
    #[cfg(unix)]
    {
        tokio::net::UnixStream::connect(path).await.is_ok()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}
