//! The metric families labelled by subscriber: each one's counters by
//! outcome and error kind, its state, breaker and latency, and a `rego`
//! subscriber's policy revision and fetches.

use std::collections::BTreeMap;

use super::super::Out;
use crate::metrics::Snapshot;

/// Each subscriber's counters.
pub(super) fn subscribers(out: &mut Out, snap: &Snapshot) {
    type Field = fn(&crate::metrics::SubscriberSnapshot) -> u64;
    let counters: [(&str, &str, Field); 11] = [
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
            "hookgate_subscriber_pooled_total",
            "Built-in checks handed to the blocking pool (past the inline attempt's budget).",
            |s| s.pooled,
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
pub(super) fn subscriber_states(out: &mut Out, snap: &Snapshot) {
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

/// Each `rego` subscriber's loaded revision and its bundle's fetches.
pub(super) fn policies(out: &mut Out, snap: &Snapshot) {
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
