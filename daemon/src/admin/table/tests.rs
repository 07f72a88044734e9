//! Tests of `gateway status`'s table: a real status document rendered,
//! durations made readable.

use std::sync::Arc;
use std::time::Duration;

use hookgate_adapters::{Agent, EventKind};

use super::*;
use crate::admin::activity::uptime;
use crate::admin::document::StatusSource;
use crate::metrics::{ErrorKind, Metrics, Outcome, Refusal};

#[tokio::test]
async fn renders_a_real_document() {
    let metrics = Arc::new(Metrics::default());
    metrics.event(Agent::ClaudeCode, EventKind::PreToolUse);
    let took = Duration::from_micros(1_500);
    metrics.replied(
        Agent::ClaudeCode,
        EventKind::PreToolUse,
        Outcome::Deny,
        took,
    );
    metrics.refused(Refusal::Busy);
    metrics.subscriber("policy").error(ErrorKind::Connect);
    let policy = metrics.subscriber("policy");
    policy.set_breaker(crate::metrics::BreakerState::Open);
    policy
        .breaker_opened
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    policy
        .breaker_open
        .fetch_add(4, std::sync::atomic::Ordering::Relaxed);
    metrics
        .subscriber("strict")
        .would(hookgate_adapters::Permission::Deny);
    let dir = tempfile::tempdir().unwrap();
    let source = StatusSource::new(metrics, dir.path().join("gw.sock"), "cfg.toml".into());
    source.reload.record(
        "signal",
        &crate::reload::Outcome::Invalid {
            generation: 1,
            error: "cfg.toml:3:1: bad".into(),
        },
    );
    let doc = serde_json::to_value(source.document().await).unwrap();
    let text = render(&doc);
    assert!(text.contains("metrics off"), "{text}");
    let reload = text.lines().find(|l| l.contains("reload  ")).expect(&text);
    assert!(reload.contains("generation 1, loaded "), "{text}");
    assert!(reload.contains("; last reload invalid (signal, "), "{text}");
    assert!(reload.ends_with(" ago): cfg.toml:3:1: bad"), "{text}");
    assert!(text.contains("config  cfg.toml"), "{text}");
    let event = text
        .lines()
        .find(|l| l.starts_with("claude-code"))
        .expect(&text);
    let cells: Vec<&str> = event.split_whitespace().collect();
    assert_eq!(
        &cells[..8],
        ["claude-code", "pre_tool_use", "1", "0", "0", "1", "0", "0"],
        "{text}"
    );
    assert_eq!(cells[8], "1.50ms", "{text}");
    assert!(text.contains("refused           busy 1"), "{text}");
    assert!(
        text.contains("shadow            strict: would allow 0, ask 0, deny 1"),
        "{text}"
    );
    assert!(
        text.contains("breakers          policy: open (skipped 4, opened 1, closed 0)"),
        "{text}"
    );
    assert!(
        text.contains("errors            policy: connect 1"),
        "{text}"
    );
}

#[test]
fn durations_read_well() {
    assert_eq!(duration(950), "950µs");
    assert_eq!(duration(1_234), "1.23ms");
    assert_eq!(duration(2_500_000), "2.50s");
    assert_eq!(uptime(3_725), "1h 2m");
}
