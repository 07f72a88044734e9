//! The counters only an `approval` with webhooks or desktop notifications
//! has: notifications sent and failed (a request or program that failed,
//! or a notice the notifier's queue had no room for), for `gateway
//! status`. Kept apart from the generic counters: a notification is not
//! an answer, and a failed one never changes the held call's.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::Serialize;

/// An approval's notification counters.
#[derive(Debug, Default)]
pub struct NotifyStats {
    /// Set when the subscriber notifies, so `gateway status` shows these
    /// counters for it and no other.
    pub active: AtomicBool,
    pub sent: AtomicU64,
    pub failed: AtomicU64,
}

/// [`NotifyStats`] as `gateway status` shows them (`notifications` of a
/// subscriber).
#[derive(Debug, Clone, Serialize)]
pub struct NotifySnapshot {
    pub sent: u64,
    pub failed: u64,
}

impl NotifyStats {
    /// The counters, if this subscriber notifies.
    pub fn snapshot(&self) -> Option<NotifySnapshot> {
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
        self.active.load(Ordering::Relaxed).then(|| NotifySnapshot {
            sent: load(&self.sent),
            failed: load(&self.failed),
        })
    }
}
