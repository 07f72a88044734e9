//! The memory database locked by another process, and on a full file
//! system, through the real gateway and shim: every hook is answered, the
//! failed writes are counted in `gateway status`, and memory works again,
//! without a restart, once the lock is let go or room is made.
//!
//! The full file system is a real one: a 2 MiB tmpfs mounted by the test
//! (it needs root, as CI and the real-agent tests run), filled to its last
//! byte with a filler file.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use hookgate_integration_tests::{TestGateway, private_dir};
use serde_json::{Value, json};

use crate::memory_support::{
    claude, codex, codex_tool_output, config, project, status_until, stored,
};
use crate::support::EVENTUALLY;

const FACT: &str = "the queue drains at 3 a.m. (wombat-fact)";

fn store_errors(row: &Value) -> u64 {
    row["memory"]["store_errors"].as_u64().unwrap_or(0)
}

/// Sends one Codex event; the hook must be answered.
async fn send(gateway: &TestGateway, event: String) {
    let reply = gateway.shim(Some("codex")).run(event).await;
    assert_eq!(reply.code, Some(0), "a hook was not answered: {reply}");
}

/// Sends a session printing [`FACT`] and its Stop until both are stored
/// (a failing database is opened again at most once a second), then waits
/// until a Claude Code session start is told the fact.
async fn until_remembered(gateway: &TestGateway, cwd: &Path, session: &str) {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let written = stored(&status_until(gateway, |_| true).await);
        send(gateway, codex_tool_output(cwd, session, "cat ops.md", FACT)).await;
        send(gateway, codex("Stop.json", cwd, session)).await;
        if stored(&status_until(gateway, |_| true).await) >= written + 2 {
            break;
        }
        assert!(tokio::time::Instant::now() < until, "never writable again");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    // Compressed and told (the sessions left open while it failed keep
    // their raw observations).
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let start = json!({ "cwd": cwd, "session_id": "claude-1" });
        let told = claude(gateway, "SessionStart.json", start).await;
        if told.contains("wombat-fact") {
            return;
        }
        assert!(tokio::time::Instant::now() < until, "never told: {told:?}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_database_answers_hooks_counts_and_recovers() {
    let dir = private_dir();
    let cwd = project(dir.path(), "shop");
    let db = dir.path().join("memory.db");
    let gateway = TestGateway::start(&config(&db)).await;
    // The file exists, in WAL mode, before it is locked.
    send(&gateway, codex("SessionStart.json", &cwd, "codex-0")).await;
    status_until(&gateway, |row| stored(row) >= 1).await;

    // Another process (this one) holds the write lock.
    let lock = rusqlite::Connection::open(&db).expect("open the database");
    lock.execute_batch("BEGIN EXCLUSIVE; DELETE FROM observations WHERE 0;")
        .expect("take the lock");
    send(
        &gateway,
        codex_tool_output(&cwd, "codex-1", "cat ops.md", FACT),
    )
    .await;
    send(&gateway, codex("Stop.json", &cwd, "codex-1")).await;
    let row = status_until(&gateway, |row| store_errors(row) >= 1).await;
    assert!(row["errors"].as_u64() >= Some(1), "{row}");
    // A session start while it is locked is answered (WAL lets it read).
    let start = json!({ "cwd": cwd, "session_id": "claude-0" });
    let told = claude(&gateway, "SessionStart.json", start).await;
    assert!(!told.contains("wombat-fact"), "{told:?}");

    lock.execute_batch("COMMIT").expect("let go of the lock");
    drop(lock);
    until_remembered(&gateway, &cwd, "codex-2").await;
}

/// A tmpfs of `size` at `dir`, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: PathBuf, size: &str) -> Tmpfs {
        std::fs::create_dir(&dir).expect("make the mount point");
        let status = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(&dir)
            .status()
            .expect("run mount");
        assert!(
            status.success(),
            "mounting a tmpfs needs root (CI and the real-agent tests run as root)"
        );
        Tmpfs(dir)
    }

    /// Fills the file system with `filler` until no byte more fits.
    fn fill(&self, filler: &Path) {
        let mut file = std::fs::File::create(filler).expect("create the filler");
        let chunk = vec![0u8; 64 * 1024];
        for _ in 0..1024 {
            if file.write_all(&chunk).and_then(|()| file.flush()).is_err() {
                break;
            }
        }
        for _ in 0..4096 {
            if file
                .write_all(&[0u8; 512])
                .and_then(|()| file.sync_all())
                .is_err()
            {
                return;
            }
        }
        panic!("the tmpfs never filled up");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_file_system_answers_hooks_counts_and_recovers() {
    let dir = private_dir();
    let cwd = project(dir.path(), "shop");
    let disk = Tmpfs::mount(dir.path().join("disk"), "2m");
    let db = disk.0.join("memory.db");
    let filler = disk.0.join("filler");
    let gateway = TestGateway::start(&config(&db)).await;
    send(&gateway, codex("SessionStart.json", &cwd, "codex-0")).await;
    status_until(&gateway, |row| stored(row) >= 1).await;

    disk.fill(&filler);
    // Large outputs, each its own session's, until a write fails for
    // want of room (the log and the file may have had some free pages).
    let big = format!("{FACT} {}", "x".repeat(3900));
    for i in 0..400 {
        send(
            &gateway,
            codex_tool_output(&cwd, &format!("full-{i}"), "cat big.log", &big),
        )
        .await;
        if store_errors(&status_until(&gateway, |_| true).await) >= 1 {
            break;
        }
    }
    let row = status_until(&gateway, |row| store_errors(row) >= 1).await;
    assert!(row["errors"].as_u64() >= Some(1), "{row}");
    let start = json!({ "cwd": cwd, "session_id": "claude-0" });
    let _ = claude(&gateway, "SessionStart.json", start).await;

    std::fs::remove_file(&filler).expect("make room");
    until_remembered(&gateway, &cwd, "codex-1").await;
}
