//! `gateway audit --follow` through the real binaries: a new event shows
//! up while it runs (across the log's rotations), filtered by session and
//! tool, with local times by default and UTC on request.

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::{TestGateway, payloads, private_dir};
use serde_json::{Value, json};

use crate::support::EVENTUALLY;

/// A small log (4 KiB per file), so a few events rotate it.
fn config(audit: &Path) -> String {
    format!(
        "[[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\nmax_size_kib = 4\nkeep = 50\n",
        Value::String(audit.display().to_string())
    )
}

/// A Claude Code Bash call in `session`.
fn bash(session: &str, command: &str) -> String {
    let mut payload: Value =
        serde_json::from_str(&payloads::claude_bash(command)).expect("a payload");
    payload["session_id"] = json!(session);
    payload.to_string()
}

/// A Claude Code Read call in `session`.
fn read(session: &str, path: &str) -> String {
    let mut payload: Value = serde_json::from_str(&bash(session, "x")).expect("a payload");
    payload["tool_name"] = json!("Read");
    payload["tool_input"] = json!({ "file_path": path });
    payload.to_string()
}

/// `gateway audit ARGS` running, its stdout lines arriving on the channel.
struct Follow {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Follow {
    fn start(args: &[&str], tz: &str) -> Follow {
        let mut child = Command::new(&binaries().gateway)
            .arg("audit")
            .args(args)
            .env("TZ", tz)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start gateway audit --follow");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Follow { child, lines }
    }

    /// The next line, waiting up to [`EVENTUALLY`] (a generous bound, not
    /// a timing claim).
    fn next(&self) -> String {
        self.lines
            .recv_timeout(EVENTUALLY)
            .expect("gateway audit --follow printed the event")
    }

    /// Any line printed within `wait`.
    fn quiet_for(&self, wait: Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }
}

impl Drop for Follow {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_shows_new_events_filtered_in_local_time_across_rotations() {
    let dir = private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start_in(dir, &config(&audit), &[]).await;
    // One event before, so the log exists; `-n 0` prints none of it.
    gateway
        .shim(Some("claude-code"))
        .run(bash("s1", "echo before"))
        .await;
    // The audit writer appends after the answer: wait until the record is
    // on disk, or `--follow` (which starts at the end) would see it as new.
    let logged = |text: &str| std::fs::read_to_string(&audit).is_ok_and(|log| log.contains(text));
    let start = std::time::Instant::now();
    while !logged("echo before") {
        assert!(
            start.elapsed() < EVENTUALLY,
            "the first event was never logged"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // POSIX TZ: five hours east of UTC, no database needed.
    let path = audit.display().to_string();
    let follow = Follow::start(
        &[
            "--follow",
            "-n",
            "0",
            "--path",
            &path,
            "--session",
            "s1",
            "--tool",
            "bash",
        ],
        "HGT-5",
    );
    // Give it its first look at the log before the events come.
    assert_eq!(follow.quiet_for(Duration::from_millis(300)), None);

    gateway
        .shim(Some("claude-code"))
        .run(bash("s2", "echo other session"))
        .await;
    gateway
        .shim(Some("claude-code"))
        .run(read("s1", "notes.txt"))
        .await;
    gateway
        .shim(Some("claude-code"))
        .run(bash("s1", "echo 0"))
        .await;
    let first = follow.next();
    assert!(first.contains("claude-code"), "{first}");
    assert!(first.contains("echo 0"), "only s1's Bash call: {first}");

    // Local time: the record's UTC hour plus five.
    let record: Value = std::fs::read_to_string(&audit)
        .expect("the log")
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|l| l["tool"]["command"] == "echo 0")
        .expect("the record");
    let secs = record["ts_ms"].as_u64().expect("ts_ms") / 1000;
    let local_hour = (secs + 5 * 3600) % 86_400 / 3600;
    assert_eq!(&first[11..13], format!("{local_hour:02}"), "{first}");
    assert_eq!(&first[10..11], " ", "local times have no `T…Z`: {first}");

    // Many more, so the log rotates under it: each one shows, in order.
    for i in 1..40 {
        gateway
            .shim(Some("claude-code"))
            .run(bash("s1", &format!("echo {i}")))
            .await;
    }
    for i in 1..40 {
        let line = follow.next();
        assert!(line.contains(&format!("echo {i}")), "event {i}: {line}");
    }
    assert!(
        audit.with_extension("jsonl.2").exists(),
        "the log rotated meanwhile"
    );
    drop(follow);

    let (code, out, err) = hookgate_integration_tests::run_gateway(&[
        "audit",
        "--path",
        &path,
        "--utc",
        "-n",
        "1",
        "--session",
        "s1",
    ])
    .await;
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.trim_end().contains("Z  claude-code") && out.contains("echo 39"),
        "{out}"
    );
}
