//! The built-in `memory` subscriber (issue #31, docs/memory.md): what
//! agents do, kept in one SQLite file (the `hookgate-memory` crate) and
//! told to later sessions of the same project, whichever agent runs them.
//!
//! It records and decides. Recording (`capture.rs`) happens after the
//! reply: each event's observations are masked, then `try_send` into a
//! bounded queue (a full queue is a counted drop) that one dedicated
//! thread (`writer.rs`) drains into the database, compressing a session at
//! its end (by a configured model on a thread of its own, `compressor.rs`
//! and `model.rs`, else by the extractive summary). Deciding (`inject.rs`) answers only events that carry context
//! (a session's start, a prompt) with the project's memories as additional
//! context, within `inject_bytes` and `timeout_ms`: a late, locked or
//! corrupt database answers nothing and counts an error.

mod capture;
mod compressor;
mod inject;
mod model;
mod writer;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{SyncSender, TrySendError, sync_channel};

use hookgate_adapters::{Decision, EventKind};
use hookgate_config::MemoryConfig;
use tokio_util::task::TaskTracker;

use super::audit::AuditRecord;
use super::{Answer, Builtin, Call, Failed, Role, Ruling};
use crate::metrics::SubscriberStats;
use inject::{Ask, ReadError, Reader};

/// One `memory` subscriber.
#[derive(Debug)]
pub(crate) struct Memory {
    config: Arc<MemoryConfig>,
    tx: SyncSender<capture::Capture>,
    reader: Arc<Reader>,
    stats: Arc<SubscriberStats>,
}

impl Memory {
    /// The subscriber, its writer thread started (it ends once this is
    /// dropped and its queue drained; `workers` waits for that).
    pub(crate) fn start(
        config: &MemoryConfig,
        stats: Arc<SubscriberStats>,
        workers: &TaskTracker,
    ) -> Memory {
        stats.memory.active.store(true, Ordering::Relaxed);
        let config = Arc::new(config.clone());
        let (tx, rx) = sync_channel(config.queue_size.max(1));
        let (done_tx, done_rx) = tokio::sync::oneshot::channel::<()>();
        let (thread_config, thread_stats) = (Arc::clone(&config), Arc::clone(&stats));
        let spawned = std::thread::Builder::new()
            .name("hookgate-memory".into())
            .spawn(move || {
                // Masking's patterns compiled before the first capture.
                hookgate_mask::prepare();
                writer::run(thread_config, rx, thread_stats);
                let _ = done_tx.send(());
            });
        match spawned {
            // Shutdown waits for the queue to be written.
            Ok(_) => {
                workers.spawn(async move {
                    let _ = done_rx.await;
                });
            }
            Err(err) => {
                tracing::warn!(error = %err, "memory: no writer thread; nothing will be recorded");
            }
        }
        let reader = Arc::new(Reader::new(config.path.clone(), config.timeout));
        Memory {
            config,
            tx,
            reader,
            stats,
        }
    }
}

impl Builtin for Memory {
    fn role(&self) -> Role {
        Role {
            decides: true,
            records: true,
        }
    }

    fn decide<'a>(&'a self, call: &'a Call<'a>) -> Answer<'a> {
        let event = call.event;
        let text = match event.kind {
            EventKind::SessionStart | EventKind::SessionResume => String::new(),
            EventKind::PromptSubmit => event.prompt.clone().unwrap_or_default(),
            _ => return Answer::Now(Ok(Ruling::default())),
        };
        let cwd = event
            .cwd
            .as_deref()
            .or(event.workspace_roots.first().map(String::as_str));
        let Some(cwd) = cwd.filter(|_| event.capabilities.context && self.config.inject_bytes > 0)
        else {
            return Answer::Now(Ok(Ruling::default()));
        };
        let ask = Ask {
            cwd: cwd.to_owned(),
            text,
            budget: self.config.inject_bytes,
            now_ms: crate::clock::now_ms_i64(),
        };
        let (reader, config) = (Arc::clone(&self.reader), Arc::clone(&self.config));
        let timeout = self.config.timeout;
        let stats = Arc::clone(&self.stats);
        Answer::Later(Box::pin(async move {
            let read = tokio::task::spawn_blocking(move || {
                reader.context(&ask, &|project| config.exclude.is_match(project))
            });
            let failed = |class| {
                stats.memory.read_errors.fetch_add(1, Ordering::Relaxed);
                Failed {
                    class,
                    instead: Decision::default(),
                }
            };
            match tokio::time::timeout(timeout, read).await {
                Err(_) => {
                    stats.timeouts.fetch_add(1, Ordering::Relaxed);
                    Err(failed("memory read timed out"))
                }
                Ok(Err(_)) => Err(failed("memory read panicked")),
                Ok(Ok(Err(ReadError::Busy))) => Err(failed("memory reads busy")),
                Ok(Ok(Err(ReadError::Store(err)))) => {
                    tracing::debug!(error = %err, "memory read failed");
                    Err(failed("memory database"))
                }
                Ok(Ok(Ok(context))) => {
                    if context.is_some() {
                        stats.memory.injected.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(Ruling::from(Decision {
                        additional_context: context,
                        ..Decision::default()
                    }))
                }
            }
        }))
    }

    fn record(&self, record: AuditRecord) {
        let Some(event) = &record.event else {
            return;
        };
        let at_ms = i64::try_from(crate::clock::unix_ms(record.at)).unwrap_or(i64::MAX);
        let Some(capture) = capture::capture(event, at_ms) else {
            return;
        };
        match self.tx.try_send(capture) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.stats.drops.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}
