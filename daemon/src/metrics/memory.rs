//! The counters only a `memory` subscriber has: what its writer stored and
//! compressed, and what failed on each side, for `gateway status`.
//!
//! Kept apart from the generic counters, where `ok` counts its answers
//! (an injection, or no opinion on the other events): captures stored are
//! not answers.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::Serialize;

/// A memory subscriber's own counters.
#[derive(Debug, Default)]
pub struct MemoryStats {
    /// Set when the subscriber is a memory, so `gateway status` shows
    /// these counters for it and no other.
    pub active: AtomicBool,
    /// Captures (one event's observations) stored.
    pub stored: AtomicU64,
    /// Captures lost to a database that could not be opened or written
    /// (each also in `errors`).
    pub store_errors: AtomicU64,
    /// Sessions compressed into memories.
    pub compressed: AtomicU64,
    /// Injections that gave up: late, busy, or a database that could not
    /// be read (each also in `errors`).
    pub read_errors: AtomicU64,
    /// Injections that told the agent something.
    pub injected: AtomicU64,
}

/// [`MemoryStats`] as `gateway status` shows them (`memory` of a subscriber).
#[derive(Debug, Clone, Serialize)]
pub struct MemorySnapshot {
    pub stored: u64,
    pub store_errors: u64,
    pub compressed: u64,
    pub read_errors: u64,
    pub injected: u64,
}

impl MemoryStats {
    /// The counters, if this subscriber is a memory.
    pub fn snapshot(&self) -> Option<MemorySnapshot> {
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
        self.active.load(Ordering::Relaxed).then(|| MemorySnapshot {
            stored: load(&self.stored),
            store_errors: load(&self.store_errors),
            compressed: load(&self.compressed),
            read_errors: load(&self.read_errors),
            injected: load(&self.injected),
        })
    }
}
