//! OpenTelemetry export (`[otel]`): one span per hook event with a child
//! span per decide subscriber call, and the gateway's counters, over OTLP
//! to a collector.
//!
//! Off by default, and then [`Telemetry::off`] costs the hook path one
//! branch. On, the hook path only builds spans in memory; finished ones go
//! through a bounded queue (`export`) to one export task, so a down or
//! slow collector delays no hook: spans are dropped and counted instead.
//! Payloads are not attached unless `payloads = true`, and then masked
//! (the audit log's masking) off the hook path, after the reply.

mod export;
mod headers;
mod meters;
mod spans;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use anyhow::Context as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{WithExportConfig as _, WithTonicConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::{Sampler, SdkTracer, SdkTracerProvider, SpanExporter as _};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::metrics::Metrics;
use hookgate_config::OtelConfig;

pub(crate) use spans::{CallOutcome, EventSpan};

/// The export, shared by every event; cheap to clone.
#[derive(Debug, Clone, Default)]
pub(crate) struct Telemetry {
    tracing: Option<Arc<Tracing>>,
}

#[derive(Debug)]
struct Tracing {
    tracer: SdkTracer,
    payloads: bool,
}

/// What [`Telemetry::start`] started, to stop at shutdown.
#[derive(Debug, Default)]
pub(crate) struct Running {
    providers: Option<(SdkTracerProvider, SdkMeterProvider)>,
    stop: CancellationToken,
}

impl Telemetry {
    /// No export.
    pub(crate) fn off() -> Telemetry {
        Telemetry::default()
    }

    /// Starts span and metric export to `config`'s collector: the export
    /// task runs on `tracker` until [`Running::stop`]. Must run inside the
    /// tokio runtime. Fails only on settings the exporter cannot use.
    pub(crate) fn start(
        config: &OtelConfig,
        metrics: &Arc<Metrics>,
        tracker: &TaskTracker,
    ) -> anyhow::Result<(Telemetry, Running)> {
        let resource = Resource::builder()
            .with_service_name(config.service_name.clone())
            .with_attribute(opentelemetry::KeyValue::new(
                "service.version",
                env!("CARGO_PKG_VERSION"),
            ))
            .build();
        let metadata = headers::metadata(config);
        let mut exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_tonic()
            .with_endpoint(config.endpoint.clone())
            .with_timeout(config.export_timeout)
            .with_metadata(metadata.clone())
            // A failed batch is dropped and counted; retrying would only
            // hold the queue up behind a collector that is down.
            .with_retry_policy(opentelemetry_otlp::RetryPolicy::disabled())
            .build()
            .context("building the OTLP span exporter")?;
        exporter.set_resource(&resource);
        let (processor, queue) =
            export::QueueProcessor::new(config.queue_size, Arc::clone(metrics));
        let stop = CancellationToken::new();
        tracker.spawn(export::run(
            queue,
            exporter,
            config.export_timeout,
            Arc::clone(metrics),
            stop.clone(),
        ));
        let provider = SdkTracerProvider::builder()
            .with_span_processor(processor)
            .with_sampler(Sampler::ParentBased(Box::new(Sampler::TraceIdRatioBased(
                config.sample_ratio,
            ))))
            .with_resource(resource.clone())
            .build();
        let meters = meters::start(config, resource, metadata, metrics)?;
        metrics.otel.enabled.store(true, Ordering::Relaxed);
        let tracing = Tracing {
            tracer: provider.tracer("hookgate"),
            payloads: config.payloads,
        };
        tracing::info!(endpoint = %config.endpoint, sample_ratio = config.sample_ratio, "OpenTelemetry export on");
        let telemetry = Telemetry {
            tracing: Some(Arc::new(tracing)),
        };
        let running = Running {
            providers: Some((provider, meters)),
            stop,
        };
        Ok((telemetry, running))
    }
}

impl Running {
    /// Exports what is queued (spans, then metrics once more), waiting no
    /// later than `deadline`.
    pub(crate) async fn stop(self, deadline: Instant) {
        self.stop.cancel();
        let Some((traces, meters)) = self.providers else {
            return;
        };
        // The SDK's shutdowns block (the metric reader's thread exports
        // one last time): off the runtime's workers.
        let shutdown = tokio::task::spawn_blocking(move || {
            let _ = traces.shutdown();
            let _ = meters.shutdown();
        });
        if tokio::time::timeout_at(deadline, shutdown).await.is_err() {
            tracing::warn!("grace period over; OpenTelemetry export not fully flushed");
        }
    }
}
