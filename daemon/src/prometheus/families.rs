//! Every metric family the gateway exposes, grouped as `gateway status`
//! groups them: the process, events, troubles, merging, subscribers.

use std::collections::BTreeMap;

use super::Out;
use crate::metrics::Snapshot;

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

/// Each `rego` subscriber's loaded revision and its bundle's fetches.
fn policies(out: &mut Out, snap: &Snapshot) {
    let policies: Vec<_> = snap
        .subscribers
        .iter()
        .filter_map(|s| Some((s.name.as_str(), s.policy.as_ref()?)))
        .collect();
    out.family(
        "hookgate_policy_info",
        "gauge",
        "1 for the policy revision a rego subscriber decides with (a bundle's revision or the files' digest).",
    );
    for (name, p) in &policies {
        if let Some(revision) = &p.revision {
            let labels = [("subscriber", *name), ("revision", revision.as_str())];
            out.sample("hookgate_policy_info", &labels, 1);
        }
    }
    out.family(
        "hookgate_policy_bundle_fetches_total",
        "counter",
        "A rego subscriber's bundles by result: updated (accepted), refused (unsigned, tampered, older, not compiling), error (no bundle: network, HTTP status).",
    );
    for (name, p) in &policies {
        for (result, n) in [
            ("updated", p.updates),
            ("refused", p.refused),
            ("error", p.fetch_errors),
        ] {
            let labels = [("subscriber", *name), ("result", result)];
            out.sample("hookgate_policy_bundle_fetches_total", &labels, n);
        }
    }
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

/// Each subscriber's counters.
fn subscribers(out: &mut Out, snap: &Snapshot) {
    type Field = fn(&crate::metrics::SubscriberSnapshot) -> u64;
    let counters: [(&str, &str, Field); 10] = [
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
            "hookgate_subscriber_deadline_cuts_total",
            "Calls cut at the shim's deadline, before the subscriber's own.",
            |s| s.deadline_cuts,
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
            "Failed calls by reason (connect, status, bad_reply, too_complex).",
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
}

/// Each subscriber's state, breaker and latency.
fn subscriber_states(out: &mut Out, snap: &Snapshot) {
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
