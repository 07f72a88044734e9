//! One latency distribution, recorded two ways: fixed Prometheus buckets
//! in atomics (lock-free, exact for `_bucket`/`_sum`/`_count`), and an
//! HDR histogram for percentiles (p50/p95/p99/max) that `gateway status`
//! shows.
//!
//! The HDR histogram is the one lock on the hook path: a `Mutex` held for
//! one `record` call (tens of nanoseconds), never across an await. It is
//! allocated on first use, so the ~150 agent × event cells that never see
//! an event cost a few words each.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Upper bounds of the Prometheus buckets, in microseconds (0.5 ms .. 10 s;
/// `+Inf` is implicit).
pub(crate) const BUCKETS_US: [u64; 14] = [
    500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
    2_500_000, 5_000_000, 10_000_000,
];

/// Highest value the HDR histogram tracks exactly (larger ones saturate):
/// 100 s, far past any deadline the gateway allows.
const HDR_MAX_US: u64 = 100_000_000;

/// A latency distribution.
#[derive(Debug)]
pub struct Latency {
    /// Non-cumulative counts per bucket; the last slot is `+Inf`.
    buckets: [AtomicU64; BUCKETS_US.len() + 1],
    count: AtomicU64,
    sum_us: AtomicU64,
    hdr: Mutex<Option<Histogram<u64>>>,
    /// Significant digits of the HDR histogram (2 = 1 % precision).
    precision: u8,
}

impl Latency {
    /// `precision` significant digits for the percentiles (2 or 3).
    pub fn new(precision: u8) -> Latency {
        Latency {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            count: AtomicU64::new(0),
            sum_us: AtomicU64::new(0),
            hdr: Mutex::new(None),
            precision,
        }
    }

    pub fn record(&self, elapsed: Duration) {
        let us = u64::try_from(elapsed.as_micros())
            .unwrap_or(u64::MAX)
            .max(1);
        let slot = BUCKETS_US
            .iter()
            .position(|bound| us <= *bound)
            .unwrap_or(BUCKETS_US.len());
        self.buckets[slot].fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(us, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut hdr) = self.hdr.lock() {
            if hdr.is_none() {
                *hdr = Histogram::new_with_bounds(1, HDR_MAX_US, self.precision).ok();
            }
            if let Some(hdr) = hdr.as_mut() {
                hdr.saturating_record(us);
            }
        }
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// A copy for reports.
    pub fn snapshot(&self) -> LatencySnapshot {
        let (p50_us, p95_us, p99_us, max_us) = match self.hdr.lock().ok().as_deref() {
            Some(Some(h)) if !h.is_empty() => (
                h.value_at_quantile(0.50),
                h.value_at_quantile(0.95),
                h.value_at_quantile(0.99),
                h.max(),
            ),
            _ => (0, 0, 0, 0),
        };
        let mut cumulative = 0;
        let buckets = self
            .buckets
            .iter()
            .map(|b| {
                cumulative += b.load(Ordering::Relaxed);
                cumulative
            })
            .collect();
        LatencySnapshot {
            count: self.count(),
            sum_us: self.sum_us.load(Ordering::Relaxed),
            p50_us,
            p95_us,
            p99_us,
            max_us,
            buckets,
        }
    }
}

/// A point-in-time copy of a [`Latency`]. Percentiles are 0 when empty.
#[derive(Debug, Clone, Serialize)]
pub struct LatencySnapshot {
    pub count: u64,
    pub sum_us: u64,
    pub p50_us: u64,
    pub p95_us: u64,
    pub p99_us: u64,
    pub max_us: u64,
    /// Cumulative counts for [`BUCKETS_US`] then `+Inf` (Prometheus only).
    #[serde(skip)]
    pub buckets: Vec<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_cumulative_and_percentiles_ordered() {
        let latency = Latency::new(3);
        for us in [100, 700, 700, 3_000, 20_000_000] {
            latency.record(Duration::from_micros(us));
        }
        let snap = latency.snapshot();
        assert_eq!(snap.count, 5);
        assert_eq!(snap.sum_us, 100 + 700 + 700 + 3_000 + 20_000_000);
        assert_eq!(snap.buckets[0], 1, "<= 0.5 ms");
        assert_eq!(snap.buckets[1], 3, "<= 1 ms");
        assert_eq!(snap.buckets[3], 4, "<= 5 ms");
        assert_eq!(snap.buckets[BUCKETS_US.len() - 1], 4, "<= 10 s");
        assert_eq!(snap.buckets[BUCKETS_US.len()], 5, "+Inf");
        assert!(snap.p50_us >= 699 && snap.p50_us <= 701, "{snap:?}");
        assert!(snap.p50_us <= snap.p95_us && snap.p95_us <= snap.p99_us);
        assert!(snap.max_us >= 19_000_000, "{snap:?}");
    }

    #[test]
    fn an_unused_latency_allocates_nothing_and_reports_zeros() {
        let latency = Latency::new(2);
        assert!(latency.hdr.lock().unwrap().is_none());
        let snap = latency.snapshot();
        assert_eq!((snap.count, snap.p99_us, snap.max_us), (0, 0, 0));
    }
}
