//! A real `gateway serve` process per test, on a private socket.
//!
//! Each gateway gets its own short temp directory (Unix socket paths must
//! stay under 108 bytes, so it lives in `/tmp`, not `$TMPDIR`), its config
//! file and a file for its stderr, which failure messages quote. The
//! process is killed and reaped on drop, so a failing test leaves nothing
//! behind.

use std::fs::File;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tempfile::TempDir;
use tokio::time::Instant;

use crate::binaries::binaries;
use crate::config::standalone;
use crate::shim::Shim;

/// How long the gateway may take to accept connections.
const READY_DEADLINE: Duration = Duration::from_secs(10);
/// Pause between readiness probes (bounded polling, not synchronization).
const READY_POLL: Duration = Duration::from_millis(20);

/// A running gateway.
#[derive(Debug)]
pub struct TestGateway {
    child: Child,
    socket: PathBuf,
    stderr_path: PathBuf,
    // Last: removed after the process is gone.
    dir: TempDir,
}

impl TestGateway {
    /// Writes `config_toml` ([`standalone`]: the embedded default's
    /// subscribers removed), starts `gateway serve --config <file> --socket
    /// <path>` and returns once the socket accepts connections. Panics with
    /// the gateway's stderr if it exits or is not ready in time.
    pub async fn start(config_toml: &str) -> TestGateway {
        TestGateway::start_in(private_dir(), config_toml, &[]).await
    }

    /// Like [`TestGateway::start`], in `dir` (made by [`private_dir`]; the
    /// socket is [`TestGateway::socket_in`] of it, so a test can use that
    /// path before the gateway runs) and with `extra_args` after `serve`.
    pub async fn start_in(dir: TempDir, config_toml: &str, extra_args: &[&str]) -> TestGateway {
        let config = dir.path().join("gateway.toml");
        std::fs::write(&config, standalone(config_toml)).expect("write gateway config");
        let mut args = vec![std::ffi::OsStr::new("--config"), config.as_os_str()];
        args.extend(extra_args.iter().map(std::ffi::OsStr::new));
        TestGateway::spawn(&binaries().gateway, dir, &args, &[]).await
    }

    /// Like [`TestGateway::start_in`], with `system_toml` as the managed
    /// system config (`HOOKGATE_SYSTEM_CONFIG`, see
    /// [`TestGateway::system_config_in`]) under `config_toml`.
    pub async fn start_managed(system_toml: &str, config_toml: &str) -> TestGateway {
        let dir = private_dir();
        std::fs::write(TestGateway::system_config_in(dir.path()), system_toml)
            .expect("write the system config");
        TestGateway::start_in(dir, config_toml, &[]).await
    }

    /// The system config a gateway started in `dir` reads: every test
    /// gateway gets its own (absent unless written), so a machine's
    /// `/etc/hookgate/gateway.toml` never leaks into a test.
    pub fn system_config_in(dir: &Path) -> PathBuf {
        dir.join("system.toml")
    }

    /// Like [`TestGateway::start`], with `env` set for the gateway (a
    /// `RUST_LOG` there overrides the harness's `info`).
    pub async fn start_with_env(config_toml: &str, env: &[(&str, &str)]) -> TestGateway {
        let dir = private_dir();
        let config = dir.path().join("gateway.toml");
        std::fs::write(&config, standalone(config_toml)).expect("write gateway config");
        let args = [std::ffi::OsStr::new("--config"), config.as_os_str()];
        let env: Vec<(&str, std::ffi::OsString)> =
            env.iter().map(|(k, v)| (*k, (*v).into())).collect();
        TestGateway::spawn(&binaries().gateway, dir, &args, &env).await
    }

    /// A gateway with no config file at all: it runs the embedded default
    /// (`guard` and `audit`). `$HOME` is [`TestGateway::home`] and the audit
    /// log is [`TestGateway::audit_log`], both inside the gateway's
    /// directory.
    pub async fn start_embedded() -> TestGateway {
        let dir = private_dir();
        let home = dir.path().join("home");
        std::fs::create_dir(&home).expect("create the test home");
        TestGateway::embedded(&binaries().gateway, dir, &home).await
    }

    /// Like [`TestGateway::start_embedded`], with `$HOME` set to `home`
    /// (it need not exist: the guard only compares paths with it, so a
    /// payload's `/home/dev/...` can be the user's home) and `program` as
    /// the gateway binary (e.g. a release build), not the one under test.
    pub async fn start_embedded_as(program: &Path, home: &Path) -> TestGateway {
        TestGateway::embedded(program, private_dir(), home).await
    }

    /// Like [`TestGateway::start_embedded_as`], with `config_toml`
    /// ([`standalone`]: only what it names runs) as its config file.
    pub async fn start_configured_as(
        program: &Path,
        home: &Path,
        config_toml: &str,
    ) -> TestGateway {
        TestGateway::in_home(program, private_dir(), home, Some(&standalone(config_toml))).await
    }

    async fn embedded(program: &Path, dir: TempDir, home: &Path) -> TestGateway {
        TestGateway::in_home(program, dir, home, None).await
    }

    /// `program` with `$HOME` at `home`, its state (and so its default
    /// decision log) in `dir`, and `config` as its config file if any.
    async fn in_home(
        program: &Path,
        dir: TempDir,
        home: &Path,
        config: Option<&str>,
    ) -> TestGateway {
        let state = dir.path().join("state");
        let env = [
            ("HOME", home.as_os_str().to_owned()),
            ("XDG_STATE_HOME", state.into_os_string()),
        ];
        let path = dir.path().join("gateway.toml");
        let mut args = Vec::new();
        if let Some(text) = config {
            std::fs::write(&path, text).expect("write gateway config");
            args = vec![std::ffi::OsStr::new("--config"), path.as_os_str()];
        }
        TestGateway::spawn(program, dir, &args, &env).await
    }

    /// A gateway whose config file is `config_toml` as written, over the
    /// embedded default (as a user's file is, not [`standalone`]); `$HOME`
    /// and the audit log as for [`TestGateway::start_embedded`].
    pub async fn start_over_default(config_toml: &str) -> TestGateway {
        let dir = private_dir();
        let home = dir.path().join("home");
        std::fs::create_dir(&home).expect("create the test home");
        TestGateway::in_home(&binaries().gateway, dir, &home, Some(config_toml)).await
    }

    /// The home directory of a [`TestGateway::start_embedded`] gateway.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// The audit log of a [`TestGateway::start_embedded`] gateway.
    pub fn audit_log(&self) -> PathBuf {
        self.dir
            .path()
            .join("state")
            .join("hookgate")
            .join("audit.jsonl")
    }

    /// Starts `program serve --socket <dir>/gateway.sock ARGS` with `env`;
    /// `$XDG_CONFIG_HOME` is `dir`, so only an explicit `--config` gives it
    /// a config file.
    async fn spawn(
        program: &Path,
        dir: TempDir,
        args: &[&std::ffi::OsStr],
        env: &[(&str, std::ffi::OsString)],
    ) -> TestGateway {
        let socket = TestGateway::socket_in(dir.path());
        let stderr_path = dir.path().join("gateway.stderr");
        let stderr = File::create(&stderr_path).expect("create gateway stderr file");
        let mut command = Command::new(program);
        command
            .arg("serve")
            .arg("--socket")
            .arg(&socket)
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("XDG_CONFIG_HOME", dir.path())
            .env("HOOKGATE_SOCKET", &socket)
            .env(
                "HOOKGATE_SYSTEM_CONFIG",
                TestGateway::system_config_in(dir.path()),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr);
        if std::env::var_os("RUST_LOG").is_none() && !env.iter().any(|(k, _)| *k == "RUST_LOG") {
            command.env("RUST_LOG", "info");
        }
        let child = command.spawn().expect("spawn the gateway binary");
        let mut gateway = TestGateway {
            child,
            socket,
            stderr_path,
            dir,
        };
        gateway.wait_ready().await;
        gateway
    }

    async fn wait_ready(&mut self) {
        let deadline = Instant::now() + READY_DEADLINE;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "gateway exited ({status}) before accepting connections; stderr:\n{}",
                    self.stderr()
                );
            }
            // Ready when both the hook socket and the admin socket (bound
            // a moment later, in `serve`) accept connections.
            let mut admin = self.socket.clone().into_os_string();
            admin.push(".admin");
            if tokio::net::UnixStream::connect(&self.socket).await.is_ok()
                && tokio::net::UnixStream::connect(&admin).await.is_ok()
            {
                return;
            }
            if Instant::now() >= deadline {
                panic!(
                    "gateway did not accept connections on {} within {:?}; stderr:\n{}",
                    self.socket.display(),
                    READY_DEADLINE,
                    self.stderr()
                );
            }
            tokio::time::sleep(READY_POLL).await;
        }
    }

    /// The socket path a gateway started in `dir` listens on.
    pub fn socket_in(dir: &Path) -> PathBuf {
        dir.join("gateway.sock")
    }

    /// Kills the gateway with SIGKILL (no cleanup: its socket files stay
    /// behind) and waits until it is gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the gateway as a restart would (SIGTERM, waiting for the
    /// exit) and hands back its directory, so the next gateway can start
    /// in it ([`TestGateway::start_in`]): same socket, same files kept
    /// beside it.
    pub async fn stop_keeping_dir(mut self) -> TempDir {
        let code = self.terminate().await;
        assert_eq!(
            code,
            Some(0),
            "the gateway's orderly exit; stderr:\n{}",
            self.stderr()
        );
        // A placeholder takes the directory's place; dropping `self` then
        // removes only that.
        std::mem::replace(&mut self.dir, private_dir())
    }

    /// Sends SIGTERM (with `kill(1)`) and waits for the exit; returns the
    /// exit code (`None`: killed by a signal). Polls: the caller bounds
    /// the wait.
    pub async fn terminate(&mut self) -> Option<i32> {
        self.signal("-TERM");
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            tokio::time::sleep(READY_POLL).await;
        }
    }

    /// Sends SIGHUP (with `kill(1)`): a reload, not an exit.
    pub fn hangup(&self) {
        self.signal("-HUP");
    }

    /// `kill SIGNAL <pid>`.
    fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .arg(signal)
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill {signal} failed");
    }

    /// Whether the gateway process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The config file of a gateway started with one ([`TestGateway::start`]).
    pub fn config_path(&self) -> PathBuf {
        self.dir.path().join("gateway.toml")
    }

    /// Replaces the config file in one step (write aside, rename), as a
    /// careful editor or deploy tool does, so no reader sees half a file;
    /// [`standalone`], like the config the gateway started with.
    pub fn write_config(&self, text: &str) {
        let aside = self.dir.path().join(".gateway.toml.new");
        std::fs::write(&aside, standalone(text)).expect("write the new config");
        std::fs::rename(&aside, self.config_path()).expect("rename the new config");
    }

    /// Replaces the system config in one step, like [`TestGateway::write_config`].
    pub fn write_system_config(&self, text: &str) {
        let aside = self.dir.path().join(".system.toml.new");
        std::fs::write(&aside, text).expect("write the new system config");
        std::fs::rename(&aside, TestGateway::system_config_in(self.dir.path()))
            .expect("rename the new system config");
    }

    /// `gateway reload --socket ...` (the real binary): its exit code,
    /// stdout and stderr.
    pub async fn reload(&self) -> (Option<i32>, String, String) {
        let socket = self.socket.display().to_string();
        run_gateway(&["reload", "--socket", &socket]).await
    }

    /// The gateway's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `gateway status --json` of this gateway (the real binary), parsed;
    /// panics with its stderr if it fails.
    pub async fn status_json(&self) -> serde_json::Value {
        let out = tokio::process::Command::new(&binaries().gateway)
            .arg("status")
            .arg("--socket")
            .arg(&self.socket)
            .arg("--json")
            .output()
            .await
            .expect("run gateway status");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "gateway status failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("not JSON ({err}): {stdout}"))
    }

    /// The gateway's socket path.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// The gateway's private temp directory (socket, config, stderr).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Everything the gateway wrote to stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read(&self.stderr_path)
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_else(|err| format!("<stderr unreadable: {err}>"))
    }

    /// A shim invocation aimed at this gateway.
    pub fn shim(&self, agent: Option<&str>) -> Shim {
        Shim::new(&self.socket, agent)
    }

    /// Polls the gateway's stderr until `predicate` holds for it, up to
    /// `deadline`. Returns whether it did.
    pub async fn wait_for_stderr(
        &self,
        deadline: Duration,
        predicate: impl Fn(&str) -> bool,
    ) -> bool {
        let until = Instant::now() + deadline;
        loop {
            if predicate(&self.stderr()) {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(READY_POLL).await;
        }
    }
}

impl Drop for TestGateway {
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            eprintln!(
                "---- gateway stderr ----\n{}\n---- end gateway stderr ----",
                self.stderr()
            );
        }
    }
}

/// A fresh 0700 directory with a short path.
pub fn private_dir() -> TempDir {
    let dir = tempfile::Builder::new()
        .prefix("hg-")
        .tempdir_in("/tmp")
        .expect("create a temp dir in /tmp");
    // tempfile leaves the mode to the umask (often 0755).
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .expect("chmod 0700 the temp dir");
    dir
}

/// Runs the real `gateway` binary with `args`: its exit code, stdout and
/// stderr.
pub async fn run_gateway(args: &[&str]) -> (Option<i32>, String, String) {
    let out = tokio::process::Command::new(&binaries().gateway)
        .args(args)
        .output()
        .await
        .expect("run the gateway binary");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
