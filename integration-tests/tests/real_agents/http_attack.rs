//! Issue 24, finding 1, with the real Claude Code: another local user
//! (`nobody`) goes after the HTTP hook port. Held by the service manager
//! from the start (`hookgate-http.socket`; here systemd's own
//! `systemd-socket-activate`, which starts the gateway on the first call
//! as the user manager does), the port cannot be taken: the squatter's
//! bind is refused, so it never gets the token, the payloads or a say in
//! what runs. Its connection flood, running all through the session, is
//! refused before it takes any place. Claude Code's HTTP hooks reach the
//! real gateway, whose guard denies the agent's `.env` copy: the model
//! reads the guard's reason and the file is not copied.
//!
//! Needs root (to run `nobody`'s processes with `setpriv`), python3 and
//! systemd-socket-activate; skipped with a printed reason otherwise, as
//! the `it` tests of the same attacks are.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use hookgate_adapters::Dialect;
use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::fake_model::Script;
use hookgate_integration_tests::http_hook::HttpEndpoint;
use hookgate_integration_tests::private_dir;
use tokio::process::{Child, Command};

use crate::support::run;

const REASON: &str = "HG-HTTP-ATTACK: reading a secrets file";
/// The events hooked: no SessionStart (2.1.332 skips HTTP hooks there).
const HOOKS: [&str; 3] = ["UserPromptSubmit", "PreToolUse", "PostToolUse"];
const AS_NOBODY: [&str; 5] = [
    "setpriv",
    "--reuid=nobody",
    "--regid=nogroup",
    "--clear-groups",
    "--",
];
/// The system's Python, which `nobody` may run (a per-user install, such
/// as pyenv's under root's HOME, it may not).
const PYTHON: &str = "/usr/bin/python3";
/// `nobody`'s flood: connections opened in bursts and held, until killed
/// (gently: the machine also runs the agent).
const FLOOD: &str = r#"
import socket, sys, time
addr = ("127.0.0.1", int(sys.argv[1]))
held = []
while True:
    for _ in range(16):
        try:
            held.append(socket.create_connection(addr, timeout=2))
        except OSError:
            pass
    held = held[-256:]
    time.sleep(0.2)
"#;

/// Why this machine cannot run the attack as another user, if it cannot.
fn cannot_attack() -> Option<String> {
    let root = std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false);
    if !root {
        return Some("not running as root".into());
    }
    if !Path::new(PYTHON).is_file() {
        return Some(format!("{PYTHON} is not installed"));
    }
    for tool in ["setpriv", "systemd-socket-activate"] {
        let found = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .any(|dir| dir.join(tool).is_file());
        if !found {
            return Some(format!("{tool} is not installed"));
        }
    }
    None
}

/// `python3 -c code args` as `nobody` ([`PYTHON`]).
fn as_nobody(code: &str, args: &[&str]) -> Command {
    let mut command = Command::new(AS_NOBODY[0]);
    command
        .args(&AS_NOBODY[1..])
        .args([PYTHON, "-c", code])
        .args(args)
        .stdin(Stdio::null())
        .kill_on_drop(true);
    command
}

/// The gateway's socket and HTTP port held by the service manager.
struct Activated {
    dir: tempfile::TempDir,
    endpoint: HttpEndpoint,
    _activator: Child,
}

impl Activated {
    async fn start() -> Activated {
        let dir = private_dir();
        let run_dir = dir.path().join("run");
        std::fs::create_dir(&run_dir).expect("create the socket dir");
        std::fs::set_permissions(&run_dir, std::fs::Permissions::from_mode(0o700))
            .expect("chmod the socket dir");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        let config = dir.path().join("gateway.toml");
        std::fs::write(
            &config,
            format!(
                "[http]\nlisten = \"{addr}\"\n\n[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\n\
                 [[subscriber.rules]]\npath = '\\.env$'\naccess = \"read\"\nreason = \"{REASON}\"\n\n\
                 [defaults]\nembedded = false\n"
            ),
        )
        .expect("write the config");
        // `gateway install --transport http` makes the token before any
        // gateway runs.
        let token = "cd".repeat(32);
        let token_path = run_dir.join("http.token");
        std::fs::write(&token_path, format!("{token}\n")).expect("write the token");
        std::fs::set_permissions(&token_path, std::fs::Permissions::from_mode(0o600))
            .expect("chmod the token");
        let socket = run_dir.join("gateway.sock").display().to_string();
        let activator = Command::new("systemd-socket-activate")
            .args(["-l", &socket, "-l", &addr.to_string()])
            .arg("--fdname=hookgate:hookgate-http")
            .arg(&binaries().gateway)
            .args(["serve", "--config"])
            .arg(&config)
            .env_clear()
            .env("HOME", dir.path())
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .env("PATH", "/usr/bin:/bin")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.path().join("gateway.log")).expect("log file"))
            .kill_on_drop(true)
            .spawn()
            .expect("start systemd-socket-activate");
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the activator never listened"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Activated {
            dir,
            endpoint: HttpEndpoint { addr, token },
            _activator: activator,
        }
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("run/gateway.sock")
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("gateway.log")).unwrap_or_default()
    }
}

/// `gateway status --json` of the gateway at `socket`.
async fn status(socket: &Path) -> serde_json::Value {
    let out = Command::new(&binaries().gateway)
        .args(["status", "--json", "--socket"])
        .arg(socket)
        .output()
        .await
        .expect("run gateway status");
    serde_json::from_slice(&out.stdout).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_user_cannot_take_or_flood_the_http_port_and_claude_stays_guarded() {
    if let Some(reason) = cannot_attack() {
        eprintln!(
            "SKIPPED another_user_cannot_take_or_flood_the_http_port_and_claude_stays_guarded: {reason}"
        );
        return;
    }
    // The agent CLIs checked first, on a machine not yet busy with the
    // flood (the check runs each CLI once, under a deadline).
    tokio::task::spawn_blocking(hookgate_integration_tests::agents::clis)
        .await
        .expect("the agent CLIs");
    let gateway = Activated::start().await;
    let port = gateway.endpoint.addr.port().to_string();

    // The squatter: its bind on the port is refused.
    let squat = as_nobody(
        "import socket,sys\ns=socket.socket()\ns.bind(('127.0.0.1',int(sys.argv[1])))\ns.listen()\n",
        &[&port],
    )
    .output()
    .await
    .expect("run the squatter");
    assert!(!squat.status.success(), "nobody took the port");
    let refused = String::from_utf8_lossy(&squat.stderr);
    assert!(refused.contains("Address already in use"), "{refused}");

    // The flood, all through the session.
    let mut flood = as_nobody(FLOOD, &[&port])
        .stdout(Stdio::null())
        .spawn()
        .expect("start the flood");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        flood.try_wait().expect("the flood's state").is_none(),
        "the flood did not run"
    );

    let run = run(Dialect::ClaudeCode);
    std::fs::write(run.work().join(".env"), "TOKEN=hg-http-attack\n").expect("write .env");
    let copy = run.work().join("copied");
    let outcome = run
        .http_hooks(&gateway.endpoint)
        .hooks(&HOOKS)
        .script(Script::shell_then_text("cat .env > copied", "Understood."))
        .run()
        .await;
    assert!(
        flood.try_wait().expect("the flood's state").is_none(),
        "the flood stopped during the session"
    );
    let _ = flood.kill().await;

    assert!(!copy.exists(), "the secret was copied\n{outcome}");
    let calls = outcome.model_calls();
    assert!(
        calls.len() >= 2,
        "no request after the tool call\n{outcome}"
    );
    assert!(
        calls[1].mentions(REASON),
        "the model must read the guard's reason\n{outcome}\n{}",
        gateway.log()
    );
    let doc = status(&gateway.socket()).await;
    let refused = doc["http_refused"]["foreign_uid"]
        .as_u64()
        .unwrap_or_default();
    assert!(
        refused > 0,
        "the flood was not refused as another user's: {doc:#}"
    );
    assert_eq!(
        doc["http_refused"]["too_many_connections"]
            .as_u64()
            .unwrap_or_default(),
        0,
        "{doc:#}"
    );
}
