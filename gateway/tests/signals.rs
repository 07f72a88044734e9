//! The real `gateway` binary and its signals: the first SIGTERM starts a
//! graceful shutdown, a second one ends the process at once, even while an
//! event is still in flight within a long grace period.
//!
//! Unix only: it sends SIGTERM and talks to the Unix socket.

#![cfg(unix)]
#![allow(
    clippy::disallowed_methods,
    reason = "test and bench code drives real processes and files; the runtime rules are the gateway's"
)]

use std::io::{BufRead as _, BufReader};
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::ExitStatusExt as _;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Guards against a hang only; the test asserts on the exit code.
const HANG_GUARD: Duration = Duration::from_secs(60);

fn kill_term(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
}

/// Waits for a stderr line containing `needle`.
fn wait_for(lines: &mpsc::Receiver<String>, needle: &str) {
    loop {
        match lines.recv_timeout(HANG_GUARD) {
            Ok(line) if line.contains(needle) => return,
            Ok(_) => {}
            Err(err) => panic!("no log line with {needle:?}: {err}"),
        }
    }
}

#[test]
fn a_second_signal_exits_at_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    // A "subscriber" that accepts TCP connections but never speaks gRPC:
    // the event stays in flight for its whole 60 s deadline.
    let mute = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let config = dir.path().join("gateway.toml");
    std::fs::write(
        &config,
        format!(
            "[server]\nshutdown_grace_ms = 600000\n\n[[subscriber]]\nname = \"mute\"\n\
             endpoint = \"http://{}\"\ntimeout_ms = 60000\n",
            mute.local_addr().unwrap()
        ),
    )
    .unwrap();
    let socket = dir.path().join("gateway.sock");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gateway"))
        .args(["--log-level", "info", "serve", "--config"])
        .arg(&config)
        .arg("--socket")
        .arg(&socket)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the gateway");
    let stderr = child.stderr.take().unwrap();
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("gateway: {line}");
            let _ = tx.send(line);
        }
    });
    wait_for(&lines, "gateway ready");

    // One event, held by the mute subscriber: accepting its connection
    // proves the gateway is waiting on it.
    let mut shim = std::os::unix::net::UnixStream::connect(&socket).unwrap();
    let request = hookgate_wire::Request {
        args: vec!["claude-code".into()],
        cwd: "/".into(),
        env: Vec::new(),
        stdin: br#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/","tool_name":"Bash","tool_input":{"command":"ls"}}"#.to_vec(),
    };
    std::io::Write::write_all(&mut shim, &request.encode()).unwrap();
    let _held = mute.accept().expect("the gateway calls its subscriber");

    kill_term(&child);
    wait_for(&lines, "shutting down");
    kill_term(&child);

    let (done_tx, done) = mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let status = child.wait();
        let _ = done_tx.send(());
        status
    });
    done.recv_timeout(HANG_GUARD)
        .expect("the gateway did not exit on the second signal");
    let status = waiter.join().unwrap().unwrap();
    assert_eq!(
        status.code(),
        Some(130),
        "{status:?} (signal {:?})",
        status.signal()
    );
}
