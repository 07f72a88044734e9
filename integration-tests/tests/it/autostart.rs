//! The shim's autostart when the gateway cannot start (issue 27 §3): the
//! call is answered at once instead of at the shim's deadline (a slow path
//! would end as `unreachable`, so the recorded `autostart_failed` proves
//! the fast one), a fail-closed reply names the reason, the reason is
//! recorded where `gateway status` shows it, the status words what the
//! fallbacks did by the shims' real mode, and a fixed config starts the
//! gateway on the next call. And (§4) a first user config, written after
//! the autostarted gateway came up without one, takes effect without a
//! restart, and status names it.

use std::os::unix::fs::DirBuilderExt as _;
use std::path::{Path, PathBuf};

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::payloads;
use hookgate_integration_tests::{Autostarted, Shim, ShimOutput};

/// A HOME and a private socket directory for one test.
struct Setup {
    // First: the gateway a shim started goes before its directory.
    _gateway: Autostarted,
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::Builder::new()
            .prefix("hg-autostart-")
            .tempdir_in("/tmp")
            .expect("a temporary directory");
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(dir.path().join("run"))
            .expect("the socket directory");
        std::fs::create_dir(dir.path().join("home")).expect("HOME");
        Setup {
            _gateway: Autostarted::on(&dir.path().join("run/gateway.sock")),
            dir,
        }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("run/gateway.sock")
    }

    fn config(&self) -> PathBuf {
        self.home().join(".config/hookgate/gateway.toml")
    }

    fn write_config(&self, text: &str) {
        let path = self.config();
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("the config dir");
        std::fs::write(path, text).expect("the config");
    }

    /// One Claude Code PreToolUse through the shim with autostart on
    /// `gateway`, fail-closed.
    async fn call(&self, gateway: &Path) -> ShimOutput {
        self.run(gateway, "ls").await
    }

    /// [`Setup::call`] of `command`.
    async fn run(&self, gateway: &Path, command: &str) -> ShimOutput {
        Shim::new(&self.socket(), Some("claude-code"))
            .env("HOME", &self.home().display().to_string())
            .env("HOOKGATE_AUTOSTART", "1")
            .env("HOOKGATE_GATEWAY", &gateway.display().to_string())
            .fail_closed()
            .run(payloads::claude_bash(command))
            .await
    }

    /// The fallback record's lines, without their times.
    fn fallbacks(&self) -> Vec<String> {
        let path = self.dir.path().join("run/gateway.sock.fallbacks");
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .map(|line| line.split_once(' ').expect("a time").1.to_owned())
            .collect()
    }

    /// The start-failure record's reason.
    fn start_failure(&self) -> Option<String> {
        let path = self.dir.path().join("run/gateway.sock.start-failed");
        let text = std::fs::read_to_string(path).ok()?;
        Some(text.trim_end().split_once(' ')?.1.to_owned())
    }

    /// `gateway status --socket …` (no gateway runs): its stderr.
    fn status(&self) -> String {
        let out = std::process::Command::new(&binaries().gateway)
            .args(["status", "--socket"])
            .arg(self.socket())
            .env("HOME", self.home())
            .output()
            .expect("run gateway status");
        assert!(!out.status.success(), "no gateway runs");
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    /// `gateway status --json` of the gateway a shim started.
    fn status_json(&self) -> serde_json::Value {
        let out = std::process::Command::new(&binaries().gateway)
            .args(["status", "--json", "--socket"])
            .arg(self.socket())
            .output()
            .expect("run gateway status");
        serde_json::from_slice(&out.stdout).unwrap_or_default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_gateway_binary_is_the_answer_and_the_record() {
    let setup = Setup::new();
    let absent = setup.dir.path().join("moved/gateway");
    for _ in 0..2 {
        let out = setup.call(&absent).await;
        assert_eq!(out.code, Some(2), "blocked: {out}");
        let stdout = out.stdout_str();
        assert!(
            stdout.contains("could not be started") && stdout.contains("does not exist"),
            "the reply names the reason: {out}"
        );
        assert!(stdout.contains(&absent.display().to_string()), "{out}");
    }
    assert_eq!(
        setup.fallbacks(),
        ["autostart_failed closed", "autostart_failed closed"]
    );
    let reason = setup.start_failure().expect("a start-failure record");
    assert_eq!(
        reason,
        format!("the gateway {} does not exist", absent.display())
    );
    let status = setup.status();
    assert!(status.contains("last start failed"), "{status}");
    assert!(status.contains(&reason), "{status}");
    assert!(
        status.contains("(autostart_failed 2): 2 blocked (fail-closed)"),
        "worded by the shims' mode: {status}"
    );
    assert!(!status.contains("let through"), "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_config_is_the_answer_until_it_is_fixed() {
    let setup = Setup::new();
    setup.write_config("[server]\nqueue_wait_ms = \"soon\"\n");
    let gateway = &binaries().gateway;
    let out = setup.call(gateway).await;
    assert_eq!(out.code, Some(2), "blocked: {out}");
    let config = setup.config().display().to_string();
    let stdout = out.stdout_str();
    assert!(
        stdout.contains("could not be started") && stdout.contains("invalid config at"),
        "{out}"
    );
    assert!(
        stdout.contains(&format!("{config}:2:")),
        "file and line: {out}"
    );
    assert_eq!(setup.fallbacks(), ["autostart_failed closed"]);
    let reason = setup.start_failure().expect("a start-failure record");
    assert!(
        reason.starts_with(&format!("invalid config at {config}:2:")),
        "{reason}"
    );
    assert!(setup.status().contains(&reason));

    // Fixed: the next call starts the gateway, which answers, collects
    // the one earlier fallback and clears the record.
    setup.write_config("[server]\nqueue_wait_ms = 50\n");
    let out = setup.call(gateway).await;
    let status = setup.status_json();
    assert_eq!(out.code, Some(0), "answered by the gateway: {out}");
    assert_eq!(status["fallbacks"]["autostart_failed"], 1, "{status:#}");
    assert_eq!(setup.start_failure(), None, "cleared once it served");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_user_config_takes_effect_without_a_restart() {
    let setup = Setup::new();
    let gateway = &binaries().gateway;
    // No ~/.config at all: the autostarted gateway runs the embedded
    // default, and creates the directory it watches.
    let out = setup.run(gateway, "echo first-config-marker").await;
    assert_eq!(out.code, Some(0), "allowed by the default: {out}");
    let before = setup.status_json();
    assert_eq!(before["config"], "<embedded default config>", "{before:#}");
    assert!(setup.config().parent().unwrap().is_dir());

    setup.write_config(
        "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\n[[subscriber.rules]]\n\
         command = [\"echo\", \"first-config-marker\"]\nreason = \"HG-FIRST-CONFIG\"\n",
    );
    let config = setup.config().display().to_string();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        let status = setup.status_json();
        // The reload names its config a moment before it records itself.
        let done =
            status["config"] == config.as_str() && status["reload"]["last_result"].is_string();
        if done || std::time::Instant::now() > deadline {
            break status;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    let out = setup.run(gateway, "echo first-config-marker").await;
    assert_eq!(status["config"], config.as_str(), "{status:#}");
    assert_eq!(status["reload"]["last_trigger"], "watch", "{status:#}");
    assert_eq!(
        status["pid"], before["pid"],
        "the same gateway, not restarted"
    );
    assert!(
        out.stdout_str().contains("HG-FIRST-CONFIG"),
        "the new rule answers: {out}"
    );
}
