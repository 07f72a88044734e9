//! The bounded export queue between the hook path and the collector.
//!
//! The SDK's batch processor neither says how many spans it dropped nor
//! runs on our runtime, so spans go through this instead: `on_end` (on the
//! hook path) only `try_send`s into a bounded channel, a full queue being a
//! counted drop; one task batches and exports under a deadline, counting
//! what the collector refused or did not take in time. A down or slow
//! collector therefore costs a hook nothing but the send attempt.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use opentelemetry::Context;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{Span, SpanData, SpanExporter, SpanProcessor};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::metrics::Metrics;

/// Spans per export call, at most.
const MAX_BATCH: usize = 512;
/// How long a batch waits to fill after its first span.
const BATCH_DELAY: Duration = Duration::from_millis(200);

/// The hook path's end of the queue.
#[derive(Debug)]
pub(super) struct QueueProcessor {
    spans: mpsc::Sender<SpanData>,
    metrics: Arc<Metrics>,
}

impl QueueProcessor {
    /// A processor feeding a queue of `size` spans, and the queue's other end.
    pub(super) fn new(
        size: usize,
        metrics: Arc<Metrics>,
    ) -> (QueueProcessor, mpsc::Receiver<SpanData>) {
        let (spans, rx) = mpsc::channel(size.max(1));
        (QueueProcessor { spans, metrics }, rx)
    }
}

impl SpanProcessor for QueueProcessor {
    fn on_start(&self, _span: &mut Span, _cx: &Context) {}

    fn on_end(&self, span: SpanData) {
        if self.spans.try_send(span).is_err() {
            self.metrics
                .otel
                .spans_dropped_queue
                .fetch_add(1, Ordering::Relaxed);
        }
    }

    fn force_flush(&self) -> OTelSdkResult {
        Ok(())
    }

    fn shutdown_with_timeout(&self, _timeout: Duration) -> OTelSdkResult {
        Ok(())
    }
}

/// Exports what the queue holds until `stop`, then what is left once.
pub(super) async fn run<E: SpanExporter>(
    mut spans: mpsc::Receiver<SpanData>,
    exporter: E,
    deadline: Duration,
    metrics: Arc<Metrics>,
    stop: CancellationToken,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    loop {
        let first = tokio::select! {
            () = stop.cancelled() => None,
            span = spans.recv() => span,
        };
        let Some(first) = first else { break };
        batch.push(first);
        let until = Instant::now() + BATCH_DELAY;
        while batch.len() < MAX_BATCH {
            match tokio::time::timeout_at(until, spans.recv()).await {
                Ok(Some(span)) => batch.push(span),
                Ok(None) | Err(_) => break,
            }
        }
        export(&exporter, std::mem::take(&mut batch), deadline, &metrics).await;
    }
    // Shutting down: one last export of what is queued.
    while let Ok(span) = spans.try_recv() {
        batch.push(span);
    }
    if !batch.is_empty() {
        export(&exporter, batch, deadline, &metrics).await;
    }
}

async fn export<E: SpanExporter>(
    exporter: &E,
    batch: Vec<SpanData>,
    deadline: Duration,
    metrics: &Metrics,
) {
    let n = u64::try_from(batch.len()).unwrap_or(u64::MAX);
    match tokio::time::timeout(deadline, exporter.export(batch)).await {
        Ok(Ok(())) => {
            metrics.otel.spans_exported.fetch_add(n, Ordering::Relaxed);
        }
        outcome => {
            metrics
                .otel
                .spans_dropped_export
                .fetch_add(n, Ordering::Relaxed);
            let why = match outcome {
                Ok(Err(err)) => err.to_string(),
                _ => format!("no answer within {} ms", deadline.as_millis()),
            };
            crate::warnings::warn(
                crate::warnings::Warning::Telemetry,
                format_args!("OTLP span export failed ({why}); {n} spans dropped"),
            );
        }
    }
}
