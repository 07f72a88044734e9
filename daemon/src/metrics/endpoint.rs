//! Per-endpoint detail of a remote subscriber with several endpoints: what
//! its health check last found and how many calls it handed on. The
//! subscriber's own counters, breaker and state stay per subscriber.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use serde::Serialize;

/// One endpoint's counters, shared by its balancer entry and the reports.
#[derive(Debug, Default)]
pub struct EndpointStats {
    /// Calls it could not take (not reachable, TLS or connection failed,
    /// UNAVAILABLE), handed to the next endpoint or, from the last one,
    /// failed.
    pub failed: AtomicU64,
    /// 0: not checked yet; 1: serving; 2: not serving or unreachable.
    health: AtomicU8,
}

impl EndpointStats {
    /// What its health check found.
    pub fn set_serving(&self, serving: bool) {
        self.health
            .store(if serving { 1 } else { 2 }, Ordering::Relaxed);
    }

    fn health(&self) -> &'static str {
        match self.health.load(Ordering::Relaxed) {
            1 => "serving",
            2 => "down",
            _ => "unknown",
        }
    }
}

/// One endpoint in `gateway status --json` (`subscribers[].endpoints`).
#[derive(Debug, Clone, Serialize)]
pub struct EndpointSnapshot {
    pub endpoint: String,
    /// `unknown`, `serving` or `down`, from its last health check.
    pub health: &'static str,
    pub failed: u64,
}

/// The snapshot of every endpoint in `list`.
pub(crate) fn snapshot(list: &[(String, Arc<EndpointStats>)]) -> Vec<EndpointSnapshot> {
    list.iter()
        .map(|(endpoint, stats)| EndpointSnapshot {
            endpoint: endpoint.clone(),
            health: stats.health(),
            failed: stats.failed.load(Ordering::Relaxed),
        })
        .collect()
}
