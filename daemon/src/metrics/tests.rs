//! Tests of the gateway's counters as a whole: the loss reasons' order,
//! counters reaching the snapshot, shared subscriber handles, halt over
//! permission.

use super::*;

#[test]
fn loss_reasons_name_the_agents_losses_first() {
    for (loss, name) in LOSSES.iter().zip(LOSS_REASONS) {
        assert_eq!(loss.as_str(), name);
    }
}

#[test]
fn counters_land_in_the_snapshot() {
    let metrics = Metrics::default();
    metrics.event(Agent::Cursor, EventKind::PreToolUse);
    metrics.event(Agent::Cursor, EventKind::PreToolUse);
    let elapsed = Duration::from_micros(250);
    metrics.replied(Agent::Cursor, EventKind::PreToolUse, Outcome::Deny, elapsed);
    metrics.replied(
        Agent::Cursor,
        EventKind::PreToolUse,
        Outcome::Allow,
        elapsed,
    );
    metrics.refused(Refusal::ForeignUid);
    metrics.loss(Agent::Cline, Loss::Context);
    metrics.followup_capped(Agent::Codex);
    metrics.undelivered(Delivery::Late);
    metrics.undelivered(Delivery::Gone);
    metrics.undelivered(Delivery::Gone);
    metrics.undelivered(Delivery::Delivered);
    metrics.parse_error(Agent::ClaudeCode);
    metrics.fallbacks("unreachable", 2);
    metrics.fallbacks("from-the-future", 1);
    metrics.probe(Agent::Codex, Outcome::Allow);
    metrics.probe(Agent::Codex, Outcome::Deny);
    let stats = metrics.subscriber("policy");
    stats.timeouts.fetch_add(1, Ordering::Relaxed);

    let snap = metrics.snapshot();
    assert_eq!(snap.total_events(), 2, "probes are not traffic");
    assert_eq!((snap.probes["codex"], snap.probe_denials["codex"]), (2, 1));
    assert_eq!(snap.events[0].agent, "cursor");
    assert_eq!(snap.events[0].kind, "pre_tool_use");
    assert_eq!(snap.events[0].outcomes["deny"], 1);
    assert_eq!(snap.events[0].outcomes["allow"], 1);
    assert_eq!(snap.events[0].latency.count, 2);
    assert_eq!(snap.refusals(Refusal::ForeignUid), 1);
    assert_eq!(snap.refusals(Refusal::Busy), 0);
    assert_eq!(snap.merge.len(), 2);
    assert_eq!(snap.merge[0].agent, "cline");
    assert_eq!(snap.merge[0].losses["context"], 1);
    let codex = &snap.merge[1];
    assert_eq!(codex.agent, "codex");
    assert_eq!(codex.losses["followup_capped"], 1);
    assert_eq!(snap.undelivered["late"], 1);
    assert_eq!(snap.undelivered["gone"], 2);
    assert_eq!(snap.parse_errors, 1);
    assert_eq!(snap.parse_errors_by_agent["claude-code"], 1);
    assert_eq!(snap.fallbacks["unreachable"], 2);
    assert_eq!(snap.fallbacks["other"], 1);
    assert_eq!(snap.subscriber("policy").map(|s| s.timeouts), Some(1));
    assert_eq!(snap.latency.count, 2);
}

#[test]
fn subscriber_handles_are_shared() {
    let metrics = Metrics::default();
    let a = metrics.subscriber("x");
    let b = metrics.subscriber("x");
    a.calls.fetch_add(1, Ordering::Relaxed);
    assert_eq!(b.calls.load(Ordering::Relaxed), 1);
}

#[test]
fn halt_wins_over_permission() {
    let decision = Decision {
        permission: Permission::Allow,
        halt: true,
        ..Decision::default()
    };
    assert_eq!(Outcome::of(&decision), Outcome::Halt);
    assert_eq!(Outcome::of(&Decision::default()), Outcome::Neutral);
}
