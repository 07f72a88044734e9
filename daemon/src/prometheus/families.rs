//! Every metric family the gateway exposes, grouped as `gateway status`
//! groups them: the process, events, troubles, merging, subscribers.

use std::collections::BTreeMap;

use super::Out;
use crate::metrics::Snapshot;

mod per_subscriber;

use per_subscriber::{policies, subscriber_states, subscribers};

/// The exposition text of `snap`.
pub(crate) fn render(snap: &Snapshot, uptime_secs: u64) -> String {
    let mut out = Out(String::new());
    process(&mut out, uptime_secs);
    events(&mut out, snap);
    troubles(&mut out, snap);
    merge(&mut out, snap);
    subscribers(&mut out, snap);
    subscriber_states(&mut out, snap);
    rules_and_probes(&mut out, snap);
    policies(&mut out, snap);
    out.0
}

/// Each guard rule's hits, and `gateway doctor`'s probes (kept out of the
/// event counts).
fn rules_and_probes(out: &mut Out, snap: &Snapshot) {
    out.family(
        "hookgate_guard_rule_hits_total",
        "counter",
        "Calls a built-in guard's rule decided, by subscriber, rule id and action \
         (rule `(unchecked)`: denied as past a bound, no rule).",
    );
    for s in &snap.subscribers {
        for rule in &s.rules {
            let labels = [
                ("subscriber", s.name.as_str()),
                ("rule", rule.id.as_str()),
                ("action", rule.action),
            ];
            out.sample("hookgate_guard_rule_hits_total", &labels, rule.hits);
        }
    }
    out.family(
        "hookgate_probe_events_total",
        "counter",
        "`gateway doctor` probe events and `gateway eval --socket` calls, by agent (not in hookgate_events_total).",
    );
    for (agent, n) in &snap.probes {
        out.sample("hookgate_probe_events_total", &[("agent", agent)], n);
    }
}

/// What runs, and for how long.
fn process(out: &mut Out, uptime_secs: u64) {
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
}

/// Each agent's events, replies and latency.
fn events(out: &mut Out, snap: &Snapshot) {
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
}

/// What could not be understood, was refused, fell back or was dropped.
fn troubles(out: &mut Out, snap: &Snapshot) {
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
        "hookgate_undelivered_replies_total",
        "Replies that did not reach the agent: late (after the shim's deadline) or gone (the shim closed first).",
        "reason",
        &snap.undelivered,
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
        "hookgate_config_refused",
        "gauge",
        "User config settings the system config's locks refused, in the config in effect.",
    );
    out.sample("hookgate_config_refused", &[], snap.config_refused);
    let dropped = BTreeMap::from([
        ("queue_full", snap.otel.spans_dropped_queue),
        ("export_failed", snap.otel.spans_dropped_export),
    ]);
    out.counters(
        "hookgate_otel_spans_dropped_total",
        "Spans that never reached the OTLP collector, by reason.",
        "reason",
        &dropped,
    );
    out.family(
        "hookgate_otel_spans_exported_total",
        "counter",
        "Spans the OTLP collector accepted.",
    );
    out.sample(
        "hookgate_otel_spans_exported_total",
        &[],
        snap.otel.spans_exported,
    );
}

/// What merging lost or cut, per agent.
fn merge(out: &mut Out, snap: &Snapshot) {
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
}
