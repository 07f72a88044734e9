//! Compression by a model, on a thread of its own: the writer hands it a
//! session to compress (a bounded set; past it the writer summarizes
//! extractively itself), and it asks the model (`model.rs`) with no lock
//! held and stores the memories in place of the raw observations. A model
//! that is down, slow, hanging or answering garbage costs this thread
//! `timeout_ms` per try and nothing else: the raw observations wait in the
//! database, the session is tried again later (backing off, a bounded
//! number of times, then summarized extractively so nothing waits
//! forever; at once when the model answers another session), and each
//! failure is counted in `gateway status`. No hook ever
//! waits here.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hookgate_config::{MemoryConfig, MemoryModel};
use hookgate_memory::Store;

use super::model::{ModelClient, ModelError};
use crate::clock::now_ms_i64 as now_ms;
use crate::metrics::SubscriberStats;

/// Sessions waiting for the model at most; past it the writer compresses
/// extractively.
const MAX_WAITING: usize = 256;
/// Tries per session before the extractive summary is used instead.
const MAX_ATTEMPTS: u32 = 8;
/// The first retry's delay, doubled at each failure up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_secs(1);
const MAX_BACKOFF: Duration = Duration::from_secs(60);
/// Batches of one session compressed per try.
const MAX_BATCHES: usize = 4;
/// How often sessions left waiting are looked for, and how long a
/// session must have been quiet to be one.
const SWEEP_EVERY: Duration = Duration::from_secs(60);
const STALE: Duration = Duration::from_secs(600);

/// The writer's end: hands sessions to the compressor thread.
#[derive(Debug)]
pub(super) struct Handoff {
    tx: SyncSender<String>,
    queued: Arc<Mutex<HashSet<String>>>,
}

impl Handoff {
    /// Queues `session` for the model (once, however often it is offered);
    /// false when the compressor has no room (the caller then compresses
    /// it extractively).
    pub(super) fn offer(&self, session: &str) -> bool {
        let Ok(mut queued) = self.queued.lock() else {
            return false;
        };
        if queued.contains(session) {
            return true;
        }
        if queued.len() >= MAX_WAITING {
            return false;
        }
        match self.tx.try_send(session.to_owned()) {
            Ok(()) => {
                queued.insert(session.to_owned());
                true
            }
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => false,
        }
    }
}

/// Starts the compressor thread for `model`; `None` if no thread could be
/// had (the writer then summarizes extractively).
pub(super) fn start(
    config: &Arc<MemoryConfig>,
    model: &MemoryModel,
    stats: &Arc<SubscriberStats>,
) -> Option<Handoff> {
    let (tx, rx) = sync_channel(MAX_WAITING);
    let queued = Arc::new(Mutex::new(HashSet::new()));
    let mut compressor = Compressor {
        config: Arc::clone(config),
        client: ModelClient::new(model),
        stats: Arc::clone(stats),
        queued: Arc::clone(&queued),
        store: None,
        waiting: HashMap::new(),
    };
    let spawned = std::thread::Builder::new()
        .name("hookgate-memory-model".into())
        .spawn(move || compressor.run(&rx));
    match spawned {
        Ok(_) => Some(Handoff { tx, queued }),
        Err(err) => {
            tracing::warn!(error = %err, "memory: no model thread; compressing extractively");
            None
        }
    }
}

struct Waiting {
    attempts: u32,
    due: Instant,
}

struct Compressor {
    config: Arc<MemoryConfig>,
    client: ModelClient,
    stats: Arc<SubscriberStats>,
    queued: Arc<Mutex<HashSet<String>>>,
    store: Option<Store>,
    waiting: HashMap<String, Waiting>,
}

impl Compressor {
    /// Runs until the writer is gone. Sessions still waiting then keep
    /// their raw observations; a later sweep picks them up.
    fn run(&mut self, rx: &Receiver<String>) {
        let mut swept: Option<Instant> = None;
        loop {
            if swept.is_none_or(|at| at.elapsed() >= SWEEP_EVERY) {
                swept = Some(Instant::now());
                self.sweep();
            }
            let now = Instant::now();
            let next = self.waiting.values().map(|w| w.due).min();
            let sleep = next.map_or(SWEEP_EVERY, |due| due.saturating_duration_since(now));
            match rx.recv_timeout(sleep) {
                Ok(session) => self.wait(session),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
            let now = Instant::now();
            let due: Vec<String> = (self.waiting.iter())
                .filter(|(_, w)| w.due <= now)
                .map(|(s, _)| s.clone())
                .collect();
            for session in due {
                self.try_session(&session);
            }
            self.stats
                .memory
                .model_waiting
                .store(self.waiting.len() as u64, Ordering::Relaxed);
        }
    }

    /// Queues the sessions nothing was heard of for [`STALE`]: left by an
    /// earlier run, or never ended (an agent killed before its Stop).
    fn sweep(&mut self) {
        let before = now_ms().saturating_sub(i64::try_from(STALE.as_millis()).unwrap_or(i64::MAX));
        let room = MAX_WAITING.saturating_sub(self.waiting.len());
        let Some(stale) = self
            .open()
            .and_then(|s| s.sessions_waiting_since(before, room).ok())
        else {
            return;
        };
        for session in stale {
            if let Ok(mut queued) = self.queued.lock() {
                queued.insert(session.clone());
            }
            self.wait(session);
        }
    }

    fn wait(&mut self, session: String) {
        self.waiting.entry(session).or_insert(Waiting {
            attempts: 0,
            due: Instant::now(),
        });
    }

    /// One try at `session`: done (compressed, by the model or, after too
    /// many failures, extractively) or rescheduled.
    fn try_session(&mut self, session: &str) {
        let outcome = self.by_model(session);
        let attempts = self.waiting.get(session).map_or(0, |w| w.attempts) + 1;
        let done = match outcome {
            Ok(answered) => {
                if answered {
                    self.answered_again();
                }
                true
            }
            Err(Failure::Model(err)) => {
                self.stats.errors.fetch_add(1, Ordering::Relaxed);
                self.stats
                    .memory
                    .model_errors
                    .fetch_add(1, Ordering::Relaxed);
                tracing::warn!(error = %err, attempts, "memory: compression by the model failed; the observations wait");
                attempts >= MAX_ATTEMPTS && self.extractive(session)
            }
            Err(Failure::Store(err)) => {
                self.stats.errors.fetch_add(1, Ordering::Relaxed);
                self.stats
                    .memory
                    .store_errors
                    .fetch_add(1, Ordering::Relaxed);
                let err = err.map_or_else(|| "cannot open it".to_owned(), |e| e.to_string());
                tracing::warn!(error = %err, "memory: compressing failed on the database");
                self.store = None;
                // Bounded all the same: a database that never works stops
                // being retried for this session.
                attempts >= MAX_ATTEMPTS
            }
        };
        if done {
            self.waiting.remove(session);
            if let Ok(mut queued) = self.queued.lock() {
                queued.remove(session);
            }
            return;
        }
        let backoff = FIRST_BACKOFF
            .saturating_mul(1 << attempts.saturating_sub(1).min(16))
            .min(MAX_BACKOFF);
        self.waiting.insert(
            session.to_owned(),
            Waiting {
                attempts,
                due: Instant::now() + backoff,
            },
        );
    }

    /// The model answers (again): the sessions backing off after its
    /// failures are tried now rather than up to [`MAX_BACKOFF`] later
    /// (their tries so far still count towards [`MAX_ATTEMPTS`]).
    fn answered_again(&mut self) {
        let now = Instant::now();
        for waiting in self.waiting.values_mut() {
            waiting.due = waiting.due.min(now);
        }
    }

    /// Compresses `session`'s waiting batches by the model; whether the
    /// model was asked (and answered).
    fn by_model(&mut self, session: &str) -> Result<bool, Failure> {
        let (mut batches, mut answered) = (0, false);
        for _ in 0..MAX_BATCHES {
            let store = self.open().ok_or(Failure::Store(None))?;
            let Some(batch) = store.pending_batch(session).map_err(Failure::store)? else {
                break;
            };
            // Only a session's start or end: nothing to ask the model
            // (asked about an empty log, it could only make things up);
            // the batch goes with no memory in its place.
            let log = self.client.log(&batch.observations);
            let memories = if log.is_empty() {
                Vec::new()
            } else {
                self.client.compress(&log).map_err(Failure::Model)?
            };
            let store = self.open().ok_or(Failure::Store(None))?;
            store
                .store_batch(&batch, &memories, now_ms())
                .map_err(Failure::store)?;
            if !log.is_empty() {
                answered = true;
                self.stats
                    .memory
                    .model_compressed
                    .fetch_add(1, Ordering::Relaxed);
            }
            batches += 1;
        }
        if batches > 0 {
            self.stats.memory.compressed.fetch_add(1, Ordering::Relaxed);
        }
        Ok(answered)
    }

    /// The extractive summary, after the model failed too often.
    fn extractive(&mut self, session: &str) -> bool {
        let Some(store) = self.open() else {
            return false;
        };
        match store.compress(session, now_ms()) {
            Ok(_) => {
                self.stats.memory.compressed.fetch_add(1, Ordering::Relaxed);
                true
            }
            Err(err) => {
                tracing::warn!(error = %err, "memory: compressing failed on the database");
                self.store = None;
                false
            }
        }
    }

    fn open(&mut self) -> Option<&mut Store> {
        if self.store.is_none() {
            self.store = Store::open(&self.config.path).ok();
        }
        self.store.as_mut()
    }
}

enum Failure {
    Model(ModelError),
    Store(Option<hookgate_memory::MemoryError>),
}

impl Failure {
    fn store(err: hookgate_memory::MemoryError) -> Failure {
        Failure::Store(Some(err))
    }
}
