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

use crate::admin::status::StatusSource;
use crate::metrics::latency::BUCKETS_US;
use crate::metrics::{LatencySnapshot, Snapshot};
use crate::reload::ReloadSnapshot;

/// Serves `GET /metrics` on `listener` until `shutdown`.
pub async fn serve(
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
pub fn render_reload(reload: &ReloadSnapshot) -> String {
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
pub async fn bind(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
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

/// The exposition text of `snap`.
pub fn render(snap: &Snapshot, uptime_secs: u64) -> String {
    let mut out = Out(String::new());
    out.family(
        "hookgate_build_info",
        "gauge",
        "Version of the running gateway.",
    );
    out.sample(
        "hookgate_build_info",
        &[("version", env!("CARGO_PKG_VERSION"))],
        1,
    );
    out.family(
        "hookgate_uptime_seconds",
        "gauge",
        "Seconds since the gateway started.",
    );
    out.sample("hookgate_uptime_seconds", &[], uptime_secs);

    out.family(
        "hookgate_events_total",
        "counter",
        "Hook events parsed, by agent and canonical event.",
    );
    for e in &snap.events {
        out.sample(
            "hookgate_events_total",
            &[("agent", e.agent), ("event", e.kind)],
            e.count,
        );
    }
    out.family(
        "hookgate_replies_total",
        "counter",
        "Merged decisions by outcome (allow, ask, deny, neutral, halt).",
    );
    for e in &snap.events {
        for (outcome, n) in &e.outcomes {
            let labels = [("agent", e.agent), ("event", e.kind), ("outcome", outcome)];
            out.sample("hookgate_replies_total", &labels, n);
        }
    }
    out.family(
        "hookgate_event_duration_seconds",
        "histogram",
        "Gateway time per event, frame received to reply ready.",
    );
    for e in &snap.events {
        out.histogram(
            "hookgate_event_duration_seconds",
            &[("agent", e.agent), ("event", e.kind)],
            &e.latency,
        );
    }
    out.family(
        "hookgate_request_duration_seconds",
        "histogram",
        "Gateway time of every request, parsed or not.",
    );
    out.histogram("hookgate_request_duration_seconds", &[], &snap.latency);

    out.family(
        "hookgate_detect_errors_total",
        "counter",
        "Payloads whose agent could not be detected.",
    );
    out.sample("hookgate_detect_errors_total", &[], snap.detect_errors);
    out.family(
        "hookgate_parse_errors_total",
        "counter",
        "Payloads that could not be parsed, by agent.",
    );
    for (agent, n) in &snap.parse_errors_by_agent {
        out.sample("hookgate_parse_errors_total", &[("agent", agent)], n);
    }
    out.counters(
        "hookgate_unparsed_total",
        "Payloads not understood, by reason.",
        "reason",
        &snap.unparsed,
    );
    out.counters(
        "hookgate_unparsed_replies_total",
        "Payloads not understood, by reply: open (neutral) or closed (blocked).",
        "reply",
        &snap.unparsed_replies,
    );
    out.counters(
        "hookgate_refused_connections_total",
        "Shim connections closed unanswered, by reason.",
        "reason",
        &snap.refused,
    );
    out.counters(
        "hookgate_http_refused_total",
        "HTTP hook requests and connections refused, by reason.",
        "reason",
        &snap.http_refused,
    );
    out.counters(
        "hookgate_shim_fallbacks_total",
        "Hooks the shim answered without the gateway, by reason.",
        "reason",
        &snap.fallbacks,
    );
    out.family(
        "hookgate_rewrite_conflicts_total",
        "counter",
        "Input rewrites dropped because a higher-priority one won.",
    );
    out.family(
        "hookgate_context_truncations_total",
        "counter",
        "Merged context cut to the size limit.",
    );
    out.family(
        "hookgate_decision_losses_total",
        "counter",
        "Decision parts the agent could not express, by agent and reason.",
    );
    for m in &snap.merge {
        out.sample(
            "hookgate_rewrite_conflicts_total",
            &[("agent", m.agent)],
            m.rewrite_conflicts,
        );
        out.sample(
            "hookgate_context_truncations_total",
            &[("agent", m.agent)],
            m.context_truncations,
        );
        for (loss, n) in &m.losses {
            out.sample(
                "hookgate_decision_losses_total",
                &[("agent", m.agent), ("reason", loss)],
                n,
            );
        }
    }
    subscribers(&mut out, snap);
    out.0
}

fn subscribers(out: &mut Out, snap: &Snapshot) {
    type Field = fn(&crate::metrics::SubscriberSnapshot) -> u64;
    let counters: [(&str, &str, Field); 9] = [
        (
            "hookgate_subscriber_calls_total",
            "Events handed to the subscriber.",
            |s| s.calls,
        ),
        (
            "hookgate_subscriber_ok_total",
            "Calls that gave a usable answer.",
            |s| s.ok,
        ),
        (
            "hookgate_subscriber_timeouts_total",
            "Calls that hit the subscriber's deadline.",
            |s| s.timeouts,
        ),
        (
            "hookgate_subscriber_drops_total",
            "Events that did not fit in the observe or audit queue.",
            |s| s.drops,
        ),
        (
            "hookgate_subscriber_fail_open_total",
            "Failures answered as no opinion (on_error = allow).",
            |s| s.fail_open,
        ),
        (
            "hookgate_subscriber_fail_closed_total",
            "Failures answered with a deny (on_error = deny).",
            |s| s.fail_closed,
        ),
        (
            "hookgate_subscriber_breaker_open_total",
            "Calls not made because the circuit breaker was open (on_error applied at once).",
            |s| s.breaker_open,
        ),
        (
            "hookgate_subscriber_breaker_opened_total",
            "Times the circuit breaker opened.",
            |s| s.breaker_opened,
        ),
        (
            "hookgate_subscriber_breaker_closed_total",
            "Times the circuit breaker closed again after a successful probe.",
            |s| s.breaker_closed,
        ),
    ];
    for (name, help, field) in counters {
        out.family(name, "counter", help);
        for s in &snap.subscribers {
            out.sample(name, &[("subscriber", &s.name)], field(s));
        }
    }
    out.family(
        "hookgate_subscriber_decisions_total",
        "counter",
        "Usable answers by permission.",
    );
    for s in &snap.subscribers {
        for (outcome, n) in [("allow", s.allow), ("ask", s.ask), ("deny", s.deny)] {
            let labels = [("subscriber", s.name.as_str()), ("outcome", outcome)];
            out.sample("hookgate_subscriber_decisions_total", &labels, n);
        }
    }
    type Map = fn(&crate::metrics::SubscriberSnapshot) -> &BTreeMap<&'static str, u64>;
    let maps: [(&str, &str, &str, Map); 2] = [
        (
            "hookgate_subscriber_would_decisions_total",
            "Shadow subscribers: what they would have decided (never merged), by permission.",
            "outcome",
            |s| &s.would,
        ),
        (
            "hookgate_subscriber_errors_total",
            "Failed calls by reason (connect, status, bad_reply).",
            "reason",
            |s| &s.errors_by_kind,
        ),
    ];
    for (name, help, label, map) in maps {
        out.family(name, "counter", help);
        for s in &snap.subscribers {
            for (value, n) in map(s) {
                out.sample(name, &[("subscriber", s.name.as_str()), (label, value)], n);
            }
        }
    }
    out.family(
        "hookgate_subscriber_up",
        "gauge",
        "1 when the subscriber is up (health check or last call), else 0.",
    );
    for s in &snap.subscribers {
        let up = u8::from(matches!(s.state, "up" | "builtin"));
        out.sample("hookgate_subscriber_up", &[("subscriber", &s.name)], up);
    }
    out.family(
        "hookgate_subscriber_breaker_state",
        "gauge",
        "1 for the circuit breaker's current state (off, closed, open, half_open).",
    );
    for s in &snap.subscribers {
        for state in crate::metrics::BreakerState::ALL.map(|b| b.as_str()) {
            let labels = [("subscriber", s.name.as_str()), ("state", state)];
            out.sample(
                "hookgate_subscriber_breaker_state",
                &labels,
                u8::from(s.breaker == state),
            );
        }
    }
    out.family(
        "hookgate_subscriber_duration_seconds",
        "histogram",
        "Time per subscriber call.",
    );
    for s in &snap.subscribers {
        out.histogram(
            "hookgate_subscriber_duration_seconds",
            &[("subscriber", &s.name)],
            &s.latency,
        );
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use hookgate_adapters::{Agent, EventKind};

    use super::*;
    use crate::metrics::{Metrics, Outcome, Refusal};

    #[test]
    fn renders_the_reload_state() {
        let status = crate::reload::ReloadStatus::default();
        status.record("watch", &crate::reload::Outcome::Applied { generation: 2 });
        let text = render_reload(&status.snapshot());
        for line in [
            "hookgate_config_generation 2",
            "hookgate_config_reloads_total{result=\"applied\"} 1",
            "hookgate_config_reloads_total{result=\"invalid\"} 0",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "missing {line:?} in:\n{text}"
            );
        }
    }

    #[test]
    fn renders_counters_histograms_and_escaped_labels() {
        let metrics = Metrics::default();
        metrics.event(Agent::ClaudeCode, EventKind::PreToolUse);
        let elapsed = Duration::from_micros(800);
        metrics.replied(
            Agent::ClaudeCode,
            EventKind::PreToolUse,
            Outcome::Deny,
            elapsed,
        );
        metrics.refused(Refusal::ForeignUid);
        metrics.subscriber("we\"ird");
        let text = render(&metrics.snapshot(), 7);
        for line in [
            "hookgate_uptime_seconds 7",
            "hookgate_events_total{agent=\"claude-code\",event=\"pre_tool_use\"} 1",
            "hookgate_replies_total{agent=\"claude-code\",event=\"pre_tool_use\",outcome=\"deny\"} 1",
            "hookgate_replies_total{agent=\"claude-code\",event=\"pre_tool_use\",outcome=\"allow\"} 0",
            "hookgate_event_duration_seconds_bucket{agent=\"claude-code\",event=\"pre_tool_use\",le=\"0.0005\"} 0",
            "hookgate_event_duration_seconds_bucket{agent=\"claude-code\",event=\"pre_tool_use\",le=\"0.001\"} 1",
            "hookgate_event_duration_seconds_bucket{agent=\"claude-code\",event=\"pre_tool_use\",le=\"+Inf\"} 1",
            "hookgate_event_duration_seconds_sum{agent=\"claude-code\",event=\"pre_tool_use\"} 0.0008",
            "hookgate_refused_connections_total{reason=\"foreign_uid\"} 1",
            "hookgate_subscriber_calls_total{subscriber=\"we\\\"ird\"} 0",
            "hookgate_subscriber_breaker_state{subscriber=\"we\\\"ird\",state=\"off\"} 1",
            "hookgate_subscriber_breaker_state{subscriber=\"we\\\"ird\",state=\"open\"} 0",
            "hookgate_subscriber_breaker_open_total{subscriber=\"we\\\"ird\"} 0",
            "hookgate_subscriber_would_decisions_total{subscriber=\"we\\\"ird\",outcome=\"deny\"} 0",
            "# TYPE hookgate_subscriber_duration_seconds histogram",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "missing {line:?} in:\n{text}"
            );
        }
    }
}
