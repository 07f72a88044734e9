//! Memory is bounded by bytes: with the embedded default config, 60
//! concurrent 8 MiB hook calls through real shims and 256 slow senders of
//! 8 MiB frames keep the gateway's peak RSS under its memory budget plus a
//! constant, and every shim is answered (by the gateway, or "busy").

use std::time::Duration;

use hookgate_integration_tests::{TestGateway, default_config, private_dir};
use hookgate_wire::{HEADER_LEN, MAX_STDIN};
use tokio::io::AsyncWriteExt;

/// `[server] memory_budget_mib`'s default.
const BUDGET: u64 = 256 << 20;
/// What the gateway holds besides the budget: code, runtime, allocator
/// slack, the guard's compiled rules, per-connection buffers.
const CONSTANT: u64 = 96 << 20;

/// A Claude Code `Write` of `len` bytes of content, as one payload.
fn write_payload(len: usize) -> Vec<u8> {
    let head = br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/tmp/big.txt","content":""#;
    let tail = br#""}}"#;
    let mut payload = Vec::with_capacity(len);
    payload.extend_from_slice(head);
    payload.resize(len - tail.len(), b'x');
    payload.extend_from_slice(tail);
    payload
}

/// The gateway's resident set and its peak so far, in bytes.
fn rss(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
            .map_or(0, |kib| kib * 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// Connects and announces an 8 MiB request body, then sends it slowly:
/// 64 KiB every 100 ms, for at most `for_how_long`.
async fn slow_sender(socket: std::path::PathBuf, for_how_long: Duration) {
    let Ok(mut stream) = tokio::net::UnixStream::connect(&socket).await else {
        return;
    };
    let body = u32::try_from(MAX_STDIN).unwrap_or(u32::MAX);
    let mut header = b"HKGT\x01\x01".to_vec();
    header.extend_from_slice(&body.to_be_bytes());
    assert_eq!(header.len(), HEADER_LEN);
    if stream.write_all(&header).await.is_err() {
        return;
    }
    let chunk = vec![b'y'; 64 << 10];
    let until = tokio::time::Instant::now() + for_how_long;
    while tokio::time::Instant::now() < until {
        if stream.write_all(&chunk).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn peak_memory_stays_under_the_budget() {
    let dir = private_dir();
    let config = default_config(&dir.path().join("audit.jsonl"));
    let gateway = TestGateway::start_in(dir, &config, &[]).await;
    let pid = gateway.pid();
    let (idle_rss, _) = rss(pid);

    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..256 {
        tasks.spawn(slow_sender(
            gateway.socket().to_path_buf(),
            Duration::from_secs(3),
        ));
    }
    let payload = write_payload(MAX_STDIN);
    let mut shims = tokio::task::JoinSet::new();
    for _ in 0..60 {
        let shim = gateway.shim(Some("claude-code"));
        let payload = payload.clone();
        shims.spawn(async move { shim.run(&payload).await });
    }
    let mut peak_seen = 0;
    while !shims.is_empty() {
        tokio::select! {
            done = shims.join_next() => {
                let out = done.expect("a shim").expect("the shim task");
                assert_eq!(out.code, Some(0), "answered (allowed, or busy: fail-open): {out}");
            }
            () = tokio::time::sleep(Duration::from_millis(20)) => {
                peak_seen = peak_seen.max(rss(pid).0);
            }
        }
    }
    while tasks.join_next().await.is_some() {}
    let (_, peak) = rss(pid);
    let status = gateway.status_json().await;
    eprintln!(
        "gateway RSS: idle {} MiB, peak {} MiB (sampled {} MiB); refused {}",
        idle_rss >> 20,
        peak >> 20,
        peak_seen >> 20,
        status["refused"]
    );
    assert!(
        peak <= BUDGET + CONSTANT,
        "peak RSS {} MiB over the budget {} MiB + {} MiB",
        peak >> 20,
        BUDGET >> 20,
        CONSTANT >> 20
    );
    let over_budget = status["refused"]["over_budget"].as_u64().unwrap_or(0);
    assert!(over_budget > 0, "the budget turned work away: {status}");
}
