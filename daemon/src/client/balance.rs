//! Several endpoints of one subscriber: client-side balancing and failover
//! inside one call's deadline.
//!
//! Calls take turns over the endpoints (round robin). An endpoint that
//! just failed to connect, whose connection broke, whose TLS failed, or
//! that answered UNAVAILABLE (what a proxy answers with no healthy
//! upstream) is tried last for the `avoid_for` that follows (the
//! subscriber's breaker cool-down), and also while its health check says
//! it is down; the same call then goes on to the next endpoint. Only when
//! every endpoint failed does the call fail, with the last error, so one
//! endpoint dying costs no event. The caller's deadline bounds the whole
//! round, so each endpoint's connect attempt is bounded by a share of it.
//! An endpoint that answered anything else (a decision, another gRPC
//! status, a bad reply) answered: that is the call's outcome.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use prost::bytes::Bytes;
use tonic::transport::Channel;

use super::error::CallError;
use super::unary::UnaryClient;
use crate::metrics::endpoint::EndpointStats;

/// One endpoint: its event connection and its health-check channel.
#[derive(Debug)]
pub(crate) struct Backend {
    client: UnaryClient,
    channel: Channel,
    /// Milliseconds after `Backends::epoch` of its last failure, plus one
    /// (0: none yet).
    failed_at: AtomicU64,
    /// Its last health check said it is not serving.
    down: AtomicBool,
    /// What reports show of it.
    stats: Arc<EndpointStats>,
}

impl Backend {
    pub(crate) fn new(client: UnaryClient, channel: Channel) -> Backend {
        Backend {
            client,
            channel,
            failed_at: AtomicU64::new(0),
            down: AtomicBool::new(false),
            stats: Arc::default(),
        }
    }

    /// Its counters, for `gateway status`.
    pub(crate) fn stats(&self) -> &Arc<EndpointStats> {
        &self.stats
    }

    /// The endpoint as configured.
    pub(crate) fn endpoint(&self) -> &str {
        self.client.endpoint()
    }

    /// Its health-check channel.
    pub(crate) fn channel(&self) -> Channel {
        self.channel.clone()
    }

    /// What its health check found: `false` puts it last in the order.
    pub(crate) fn set_serving(&self, serving: bool) {
        self.down.store(!serving, Ordering::Relaxed);
        self.stats.set_serving(serving);
    }
}

/// Every endpoint of one subscriber.
#[derive(Debug)]
pub(crate) struct Backends {
    backends: Vec<Backend>,
    next: AtomicUsize,
    avoid_for: Duration,
    epoch: Instant,
}

impl Backends {
    /// `backends` must not be empty (the config has at least one).
    pub(crate) fn new(backends: Vec<Backend>, avoid_for: Duration) -> Backends {
        Backends {
            backends,
            next: AtomicUsize::new(0),
            avoid_for,
            epoch: Instant::now(),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Backend> {
        self.backends.iter()
    }

    /// One call, failing over from endpoint to endpoint; the caller bounds
    /// it by the call's deadline, sent as `deadline` when it is not the
    /// subscriber's own.
    pub(crate) async fn call(
        &self,
        message: Bytes,
        deadline: Option<Duration>,
    ) -> Result<Bytes, CallError> {
        let order = self.order();
        let mut last = None;
        for index in order {
            let Some(backend) = self.backends.get(index) else {
                continue;
            };
            match backend.client.call_within(message.clone(), deadline).await {
                Err(err) if fails_over(&err) => {
                    self.failed(backend);
                    tracing::debug!(endpoint = backend.endpoint(), error = %err, "endpoint failed; trying the next");
                    last = Some(err);
                }
                other => return other,
            }
        }
        Err(last.unwrap_or_else(|| CallError::Connect("no endpoint".to_owned())))
    }

    /// Round robin from the next turn, endpoints that failed lately or are
    /// down last (in their turn order).
    fn order(&self) -> Vec<usize> {
        let n = self.backends.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let now = self.millis();
        let avoid = u64::try_from(self.avoid_for.as_millis()).unwrap_or(u64::MAX);
        let mut order: Vec<usize> = (0..n).map(|i| (start + i) % n.max(1)).collect();
        // Stable: turn order kept inside each group.
        order.sort_by_key(|&i| {
            self.backends.get(i).is_some_and(|b| {
                let failed = b.failed_at.load(Ordering::Relaxed);
                b.down.load(Ordering::Relaxed)
                    || (failed != 0 && now.saturating_sub(failed - 1) < avoid)
            })
        });
        order
    }

    fn failed(&self, backend: &Backend) {
        backend.stats.failed.fetch_add(1, Ordering::Relaxed);
        backend
            .failed_at
            .store(self.millis() + 1, Ordering::Relaxed);
    }

    fn millis(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX - 1)
    }
}

/// Whether another endpoint may take the call: this one was not reached,
/// lost the connection, or said it cannot serve.
fn fails_over(err: &CallError) -> bool {
    match err {
        CallError::Connect(_)
        | CallError::Tls(_)
        | CallError::ForeignPeer(_)
        | CallError::Transport(_) => true,
        CallError::Status { code, .. } => *code == tonic::Code::Unavailable,
        CallError::Protocol(_) => false,
    }
}

#[cfg(test)]
mod tests;
