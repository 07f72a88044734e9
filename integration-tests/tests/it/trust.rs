//! Fail-closed means closed, tried as another user on the machine would:
//! a server of another uid behind a path the checks let through never
//! receives a byte; a squatted default socket directory is loud (the
//! gateway names it, the shims record their fallbacks where the user owns,
//! `gateway status` shows both); a FIFO planted at the fallback record
//! hangs nothing; 2,000 idle connections do not make a good shim wait.
//!
//! The tests that need another user run as root with `setpriv` and are
//! skipped with a printed reason otherwise.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::{Shim, TestGateway, default_config, payloads, private_dir};

use crate::support::{AS_NOBODY, EVENTUALLY, cannot_switch_users, nobody_ids};

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|err| panic!("chmod {mode:o} {}: {err}", path.display()));
}

/// A Python `nobody` can run (a user's pyenv shim under /root is not).
const SYSTEM_PYTHON: &str = "/usr/bin/python3";

/// A Unix socket server run as `nobody` that counts the bytes each
/// connection sends into `log` (one line per connection) and prints
/// `ready` once it listens.
const COUNTING_SERVER: &str = r#"
import os, socket, sys
path, log = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(64)
print("ready", flush=True)
while True:
    conn, _ = server.accept()
    conn.settimeout(5)
    total = 0
    try:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            total += len(chunk)
    except OSError:
        pass
    with open(log, "a") as f:
        f.write(f"{total}\n")
    conn.close()
"#;

/// The shim checks who serves the socket, not only the path: here every
/// path check passes (a root-owned socket in a root-owned 0755 directory)
/// but the listening process is `nobody`'s. It must never receive a byte,
/// and the call is blocked fail-closed and recorded as `untrusted`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_of_another_uid_never_receives_a_byte() {
    let reason = cannot_switch_users()
        .or_else(|| (!Path::new(SYSTEM_PYTHON).exists()).then(|| format!("no {SYSTEM_PYTHON}")));
    if let Some(reason) = reason {
        eprintln!("SKIPPED a_server_of_another_uid_never_receives_a_byte: {reason}");
        return;
    }
    let dir = private_dir();
    let socket = dir.path().join("gateway.sock");
    let log = dir.path().join("received.log");
    std::fs::write(&log, "").unwrap();
    std::os::unix::fs::chown(&log, nobody_ids().map(|n| n.0), None).unwrap();
    // `nobody` may create its socket here for a moment.
    chmod(dir.path(), 0o777);
    let mut server = tokio::process::Command::new("setpriv")
        .args(&AS_NOBODY[1..])
        .args([SYSTEM_PYTHON, "-c", COUNTING_SERVER])
        .arg(&socket)
        .arg(&log)
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start the server as nobody");
    let mut ready = String::new();
    let stdout = server.stdout.as_mut().expect("piped");
    tokio::time::timeout(EVENTUALLY, async {
        use tokio::io::AsyncReadExt as _;
        let mut buf = [0u8; 16];
        while !ready.contains("ready") {
            let n = stdout.read(&mut buf).await.expect("server stdout");
            assert!(n > 0, "the server exited");
            ready.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    })
    .await
    .expect("the server started");
    // Now make the path look like this user's gateway in every way a path
    // can: a root-owned socket in a root-owned directory nobody else can
    // write.
    std::os::unix::fs::chown(&socket, Some(0), Some(0)).unwrap();
    chmod(dir.path(), 0o755);

    let out = Shim::new(&socket, Some("claude-code"))
        .fail_closed()
        .run(payloads::claude_bash("ls"))
        .await;
    assert_eq!(out.code, Some(2), "blocked fail-closed: {out}");
    assert!(out.stderr_str().contains("another user"), "{out}");
    // The server saw the connection (and its close) but not one byte.
    let counts = tokio::time::timeout(EVENTUALLY, async {
        loop {
            let text = std::fs::read_to_string(&log).unwrap();
            if !text.is_empty() {
                return text;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the server logged the connection");
    assert_eq!(counts, "0\n", "bytes another uid received per connection");
    let record = std::fs::read_to_string(dir.path().join("gateway.sock.fallbacks")).unwrap();
    assert!(record.ends_with(" untrusted closed\n"), "{record}");
}

/// A home so long that the state-directory socket would not fit a socket
/// address: the default socket falls back to `$TMPDIR/hookgate-<uid>`,
/// which another user can pre-create.
fn long_home(root: &Path) -> PathBuf {
    let home = root.join("h".repeat(60)).join("home");
    std::fs::create_dir_all(&home).expect("create the home directory");
    home
}

/// Another user pre-created the default socket directory: the gateway
/// refuses it and says why and how to fix it, the shim blocks fail-closed
/// and records the fallback in the user's state directory, and `gateway
/// status` shows both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_squatted_default_directory_is_loud() {
    if let Some(reason) = cannot_switch_users() {
        eprintln!("SKIPPED a_squatted_default_directory_is_loud: {reason}");
        return;
    }
    let root = private_dir();
    let home = long_home(root.path());
    let tmp = root.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    chmod(&tmp, 0o1777);
    let squatted = tmp.join("hookgate-0");
    std::fs::create_dir(&squatted).unwrap();
    std::os::unix::fs::chown(
        &squatted,
        nobody_ids().map(|n| n.0),
        nobody_ids().map(|n| n.1),
    )
    .unwrap();
    let env = [("HOME", home.as_path()), ("TMPDIR", tmp.as_path())];

    let serve = tokio::process::Command::new(&binaries().gateway)
        .arg("serve")
        .env_clear()
        .envs(env)
        .output();
    let serve = tokio::time::timeout(EVENTUALLY, serve)
        .await
        .expect("exits")
        .unwrap();
    let stderr = String::from_utf8_lossy(&serve.stderr);
    assert!(!serve.status.success(), "{stderr}");
    assert!(stderr.contains(&squatted.display().to_string()), "{stderr}");
    assert!(stderr.contains("another user created it"), "{stderr}");
    assert!(stderr.contains("HOOKGATE_SOCKET"), "the fix: {stderr}");

    let shim = Shim::new(Path::new(""), Some("claude-code"))
        .env("HOOKGATE_SOCKET", "")
        .env("HOME", home.to_str().unwrap())
        .env("TMPDIR", tmp.to_str().unwrap())
        .fail_closed();
    let out = shim.run(payloads::claude_bash("ls")).await;
    assert_eq!(out.code, Some(2), "blocked fail-closed: {out}");

    let status = tokio::process::Command::new(&binaries().gateway)
        .arg("status")
        .env_clear()
        .envs(env)
        .output()
        .await
        .unwrap();
    let report = String::from_utf8_lossy(&status.stderr);
    assert!(!status.status.success(), "{report}");
    assert!(report.contains("not running"), "{report}");
    assert!(report.contains("belongs to uid"), "the squatter: {report}");
    assert!(
        report.contains("shims answered 1 hook calls on their own"),
        "the fallback, recorded where the user owns: {report}"
    );
}

/// A FIFO at the fallback record's path hangs neither start-up nor
/// `gateway status` nor shutdown (every file is opened non-blocking and
/// must be a regular file).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fifo_at_the_record_path_hangs_nothing() {
    let dir = private_dir();
    let record = TestGateway::socket_in(dir.path()).with_extension("sock.fallbacks");
    let made = std::process::Command::new("mkfifo")
        .arg(&record)
        .status()
        .unwrap();
    assert!(made.success());
    let config = default_config(&dir.path().join("audit.jsonl"));
    let mut gateway = TestGateway::start_in(dir, &config, &[]).await;
    let status = tokio::time::timeout(EVENTUALLY, gateway.status_json())
        .await
        .expect("status answers");
    assert_eq!(status["fallbacks"]["unreachable"], 0, "{status}");
    let stopped = tokio::time::timeout(EVENTUALLY, gateway.terminate())
        .await
        .expect("SIGTERM stops it");
    assert_eq!(stopped, Some(0), "a clean exit");
}

/// Idle connections take no evaluation slot: with 2,000 of them open, a
/// shim that sends its request is answered by the gateway (the guard's
/// deny), not by its own fallback.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_do_not_starve_a_good_shim() {
    let dir = private_dir();
    let config = default_config(&dir.path().join("audit.jsonl"));
    let gateway = TestGateway::start_in(dir, &config, &[]).await;
    let mut idle = Vec::with_capacity(2_000);
    for _ in 0..2_000 {
        let stream = tokio::net::UnixStream::connect(gateway.socket())
            .await
            .expect("connect an idle client");
        idle.push(stream);
    }
    let out = gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("rm -rf /"))
        .await;
    let json = out.json();
    assert_eq!(
        json["hookSpecificOutput"]["permissionDecision"], "deny",
        "the gateway's guard answered: {out}"
    );
    let status = gateway.status_json().await;
    assert_eq!(status["refused"]["busy"], 0, "{status}");
    drop(idle);
}

/// A subscriber's 20 MiB rewrite can never reach the agent (the shim
/// refuses replies over its limit): it is an unusable reply, counted, and
/// the subscriber's `on_error` decides, so the shim is answered by the
/// gateway, not by its own fallback.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rewrite_too_large_for_the_agent_is_a_bad_reply() {
    use hookgate_integration_tests::{
        OnError, SubscriberEntry, TestSubscriber, config_toml, decisions,
    };
    let huge = serde_json::json!({"command": "x".repeat(20 << 20)});
    let subscriber = TestSubscriber::fixed(decisions::rewrite(&huge)).await;
    let entry = SubscriberEntry::decide("big", &subscriber.endpoint()).on_error(OnError::Deny);
    let gateway = TestGateway::start(&config_toml(&[entry])).await;
    let out = gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("ls"))
        .await;
    let json = out.json();
    assert_eq!(
        json["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );
    assert!(
        out.stdout_str().contains("`big` failed (unusable reply)"),
        "{out}"
    );
    let status = gateway.status_json().await;
    let big = &status["subscribers"][0];
    assert_eq!(big["errors_by_kind"]["bad_reply"], 1, "{status}");
    assert_eq!(status["fallbacks"]["bad_reply"], 0, "{status}");
}

/// Shims that gave up while the gateway was stalled are not evaluated
/// later: their requests are dropped before the fan-out and counted, and
/// the subscriber's own error text (which may quote the payload) never
/// reaches the gateway's log at info level.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn abandoned_requests_are_dropped_and_logs_stay_bounded() {
    use hookgate_integration_tests::{SubscriberEntry, TestSubscriber, config_toml};
    const SECRET_IN_ERROR: &str = "HG-PAYLOAD-QUOTED-IN-AN-EXCEPTION";
    // Each call takes 1.5 s, then fails with an error status whose message
    // quotes the payload, as grpcio does with exception text.
    let slow = TestSubscriber::start(std::sync::Arc::new(|_| {
        Box::pin(async {
            tokio::time::sleep(Duration::from_millis(1500)).await;
            Err(tonic::Status::internal(SECRET_IN_ERROR))
        })
    }))
    .await;
    let entry = SubscriberEntry::decide("slow", &slow.endpoint()).timeout_ms(10_000);
    let toml = format!(
        "[server]\nmax_connections = 1\nqueue_wait_ms = 10000\n{}",
        config_toml(&[entry])
    );
    let gateway = TestGateway::start(&toml).await;
    // One call holds the only slot; five more give up after 300 ms.
    let holder = gateway.shim(Some("claude-code"));
    let first = tokio::spawn(async move { holder.run(payloads::claude_bash("ls")).await });
    // Only once the subscriber has it is the slot surely the first's.
    slow.wait_for(1, EVENTUALLY).await;
    let mut quitters = Vec::new();
    for _ in 0..5 {
        let shim = gateway
            .shim(Some("claude-code"))
            .env("HOOKGATE_TIMEOUT_MS", "300");
        quitters.push(tokio::spawn(async move {
            shim.run(payloads::claude_bash("ls")).await
        }));
    }
    for quitter in quitters {
        let out = quitter.await.expect("a shim");
        assert_eq!(out.code, Some(0), "fail-open after its deadline: {out}");
    }
    assert_eq!(first.await.expect("the first shim").code, Some(0));
    let status = tokio::time::timeout(EVENTUALLY, async {
        loop {
            let status = gateway.status_json().await;
            if status["refused"]["shim_gone"] == 5 {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the five abandoned requests are counted");
    assert_eq!(
        slow.count(),
        1,
        "only the first call reached the subscriber: {status}"
    );
    assert!(
        !gateway.stderr().contains(SECRET_IN_ERROR),
        "subscriber error text is logged at debug only:\n{}",
        gateway.stderr()
    );
}
