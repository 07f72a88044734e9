//! Every printing command into a pipe whose reader is gone (`gateway
//! install | head -1` once `head` has its line): the command ends with its
//! own exit code, never a panic on EPIPE (101).

use std::process::{Command, Stdio};

use hookgate_integration_tests::Autostarted;
use hookgate_integration_tests::binaries::binaries;

/// Runs `gateway args` with stdout a pipe already closed at the reading
/// end (no race with the reader: every write fails with EPIPE); returns
/// the exit code and stderr.
fn into_closed_pipe(home: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("create a pipe");
    drop(reader);
    let out = Command::new(&binaries().gateway)
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run gateway");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn printing_commands_exit_with_their_own_code_into_a_closed_pipe() {
    let dir = tempfile::Builder::new()
        .prefix("hg-pipe-")
        .tempdir_in("/tmp")
        .expect("a test HOME");
    let home = dir.path();
    let shim = binaries().shim.display().to_string();
    let socket_path = home.join("run/gateway.sock");
    // doctor's round trip starts one through the installed hook.
    let _gateway = Autostarted::on(&socket_path);
    let socket = socket_path.display().to_string();
    let install = [
        "install", "--agent", "codex", "--shim", &shim, "--socket", &socket,
    ];
    let dry_run = [&install[..], &["--dry-run"]].concat();
    // (arguments, expected exit code): 64 is doctor's "unprotected" (no
    // gateway runs here), the rest succeed.
    let cases: [(&[&str], i32); 7] = [
        (&dry_run, 0),
        (&install, 0),
        (&["uninstall", "--agent", "codex", "--dry-run"], 0),
        (&["doctor", "--agent", "codex"], 64),
        (&["completions", "bash"], 0),
        (&["man"], 0),
        (&["uninstall", "--all"], 0),
    ];
    for (args, expected) in cases {
        let (code, stderr) = into_closed_pipe(home, args);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(code, Some(expected), "{args:?}: {stderr}");
    }
}
