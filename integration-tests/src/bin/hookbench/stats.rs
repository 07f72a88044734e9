//! Summaries of repeated measurements: medians and tail percentiles, never
//! single times, because a shared 2-core machine is noisy.

use std::time::Duration;

/// Order statistics of one series of timings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Summary {
    pub(crate) n: usize,
    pub(crate) median: Duration,
    pub(crate) p95: Duration,
    pub(crate) min: Duration,
}

impl Summary {
    /// Summarizes `samples`; `None` when there are none.
    pub(crate) fn of(samples: &[Duration]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        Some(Summary {
            n: sorted.len(),
            median: percentile(&sorted, 50.0)?,
            p95: percentile(&sorted, 95.0)?,
            min: sorted[0],
        })
    }
}

/// Nearest-rank percentile of an already sorted slice; `None` when empty.
pub(crate) fn percentile(sorted: &[Duration], pct: f64) -> Option<Duration> {
    let rank = ((pct / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted.get(rank.clamp(1, sorted.len().max(1)) - 1).copied()
}

/// Milliseconds with three decimals, for tables.
pub(crate) fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1e3)
}

/// `a / b` as a ratio with two decimals (`b` must not be zero).
pub(crate) fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(f64::MIN_POSITIVE)
}

/// Least-squares slope of `y` against `x` (the per-step cost of a series).
pub(crate) fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if points.len() < 2 {
        return 0.0;
    }
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let cov: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let var: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    if var == 0.0 { 0.0 } else { cov / var }
}

/// `a − b` in milliseconds, signed.
pub(crate) fn signed_ms(a: Duration, b: Duration) -> String {
    format!("{:+.3}", (a.as_secs_f64() - b.as_secs_f64()) * 1e3)
}
