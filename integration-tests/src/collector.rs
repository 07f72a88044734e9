//! An OTLP collector stand-in: the real OTLP/gRPC trace and metrics
//! services (`opentelemetry-proto`'s tonic servers) on loopback, keeping
//! every span and metric name it receives so tests can assert on what a
//! real gateway exported. It can also stall: accept every export and never
//! answer, like a collector that is overloaded.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::metrics::v1::metrics_service_server::{
    MetricsService, MetricsServiceServer,
};
use opentelemetry_proto::tonic::collector::metrics::v1::{
    ExportMetricsServiceRequest, ExportMetricsServiceResponse,
};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::trace::v1::Span;
use tokio::sync::{Notify, oneshot};
use tokio::time::Instant;
use tonic::{Request, Response, Status};

/// How long a stalled export is held before the stand-in lets go (far
/// beyond any export deadline a test sets).
const STALL: Duration = Duration::from_secs(120);

#[derive(Debug, Default)]
struct Received {
    spans: Mutex<Vec<Span>>,
    metrics: Mutex<Vec<String>>,
    /// Export calls that arrived (answered or not).
    trace_calls: Mutex<usize>,
    changed: Notify,
}

#[derive(Debug, Clone)]
struct Service {
    received: Arc<Received>,
    stall: bool,
}

#[tonic::async_trait]
impl TraceService for Service {
    async fn export(
        &self,
        request: Request<ExportTraceServiceRequest>,
    ) -> Result<Response<ExportTraceServiceResponse>, Status> {
        *self.received.trace_calls.lock().expect("lock") += 1;
        self.received.changed.notify_waiters();
        if self.stall {
            tokio::time::sleep(STALL).await;
        }
        let spans = request
            .into_inner()
            .resource_spans
            .into_iter()
            .flat_map(|r| r.scope_spans)
            .flat_map(|s| s.spans);
        self.received.spans.lock().expect("lock").extend(spans);
        self.received.changed.notify_waiters();
        Ok(Response::new(ExportTraceServiceResponse::default()))
    }
}

#[tonic::async_trait]
impl MetricsService for Service {
    async fn export(
        &self,
        request: Request<ExportMetricsServiceRequest>,
    ) -> Result<Response<ExportMetricsServiceResponse>, Status> {
        let names = request
            .into_inner()
            .resource_metrics
            .into_iter()
            .flat_map(|r| r.scope_metrics)
            .flat_map(|s| s.metrics)
            .map(|m| m.name);
        self.received.metrics.lock().expect("lock").extend(names);
        self.received.changed.notify_waiters();
        Ok(Response::new(ExportMetricsServiceResponse::default()))
    }
}

/// A running collector stand-in; stopped on drop.
#[derive(Debug)]
pub struct Collector {
    addr: SocketAddr,
    received: Arc<Received>,
    _stop: oneshot::Sender<()>,
}

impl Collector {
    /// A collector that takes every export.
    pub async fn start() -> Collector {
        Collector::serve(false).await
    }

    /// A collector that accepts exports and never answers them.
    pub async fn stalled() -> Collector {
        Collector::serve(true).await
    }

    async fn serve(stall: bool) -> Collector {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the collector");
        let addr = listener.local_addr().expect("collector address");
        let received = Arc::new(Received::default());
        let service = Service {
            received: Arc::clone(&received),
            stall,
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
        tokio::spawn(
            tonic::transport::Server::builder()
                .add_service(TraceServiceServer::new(service.clone()))
                .add_service(MetricsServiceServer::new(service))
                .serve_with_incoming_shutdown(incoming, async {
                    let _ = stopped.await;
                }),
        );
        Collector {
            addr,
            received,
            _stop: stop,
        }
    }

    /// `http://127.0.0.1:PORT`, for `[otel] endpoint`.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every span received so far.
    pub fn spans(&self) -> Vec<Span> {
        self.received.spans.lock().expect("lock").clone()
    }

    /// Every metric name received so far (one per metric per export).
    pub fn metric_names(&self) -> Vec<String> {
        self.received.metrics.lock().expect("lock").clone()
    }

    /// Trace export calls that arrived, answered or not.
    pub fn trace_calls(&self) -> usize {
        *self.received.trace_calls.lock().expect("lock")
    }

    /// Waits until `done` holds for this collector, or `deadline` passes;
    /// returns whether it held.
    pub async fn wait_until(&self, deadline: Duration, done: impl Fn(&Collector) -> bool) -> bool {
        let until = Instant::now() + deadline;
        loop {
            let changed = self.received.changed.notified();
            if done(self) {
                return true;
            }
            if tokio::time::timeout_at(until, changed).await.is_err() {
                return done(self);
            }
        }
    }
}

/// A span's string attributes.
pub fn attributes(span: &Span) -> HashMap<String, String> {
    span.attributes
        .iter()
        .filter_map(|kv| {
            let value = match kv.value.as_ref()?.value.as_ref()? {
                Value::StringValue(s) => s.clone(),
                Value::BoolValue(b) => b.to_string(),
                Value::IntValue(i) => i.to_string(),
                _ => return None,
            };
            Some((kv.key.clone(), value))
        })
        .collect()
}

/// Lower-case hex of an id.
pub fn hex(id: &[u8]) -> String {
    id.iter().map(|b| format!("{b:02x}")).collect()
}
