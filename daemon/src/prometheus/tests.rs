//! Tests of the Prometheus text rendering: counters, histograms, escaped
//! labels and the reload state.

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
