//! What the console's (`console/`) live stream and event pages show: the last events'
//! decision-log lines (masked by the audit log's own `line`), in a
//! bounded ring with the reply each got, and a broadcast of each new one to the open streams.
//!
//! Off the hook path: the pipeline `try_send`s the event's record into a
//! bounded queue (full: a counted drop, never a wait) and one task masks
//! it, cuts its payload, keeps it and tells the streams. A stream that
//! falls behind loses the oldest events (counted), never slows the others.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::approvals::shorten;
use crate::builtin::audit::{AuditRecord, line};
use hookgate_wire::Reply;

/// Events kept for the pages.
pub const RING: usize = 500;
/// Records waiting to be masked.
const QUEUE: usize = 256;
/// Events a stream may be behind before it loses the oldest.
pub const STREAM_QUEUE: usize = 128;
/// The most of an event's payload kept, as masked JSON text.
const MAX_PAYLOAD_KEPT: usize = 8 * 1024;

/// One event as the console shows it: a short summary for the stream and
/// its whole (masked) decision-log line for its page.
#[derive(Debug)]
pub struct Entry {
    pub summary: Value,
    pub detail: Value,
}

#[derive(Debug)]
struct Shared {
    ring: Mutex<VecDeque<Arc<Entry>>>,
    live: broadcast::Sender<Arc<Entry>>,
}

/// The pipeline's and the console's handle.
#[derive(Debug)]
pub struct Feed {
    tx: mpsc::Sender<(AuditRecord, Option<Reply>)>,
    shared: Arc<Shared>,
    /// Records the queue had no room for.
    pub dropped: AtomicU64,
    /// Events streams lost by falling behind.
    pub lagged: AtomicU64,
}

impl Feed {
    /// Starts the masking task on `tasks`; it ends on `stop`.
    pub fn start(tasks: &TaskTracker, stop: CancellationToken) -> Arc<Feed> {
        let (tx, rx) = mpsc::channel(QUEUE);
        let shared = Arc::new(Shared {
            ring: Mutex::new(VecDeque::with_capacity(RING)),
            live: broadcast::Sender::new(STREAM_QUEUE),
        });
        tasks.spawn(keep(rx, Arc::clone(&shared), stop));
        Arc::new(Feed {
            tx,
            shared,
            dropped: AtomicU64::new(0),
            lagged: AtomicU64::new(0),
        })
    }

    /// Queues an event's record and the reply it got; never waits.
    pub(crate) fn push(&self, record: AuditRecord, reply: Option<Reply>) {
        if self.tx.try_send((record, reply)).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The kept events, oldest first.
    pub fn recent(&self) -> Vec<Arc<Entry>> {
        self.lock().iter().cloned().collect()
    }

    /// The kept event `id`, if still kept.
    pub fn find(&self, id: &str) -> Option<Arc<Entry>> {
        self.lock()
            .iter()
            .rev()
            .find(|e| e.summary["id"].as_str() == Some(id))
            .cloned()
    }

    /// Every event from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Entry>> {
        self.shared.live.subscribe()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Arc<Entry>>> {
        self.shared.ring.lock().unwrap_or_else(|p| p.into_inner())
    }
}

async fn keep(
    mut rx: mpsc::Receiver<(AuditRecord, Option<Reply>)>,
    shared: Arc<Shared>,
    stop: CancellationToken,
) {
    let _ = tokio::task::spawn_blocking(hookgate_mask::prepare).await;
    loop {
        let (record, reply) = tokio::select! {
            () = stop.cancelled() => return,
            record = rx.recv() => match record {
                Some(record) => record,
                None => return,
            },
        };
        let entry = Arc::new(entry(&record, reply.as_ref()));
        drop(record);
        {
            let mut ring = shared.ring.lock().unwrap_or_else(|p| p.into_inner());
            if ring.len() >= RING {
                ring.pop_front();
            }
            ring.push_back(Arc::clone(&entry));
        }
        // No stream open is no error.
        let _ = shared.live.send(entry);
    }
}

/// The masked line, its payload cut, the reply sent (masked, cut), and
/// its summary.
fn entry(record: &AuditRecord, reply: Option<&Reply>) -> Entry {
    let mut detail = line(record);
    if let Some(reply) = reply {
        detail["reply"] = json!({
            "exit_code": reply.exit_code,
            "stdout": reply_text(&reply.stdout),
            "stderr": reply_text(&reply.stderr),
        });
    }
    if let Some(payload) = detail.get_mut("payload") {
        let text = payload.to_string();
        if text.len() > MAX_PAYLOAD_KEPT {
            *payload = json!({ "cut": shorten(&text, MAX_PAYLOAD_KEPT) });
        }
    }
    let decision = &detail["decision"];
    let held = detail["subscribers"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|s| s.get("approval").is_some());
    let summary = json!({
        "id": detail["id"],
        "ts_ms": detail["ts_ms"],
        "agent": detail["agent"],
        "event": detail["event"],
        "kind": detail["kind"],
        "session": detail["session_id"],
        "tool": detail["tool"]["name"],
        "command": detail["tool"]["command"].as_str().map(|c| shorten(c, 200)),
        "decision": decision["permission"],
        "reason": decision["reason"].as_str().map(|r| shorten(r, 300)),
        "rule": decision["rule"],
        "latency_us": detail["latency_us"],
        "error": detail["error"],
        "held": held,
    });
    Entry { summary, detail }
}

/// A reply's stream as kept: masked whole, then cut (cut first, a secret
/// across the cut would keep all but its last characters and slip past
/// the patterns that know its length).
fn reply_text(bytes: &[u8]) -> String {
    shorten(
        &hookgate_mask::mask_str(&String::from_utf8_lossy(bytes)),
        MAX_PAYLOAD_KEPT,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_across_the_cut_is_masked_before_it() {
        let secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        // The cut falls ten bytes into the secret.
        let text = format!("{} {secret} more", "x".repeat(MAX_PAYLOAD_KEPT - 11));
        let kept = reply_text(text.as_bytes());
        assert!(
            !kept.contains(&secret[..10]),
            "{}",
            &kept[kept.len() - 40..]
        );
        assert!(kept.len() <= MAX_PAYLOAD_KEPT + '…'.len_utf8());
    }
}
