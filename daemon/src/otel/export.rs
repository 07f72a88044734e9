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

#[cfg(test)]
mod tests {
    use opentelemetry::trace::{Span as _, Tracer as _, TracerProvider as _};
    use opentelemetry_sdk::error::OTelSdkError;
    use opentelemetry_sdk::trace::SdkTracerProvider;

    use super::*;

    /// The collector's side of an export, as the SDK's exporter reports it.
    #[derive(Debug, Clone, Copy)]
    enum Collector {
        Takes,
        Refuses,
        Hangs,
    }

    #[derive(Debug)]
    struct Exporter(Collector);

    impl SpanExporter for Exporter {
        async fn export(&self, _batch: Vec<SpanData>) -> OTelSdkResult {
            match self.0 {
                Collector::Takes => Ok(()),
                Collector::Refuses => Err(OTelSdkError::InternalFailure("refused".into())),
                Collector::Hangs => std::future::pending().await,
            }
        }
    }

    /// Ends `n` spans through a queue of `queue` in front of `collector`,
    /// lets the export task finish, and returns (exported, dropped in the
    /// queue, dropped by the export).
    async fn run_spans(collector: Collector, queue: usize, n: usize) -> (u64, u64, u64) {
        let metrics = Arc::new(Metrics::default());
        let (processor, rx) = QueueProcessor::new(queue, Arc::clone(&metrics));
        let provider = SdkTracerProvider::builder()
            .with_span_processor(processor)
            .build();
        let tracer = provider.tracer("test");
        // Spans end before the export task runs: only `queue` fit.
        for _ in 0..n {
            tracer.start("event").end();
        }
        let stop = CancellationToken::new();
        stop.cancel();
        let deadline = Duration::from_millis(50);
        run(
            rx,
            Exporter(collector),
            deadline,
            Arc::clone(&metrics),
            stop,
        )
        .await;
        let otel = metrics.otel.snapshot();
        (
            otel.spans_exported,
            otel.spans_dropped_queue,
            otel.spans_dropped_export,
        )
    }

    #[tokio::test]
    async fn every_span_is_exported_or_counted_as_dropped() {
        for (collector, queue, n, expected) in [
            (Collector::Takes, 8, 5, (5, 0, 0)),
            (Collector::Takes, 4, 10, (4, 6, 0)),
            (Collector::Refuses, 8, 5, (0, 0, 5)),
            (Collector::Hangs, 4, 6, (0, 2, 4)),
        ] {
            assert_eq!(
                run_spans(collector, queue, n).await,
                expected,
                "{collector:?} queue {queue}"
            );
        }
    }
}
