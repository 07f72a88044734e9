//! The counters only a `memory` subscriber has: what its writer stored and
//! compressed (by a model too), and what failed on each side, for
//! `gateway status`.
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
    /// Sessions whose raw observations were compressed: into memories, or
    /// dropped when they held nothing but a start or an end.
    pub compressed: AtomicU64,
    /// Injections that gave up: late, busy, or a database that could not
    /// be read (each also in `errors`).
    pub read_errors: AtomicU64,
    /// Injections that told the agent something.
    pub injected: AtomicU64,
    /// Batches of observations a model compressed.
    pub model_compressed: AtomicU64,
    /// Compressions by the model that failed: down, slow, an HTTP error
    /// or garbage (each also in `errors`; the observations wait).
    pub model_errors: AtomicU64,
    /// Sessions waiting for the model now.
    pub model_waiting: AtomicU64,
}

/// [`MemoryStats`] as `gateway status` shows them (`memory` of a subscriber).
#[derive(Debug, Clone, Serialize)]
pub struct MemorySnapshot {
    pub stored: u64,
    pub store_errors: u64,
    pub compressed: u64,
    pub read_errors: u64,
    pub injected: u64,
    pub model_compressed: u64,
    pub model_errors: u64,
    pub model_waiting: u64,
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
            model_compressed: load(&self.model_compressed),
            model_errors: load(&self.model_errors),
            model_waiting: load(&self.model_waiting),
        })
    }
}
