//! The one thread that writes the memory database: observations from a
//! bounded queue (the hook path `try_send`s; a full queue is a counted
//! drop), compression at a session's end or past `compress_after` raw
//! observations (handed to `compressor.rs` when a model is configured),
//! and the retention caps. A database that cannot be
//! opened or written counts an error per capture and is opened again (at
//! most once a second) until it works: nothing here ever reaches a hook.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use hookgate_config::MemoryConfig;
use hookgate_memory::{Observation, Retention, Store, project_of};

use super::capture::Capture;
use super::compressor::{self, Handoff};
use crate::clock::now_ms_i64 as now_ms;
use crate::metrics::SubscriberStats;

/// Captures between two applications of the retention caps.
const RETAIN_EVERY: u64 = 1000;
/// The shortest time between two attempts to open a failing database.
const REOPEN_AFTER: Duration = Duration::from_secs(1);

/// Runs until every sender is dropped and the queue is drained.
pub(super) fn run(config: Arc<MemoryConfig>, rx: Receiver<Capture>, stats: Arc<SubscriberStats>) {
    // With a model: a thread of its own asks it, never this one.
    let handoff = (config.model.as_ref())
        .and_then(|model| compressor::start(&config, model, &stats))
        .map(Arc::new);
    let mut writer = Writer {
        config,
        stats,
        handoff,
        store: None,
        failed_at: None,
        since_retain: RETAIN_EVERY,
        failing: false,
    };
    while let Ok(capture) = rx.recv() {
        writer.write(capture);
    }
}

struct Writer {
    config: Arc<MemoryConfig>,
    stats: Arc<SubscriberStats>,
    handoff: Option<Arc<Handoff>>,
    store: Option<Store>,
    failed_at: Option<Instant>,
    since_retain: u64,
    failing: bool,
}

impl Writer {
    fn write(&mut self, capture: Capture) {
        let Some(project) = project_of(&capture.cwd) else {
            return;
        };
        if self.config.exclude.is_match(&project) {
            return;
        }
        let config = Arc::clone(&self.config);
        let handoff = self.handoff.clone();
        let Some(store) = self.store() else {
            self.count_error();
            return;
        };
        match save(store, &config, handoff.as_deref(), &project, &capture) {
            Ok(compressed) => {
                self.stats.memory.stored.fetch_add(1, Ordering::Relaxed);
                if compressed {
                    self.stats.memory.compressed.fetch_add(1, Ordering::Relaxed);
                }
                if std::mem::replace(&mut self.failing, false) {
                    tracing::info!(path = %self.config.path.display(), "memory database writable again");
                }
            }
            // A key from the payload out of bounds: this capture only.
            Err(hookgate_memory::MemoryError::Invalid { .. }) => {
                self.stats.drops.fetch_add(1, Ordering::Relaxed);
            }
            Err(err) => self.failed(&err),
        }
        self.since_retain += 1;
        if self.since_retain >= RETAIN_EVERY {
            self.since_retain = 0;
            let policy = Retention {
                max_age: self.config.retention,
                max_bytes: self.config.max_bytes,
            };
            if let Some(store) = self.store.as_mut()
                && let Err(err) = store.retain(policy, now_ms())
            {
                self.failed(&err);
            }
        }
    }

    /// The open store, opening it if it is not (at most once a second
    /// after a failure).
    fn store(&mut self) -> Option<&mut Store> {
        if self.store.is_none() {
            if self.failed_at.is_some_and(|at| at.elapsed() < REOPEN_AFTER) {
                return None;
            }
            match Store::open(&self.config.path) {
                Ok(store) => {
                    self.store = Some(store);
                    self.failed_at = None;
                }
                Err(err) => {
                    self.failed_at = Some(Instant::now());
                    self.warn(&err);
                    return None;
                }
            }
        }
        self.store.as_mut()
    }

    /// Counts a failed write and drops the connection, so the next one
    /// opens the file afresh (it may have been repaired or replaced).
    fn failed(&mut self, err: &hookgate_memory::MemoryError) {
        self.count_error();
        self.store = None;
        self.failed_at = Some(Instant::now());
        self.warn(err);
    }

    fn count_error(&self) {
        self.stats.errors.fetch_add(1, Ordering::Relaxed);
        self.stats
            .memory
            .store_errors
            .fetch_add(1, Ordering::Relaxed);
    }

    fn warn(&mut self, err: &hookgate_memory::MemoryError) {
        if !std::mem::replace(&mut self.failing, true) {
            tracing::warn!(path = %self.config.path.display(), error = %err, "memory database failing; captures are dropped and counted until it works");
        } else {
            tracing::debug!(path = %self.config.path.display(), error = %err, "memory database failing again");
        }
    }
}

/// Stores one capture, then compresses its session if it ended or has
/// passed `compress_after` raw observations (true when it did), or hands
/// it to the model's thread (false).
fn save(
    store: &mut Store,
    config: &MemoryConfig,
    handoff: Option<&Handoff>,
    project: &str,
    capture: &Capture,
) -> Result<bool, hookgate_memory::MemoryError> {
    for (kind, text) in &capture.items {
        store.record(&Observation {
            project: project.to_owned(),
            agent: capture.agent.to_owned(),
            session: capture.session.clone(),
            kind: *kind,
            text: text.clone(),
            at_ms: capture.at_ms,
        })?;
    }
    if capture.compress || store.pending(&capture.session)? >= config.compress_after {
        // The model's thread takes it if it has room; else the extractive
        // summary now.
        if handoff.is_some_and(|h| h.offer(&capture.session)) {
            return Ok(false);
        }
        store.compress(&capture.session, now_ms())?;
        return Ok(true);
    }
    Ok(false)
}
