//! The counters only a decision log (the built-in `audit`) has: what its
//! writer had to do besides writing, for `gateway status`.
//!
//! Kept apart from the generic subscriber counters so a log that was moved
//! away, or an anchor that cannot be written, shows as itself rather than
//! hiding in `ok` (the records were written) or `errors` (they were not).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::Serialize;

/// A decision log's own counters.
#[derive(Debug, Default)]
pub struct AuditStats {
    /// Set when the subscriber is a decision log, so `gateway status`
    /// shows these counters for it and no other.
    pub active: AtomicBool,
    /// Times the log's path named another file (or none) before a write:
    /// moved or deleted while the gateway ran; reopened at the path.
    pub reopened: AtomicU64,
    /// Anchor writes that failed (the records themselves were written).
    pub anchor_errors: AtomicU64,
}

/// [`AuditStats`] as `gateway status` shows them (`audit` of a subscriber).
#[derive(Debug, Clone, Serialize)]
pub struct AuditSnapshot {
    pub reopened: u64,
    pub anchor_errors: u64,
}

impl AuditStats {
    /// The counters, if this subscriber is a decision log.
    pub fn snapshot(&self) -> Option<AuditSnapshot> {
        self.active.load(Ordering::Relaxed).then(|| AuditSnapshot {
            reopened: self.reopened.load(Ordering::Relaxed),
            anchor_errors: self.anchor_errors.load(Ordering::Relaxed),
        })
    }
}
