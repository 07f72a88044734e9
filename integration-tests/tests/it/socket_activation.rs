//! `gateway serve` under socket activation, as systemd starts it from
//! `hookgate.socket`: `systemd-socket-activate` (systemd's own tool, no
//! systemd as PID 1 needed) binds and listens, and runs the real gateway
//! only when the first hook call connects, handing it the socket as fd 3
//! with `LISTEN_PID`/`LISTEN_FDS`/`LISTEN_FDNAMES`. Anything else on fd 3
//! is refused with a message naming it.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::payloads::claude_bash;
use hookgate_integration_tests::{Shim, private_dir};
use tokio::process::{Child, Command};
use tokio::time::Instant;

use crate::support::assert_claude_deny;

/// How long the activator (or a refusing gateway) may take.
const DEADLINE: Duration = Duration::from_secs(30);

/// systemd's activator; the test needs it (Debian/Ubuntu: `apt-get install
/// systemd`, which ships it without needing systemd to run).
fn activator() -> PathBuf {
    let path = PathBuf::from("/usr/bin/systemd-socket-activate");
    assert!(
        path.exists(),
        "{} is missing: install it (`apt-get install systemd`) to run the socket activation tests",
        path.display()
    );
    path
}

/// A user's directories: HOME, state, and the 0700 socket directory
/// (systemd's `DirectoryMode=0700`).
struct Dirs {
    dir: tempfile::TempDir,
}

impl Dirs {
    fn new() -> Dirs {
        let dir = private_dir();
        for sub in ["home", "state", "run"] {
            std::fs::create_dir(dir.path().join(sub)).expect("create the test dirs");
        }
        std::fs::set_permissions(
            dir.path().join("run"),
            std::fs::Permissions::from_mode(0o700),
        )
        .expect("chmod the socket dir");
        Dirs { dir }
    }

    fn socket(&self) -> PathBuf {
        self.dir.path().join("run/gateway.sock")
    }

    /// `program args`, as the user: HOME, state dir, a minimal PATH.
    fn command(&self, program: &Path, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command
            .args(args)
            .env_clear()
            .env("HOME", self.dir.path().join("home"))
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("PATH", "/usr/bin:/bin")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        command
    }

    /// The activator listening on [`Dirs::socket`] (`as_stream`: a stream
    /// socket, else a datagram one), set to run `gateway serve`.
    async fn activate(&self, as_stream: bool) -> Child {
        let socket = self.socket().display().to_string();
        let gateway = binaries().gateway.display().to_string();
        let mut args = vec!["-l", &socket, "--fdname=hookgate"];
        if !as_stream {
            args.push("--datagram");
        }
        args.extend([gateway.as_str(), "serve"]);
        let child = self
            .command(&activator(), &args)
            .spawn()
            .expect("start systemd-socket-activate");
        let started = Instant::now();
        while !self.socket().exists() {
            assert!(started.elapsed() < DEADLINE, "the activator never listened");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        child
    }
}

/// The process's exit code and stderr, waited for at most [`DEADLINE`].
async fn finish(child: Child) -> (Option<i32>, String) {
    let out = tokio::time::timeout(DEADLINE, child.wait_with_output())
        .await
        .expect("the gateway should have exited")
        .expect("wait for the gateway");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test]
async fn the_first_hook_call_starts_the_gateway_on_the_inherited_socket() {
    let dirs = Dirs::new();
    let activator = dirs.activate(true).await;

    // Nothing runs the gateway yet: this call's connection starts it, and
    // it is answered by the embedded guard through the inherited socket.
    let shim = Shim::new(&dirs.socket(), Some("claude-code"));
    let out = shim.run(claude_bash("cat .env")).await;
    assert_claude_deny(&out, "PreToolUse", "reading a secrets file");
    // The same listener keeps serving.
    let out = shim.run(claude_bash("cat ./.env")).await;
    assert_claude_deny(&out, "PreToolUse", "reading a secrets file");
    // The gateway's own admin socket sits next to the inherited one.
    let status = dirs
        .command(
            &binaries().gateway,
            &["status", "--socket", &dirs.socket().display().to_string()],
        )
        .output()
        .await
        .expect("run gateway status");
    assert!(status.status.success(), "{status:?}");
    drop(activator);
}

#[tokio::test]
async fn a_datagram_socket_is_refused_by_name() {
    let dirs = Dirs::new();
    let activator = dirs.activate(false).await;
    // The first datagram makes the activator run the gateway.
    let client = std::os::unix::net::UnixDatagram::unbound().expect("a datagram socket");
    client
        .send_to(b"x", dirs.socket())
        .expect("send to the activator");
    let (code, stderr) = finish(activator).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("inherited descriptor 3 (socket activation): not a stream socket"),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_descriptor_that_is_no_socket_is_refused_by_name() {
    let dirs = Dirs::new();
    // What a broken unit would pass: fd 3 open on something else.
    let script = r#"export LISTEN_PID=$$ LISTEN_FDS=1; exec "$0" serve 3</dev/null"#;
    let gateway = binaries().gateway.display().to_string();
    let child = dirs
        .command(Path::new("/bin/sh"), &["-c", script, &gateway])
        .spawn()
        .expect("start the gateway");
    let (code, stderr) = finish(child).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("inherited descriptor 3 (socket activation): not a socket"),
        "{stderr}"
    );
}

/// The HTTP hook port held by the activator (as `hookgate-http.socket`
/// holds it for the user manager): the first HTTP hook call starts the
/// gateway, which serves that call on the inherited port. The gateway
/// could not have bound the port itself: the activator holds it.
#[tokio::test]
async fn the_first_http_hook_call_starts_the_gateway_on_the_inherited_port() {
    use hookgate_integration_tests::http_hook::HttpClient;

    let dirs = Dirs::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let config = dirs.dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        hookgate_integration_tests::standalone(&format!(
            "[http]\nlisten = \"{addr}\"\n\n[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\n\
             [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"HG-ACTIVATED-HTTP: no rm\"\n"
        )),
    )
    .expect("write the config");
    // `gateway install --transport http` made the token before any gateway
    // ran (next to the socket: no XDG_RUNTIME_DIR here).
    let token = "ab".repeat(32);
    let token_path = dirs.dir.path().join("run/http.token");
    std::fs::write(&token_path, format!("{token}\n")).expect("write the token");
    std::fs::set_permissions(&token_path, std::fs::Permissions::from_mode(0o600))
        .expect("chmod the token");

    let (socket, gateway) = (
        dirs.socket().display().to_string(),
        binaries().gateway.display().to_string(),
    );
    let listen_http = addr.to_string();
    let args = [
        "-l",
        &socket,
        "-l",
        &listen_http,
        "--fdname=hookgate:hookgate-http",
        &gateway,
        "serve",
        "--config",
        config.to_str().expect("a UTF-8 path"),
    ];
    let activator = dirs
        .command(&activator(), &args)
        .spawn()
        .expect("start systemd-socket-activate");
    let started = Instant::now();
    let mut client = loop {
        match HttpClient::connect(addr).await {
            Ok(client) => break client,
            Err(err) => {
                assert!(
                    started.elapsed() < DEADLINE,
                    "the activator never listened: {err}"
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    let auth = format!("Bearer {token}");
    let payload = claude_bash("rm -rf build");
    let response = client
        .post(
            "/hook/claude-code",
            &[("authorization", &auth)],
            payload.as_bytes(),
        )
        .await
        .expect("the first call is answered");
    assert_eq!(response.status, 200, "{}", response.text());
    let specific = &response.json()["hookSpecificOutput"];
    assert_eq!(
        specific["permissionDecision"],
        "deny",
        "{}",
        response.text()
    );
    // The gateway reports the port it serves: the inherited one.
    let status = dirs
        .command(
            &binaries().gateway,
            &["status", "--json", "--socket", &socket],
        )
        .stdout(Stdio::piped())
        .output()
        .await
        .expect("run gateway status");
    let doc: serde_json::Value = serde_json::from_slice(&status.stdout).expect("status JSON");
    assert_eq!(doc["http_addr"], listen_http, "{doc:#}");
    drop(activator);
}
