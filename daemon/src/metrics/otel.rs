//! What the OpenTelemetry export did: spans handed to the exporter,
//! dropped (queue full, export failed or late), and the config's refused
//! overrides, counted so `gateway status` and Prometheus can say so.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::Serialize;

/// The export's counters.
#[derive(Debug, Default)]
pub struct OtelStats {
    /// `[otel]` is on.
    pub enabled: AtomicBool,
    /// Spans the collector accepted.
    pub spans_exported: AtomicU64,
    /// Spans that never reached the collector: the export queue was full.
    pub spans_dropped_queue: AtomicU64,
    /// Spans in batches the collector refused, or that missed the export
    /// deadline.
    pub spans_dropped_export: AtomicU64,
}

/// A copy of [`OtelStats`] for reports.
#[derive(Debug, Clone, Serialize)]
pub struct OtelSnapshot {
    pub enabled: bool,
    pub spans_exported: u64,
    pub spans_dropped: u64,
    pub spans_dropped_queue: u64,
    pub spans_dropped_export: u64,
}

impl OtelStats {
    pub fn snapshot(&self) -> OtelSnapshot {
        let queue = self.spans_dropped_queue.load(Ordering::Relaxed);
        let export = self.spans_dropped_export.load(Ordering::Relaxed);
        OtelSnapshot {
            enabled: self.enabled.load(Ordering::Relaxed),
            spans_exported: self.spans_exported.load(Ordering::Relaxed),
            spans_dropped: queue + export,
            spans_dropped_queue: queue,
            spans_dropped_export: export,
        }
    }
}
