//! What both front doors (the socket and the HTTP endpoint) share to admit
//! a hook call: the pipeline, the counters, the memory budget, the
//! evaluation slots and the deadlines.
//!
//! One set of slots and one budget for both, so `max_connections` bounds
//! the evaluations in progress whichever way the calls arrive.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::budget::Budget;
use crate::metrics::Metrics;
use crate::pipeline::Pipeline;
use hookgate_config::ServerConfig;

#[derive(Debug)]
pub(crate) struct Admission {
    pub(crate) pipeline: Arc<Pipeline>,
    pub(crate) metrics: Arc<Metrics>,
    /// The bytes in flight: a request's are reserved before it is read.
    pub(crate) budget: Budget,
    /// How long a request may take to arrive, and a reply to be taken.
    pub(crate) read_timeout: Duration,
    /// How long a request read in full may wait for an evaluation slot.
    pub(crate) queue_wait: Duration,
    slots: Arc<Semaphore>,
    max_evaluations: usize,
}

impl Admission {
    pub(crate) fn new(
        pipeline: Arc<Pipeline>,
        metrics: Arc<Metrics>,
        config: &ServerConfig,
    ) -> Self {
        Self {
            pipeline,
            metrics,
            budget: Budget::new(config.memory_budget),
            read_timeout: config.read_timeout,
            queue_wait: config.queue_wait,
            slots: Arc::new(Semaphore::new(config.max_connections)),
            max_evaluations: config.max_connections,
        }
    }

    /// How many requests may be evaluated at once.
    pub(crate) fn max_evaluations(&self) -> usize {
        self.max_evaluations
    }

    /// An evaluation slot if one is free now.
    pub(crate) fn free_slot(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.slots).try_acquire_owned().ok()
    }

    /// An evaluation slot, waiting at most `queue_wait` for one.
    pub(crate) async fn slot(&self) -> Option<OwnedSemaphorePermit> {
        if let Some(permit) = self.free_slot() {
            return Some(permit);
        }
        let waited = tokio::time::timeout(self.queue_wait, Arc::clone(&self.slots).acquire_owned());
        waited.await.ok()?.ok()
    }
}
