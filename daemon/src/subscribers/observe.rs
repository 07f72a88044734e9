//! Observe-mode delivery: a bounded queue and a worker per subscriber, so
//! the hook path hands an event over with one `try_send` and never waits.
//!
//! A full queue is a counted drop. The worker keeps a few calls in flight
//! (each under the subscriber's deadline), so one slow call does not stall
//! the queue behind it. It stops once the pipeline drops its sender and
//! the queue is drained.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use tokio::sync::{Semaphore, mpsc};
use tokio_util::task::TaskTracker;

use super::remote::Remote;
use crate::convert::ProtoEvent;

/// Calls one observe subscriber may have in flight.
const IN_FLIGHT: usize = 16;

/// The hook path's handle on one observe subscriber.
#[derive(Debug)]
pub(crate) struct Observer {
    tx: mpsc::Sender<Arc<ProtoEvent>>,
    remote: Remote,
}

impl Observer {
    /// Starts the worker on `tracker`.
    pub(crate) fn spawn(remote: Remote, queue_size: usize, tracker: &TaskTracker) -> Observer {
        let (tx, rx) = mpsc::channel(queue_size.max(1));
        tracker.spawn(worker(remote.clone(), rx, tracker.clone()));
        Observer { tx, remote }
    }

    /// Queues `event`; never blocks. Every event offered counts as a call
    /// (as for audit); a full queue also counts a drop.
    pub(crate) fn offer(&self, event: Arc<ProtoEvent>) {
        let stats = self.remote.stats();
        stats.calls.fetch_add(1, Ordering::Relaxed);
        if self.tx.try_send(event).is_err() {
            stats.drops.fetch_add(1, Ordering::Relaxed);
            tracing::debug!(subscriber = %self.remote.name(), "observe queue full; event dropped");
        }
    }
}

async fn worker(remote: Remote, mut rx: mpsc::Receiver<Arc<ProtoEvent>>, tracker: TaskTracker) {
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    while let Some(event) = rx.recv().await {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            break;
        };
        let remote = remote.clone();
        tracker.spawn(async move {
            // Converted here, off the hook path, when no decider needed it.
            if remote.call(event.encoded(), None).await.is_ok() {
                remote.stats().ok.fetch_add(1, Ordering::Relaxed);
            }
            drop(permit);
        });
    }
}
