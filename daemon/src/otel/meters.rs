//! The gateway's counters over OTLP: observable instruments read the same
//! snapshot `gateway status` and Prometheus use, at export time, so the
//! hook path records nothing twice.

use std::sync::Arc;

use anyhow::Context as _;
use opentelemetry::KeyValue;
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry_otlp::{WithExportConfig as _, WithTonicConfig as _};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};

use crate::metrics::Metrics;
use hookgate_config::OtelConfig;

/// Starts periodic metric export; must run inside the tokio runtime (the
/// tonic channel's worker is spawned on it).
pub(super) fn start(
    config: &OtelConfig,
    resource: Resource,
    metadata: tonic::metadata::MetadataMap,
    metrics: &Arc<Metrics>,
) -> anyhow::Result<SdkMeterProvider> {
    let exporter = opentelemetry_otlp::MetricExporter::builder()
        .with_tonic()
        .with_endpoint(config.endpoint.clone())
        .with_timeout(config.export_timeout)
        .with_metadata(metadata)
        .with_retry_policy(opentelemetry_otlp::RetryPolicy::disabled())
        .build()
        .context("building the OTLP metric exporter")?;
    let reader = PeriodicReader::builder(exporter)
        .with_interval(config.metrics_interval)
        .build();
    let provider = SdkMeterProvider::builder()
        .with_reader(reader)
        .with_resource(resource)
        .build();
    instruments(&provider, metrics);
    Ok(provider)
}

fn instruments(provider: &SdkMeterProvider, metrics: &Arc<Metrics>) {
    let meter = provider.meter("hookgate");
    let m = Arc::clone(metrics);
    meter
        .u64_observable_counter("hookgate.events")
        .with_description("Hook events by agent, event kind and merged outcome.")
        .with_callback(move |observer| {
            for event in m.snapshot().events {
                for (outcome, count) in event.outcomes {
                    let labels = [
                        KeyValue::new("agent", event.agent),
                        KeyValue::new("event", event.kind),
                        KeyValue::new("outcome", outcome),
                    ];
                    observer.observe(count, &labels);
                }
            }
        })
        .build();
    let m = Arc::clone(metrics);
    meter
        .u64_observable_counter("hookgate.subscriber.calls")
        .with_description("Subscriber calls by subscriber and result.")
        .with_callback(move |observer| {
            for sub in m.snapshot().subscribers {
                for (result, count) in [
                    ("allow", sub.allow),
                    ("ask", sub.ask),
                    ("deny", sub.deny),
                    ("error", sub.errors),
                    ("timeout", sub.timeouts),
                    ("drop", sub.drops),
                ] {
                    let labels = [
                        KeyValue::new("subscriber", sub.name.clone()),
                        KeyValue::new("result", result),
                    ];
                    observer.observe(count, &labels);
                }
            }
        })
        .build();
    let m = Arc::clone(metrics);
    meter
        .u64_observable_counter("hookgate.shim.fallbacks")
        .with_description("Hooks the shim answered without the gateway, by reason.")
        .with_callback(move |observer| {
            for (reason, count) in m.snapshot().fallbacks {
                observer.observe(count, &[KeyValue::new("reason", reason)]);
            }
        })
        .build();
    let m = Arc::clone(metrics);
    meter
        .u64_observable_counter("hookgate.otel.spans.dropped")
        .with_description("Spans that never reached the collector, by reason.")
        .with_callback(move |observer| {
            let otel = m.otel.snapshot();
            observer.observe(
                otel.spans_dropped_queue,
                &[KeyValue::new("reason", "queue_full")],
            );
            observer.observe(
                otel.spans_dropped_export,
                &[KeyValue::new("reason", "export_failed")],
            );
        })
        .build();
}
