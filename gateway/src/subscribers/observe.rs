//! Observe-mode delivery: a bounded queue and a worker per subscriber, so
//! the hook path hands an event over with one `try_send` and never waits.
//!
//! A full queue is a counted drop. The worker keeps a few calls in flight
//! (each under the subscriber's deadline), so one slow call does not stall
//! the queue behind it. It stops once the pipeline drops its sender and
//! the queue is drained.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use hookgate_proto::v1;
use tokio::sync::{Semaphore, mpsc};
use tokio_util::task::TaskTracker;

use super::remote::Remote;

/// Calls one observe subscriber may have in flight.
const IN_FLIGHT: usize = 16;

/// The hook path's handle on one observe subscriber.
#[derive(Debug, Clone)]
pub struct Observer {
    name: Arc<str>,
    tx: mpsc::Sender<Arc<v1::HookEvent>>,
    remote: Remote,
}

impl Observer {
    /// Starts the worker on `tracker`.
    pub fn spawn(remote: Remote, queue_size: usize, tracker: &TaskTracker) -> Observer {
        let (tx, rx) = mpsc::channel(queue_size.max(1));
        tracker.spawn(worker(remote.clone(), rx, tracker.clone()));
        Observer {
            name: remote.name().into(),
            tx,
            remote,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The subscriber behind the queue.
    pub fn remote(&self) -> &Remote {
        &self.remote
    }

    /// Queues `event`; never blocks. A full queue counts a drop.
    pub fn offer(&self, event: Arc<v1::HookEvent>) {
        if self.tx.try_send(event).is_err() {
            self.remote.stats().drops.fetch_add(1, Ordering::Relaxed);
            tracing::debug!(subscriber = %self.name, "observe queue full; event dropped");
        }
    }
}

async fn worker(remote: Remote, mut rx: mpsc::Receiver<Arc<v1::HookEvent>>, tracker: TaskTracker) {
    let slots = Arc::new(Semaphore::new(IN_FLIGHT));
    while let Some(event) = rx.recv().await {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            break;
        };
        let remote = remote.clone();
        tracker.spawn(async move {
            if remote.call((*event).clone()).await.is_ok() {
                remote.stats().ok.fetch_add(1, Ordering::Relaxed);
            }
            drop(permit);
        });
    }
}
