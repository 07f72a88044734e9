//! The Prometheus text exposition format (0.0.4) of a [`Snapshot`], and the
//! tiny HTTP server (`gateway serve --metrics-addr`) that serves it.
//!
//! Names follow Prometheus conventions: `hookgate_` prefix, `_total` for
//! counters, `_seconds` histograms with fixed buckets. Labels only take
//! values from bounded sets (agent, event kind, subscriber name from the
//! config, outcome, reason): never session ids, paths or payload values.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::admin::document::StatusSource;
use crate::metrics::LatencySnapshot;
use crate::metrics::latency::BUCKETS_US;
use crate::reload::ReloadSnapshot;

mod families;

pub(crate) use families::render;

/// Serves `GET /metrics` on `listener` until `shutdown`.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    source: Arc<StatusSource>,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let app = axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || {
            let source = Arc::clone(&source);
            async move {
                let mut text = render(&source.snapshot().await, source.uptime_secs());
                text.push_str(&render_reload(&source.reload.snapshot()));
                (
                    [(
                        axum::http::header::CONTENT_TYPE,
                        "text/plain; version=0.0.4; charset=utf-8",
                    )],
                    text,
                )
            }
        }),
    );
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}

/// The config generation and reload attempts by outcome.
pub(crate) fn render_reload(reload: &ReloadSnapshot) -> String {
    let mut out = Out(String::new());
    out.family(
        "hookgate_config_generation",
        "gauge",
        "The config in effect: 1 as started, +1 per applied reload.",
    );
    out.sample("hookgate_config_generation", &[], reload.generation);
    let attempts = BTreeMap::from([
        ("applied", reload.applied),
        ("unchanged", reload.unchanged),
        ("invalid", reload.invalid),
    ]);
    out.counters(
        "hookgate_config_reloads_total",
        "Config reload attempts by outcome (invalid: refused, the running config stayed).",
        "result",
        &attempts,
    );
    out.0
}

/// Binds the metrics address (before serving, so a bad address fails the
/// start, not later).
pub(crate) async fn bind(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    tokio::net::TcpListener::bind(addr).await
}

/// One metric family being written.
struct Out(String);

impl Out {
    fn family(&mut self, name: &str, kind: &str, help: &str) {
        let _ = writeln!(self.0, "# HELP {name} {help}\n# TYPE {name} {kind}");
    }

    /// A counter family with one sample per entry of `counts`, labelled
    /// `label` = the entry's key.
    fn counters(
        &mut self,
        name: &str,
        help: &str,
        label: &str,
        counts: &std::collections::BTreeMap<&'static str, u64>,
    ) {
        self.family(name, "counter", help);
        for (key, n) in counts {
            self.sample(name, &[(label, key)], n);
        }
    }

    fn sample(&mut self, name: &str, labels: &[(&str, &str)], value: impl std::fmt::Display) {
        self.0.push_str(name);
        if !labels.is_empty() {
            self.0.push('{');
            for (i, (key, val)) in labels.iter().enumerate() {
                if i > 0 {
                    self.0.push(',');
                }
                let _ = write!(self.0, "{key}=\"{}\"", escape(val));
            }
            self.0.push('}');
        }
        let _ = writeln!(self.0, " {value}");
    }

    fn histogram(&mut self, name: &str, labels: &[(&str, &str)], h: &LatencySnapshot) {
        let bucket = format!("{name}_bucket");
        for (i, count) in h.buckets.iter().enumerate() {
            let le = BUCKETS_US
                .get(i)
                .map_or_else(|| "+Inf".to_owned(), |us| seconds(*us));
            let mut with_le = labels.to_vec();
            with_le.push(("le", &le));
            self.sample(&bucket, &with_le, count);
        }
        self.sample(&format!("{name}_sum"), labels, seconds(h.sum_us));
        self.sample(&format!("{name}_count"), labels, h.count);
    }
}

fn seconds(us: u64) -> String {
    format!("{}", us as f64 / 1e6)
}

/// Label value escaping: backslash, double quote and newline.
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests;
