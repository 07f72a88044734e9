//! Counters for everything the gateway counts, so operators see failures
//! that the agents never show (`gateway status` and Prometheus build on it).
//!
//! The hook path only touches atomics: per-event counters live in fixed
//! arrays indexed by enum position, and each subscriber gets its own
//! [`SubscriberStats`] handle at startup, so no map is consulted per event.
//! The latency histogram is the one lock: a `Mutex` held for one
//! `record` call (tens of nanoseconds), never across an await.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dashmap::DashMap;
use hdrhistogram::Histogram;
use hookgate_adapters::{Agent, EventKind, Loss};
use serde::Serialize;

/// Why a connection was closed without a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The peer runs as another user.
    ForeignUid,
    /// The kernel would not tell the peer's credentials.
    NoPeerCred,
    /// Every connection slot stayed taken for the whole queue wait.
    Busy,
    /// The request did not arrive before the read deadline.
    ReadTimeout,
    /// The bytes are not a valid request frame (incl. too large).
    BadFrame,
    /// The reply could not be written back.
    WriteFailed,
}

impl Refusal {
    /// Every reason, in a stable order (the index of the counter array).
    pub const ALL: [Refusal; 6] = [
        Refusal::ForeignUid,
        Refusal::NoPeerCred,
        Refusal::Busy,
        Refusal::ReadTimeout,
        Refusal::BadFrame,
        Refusal::WriteFailed,
    ];

    /// Name used in metric labels.
    pub fn as_str(self) -> &'static str {
        match self {
            Refusal::ForeignUid => "foreign_uid",
            Refusal::NoPeerCred => "no_peer_cred",
            Refusal::Busy => "busy",
            Refusal::ReadTimeout => "read_timeout",
            Refusal::BadFrame => "bad_frame",
            Refusal::WriteFailed => "write_failed",
        }
    }
}

const LOSSES: [Loss; 7] = [
    Loss::Deny,
    Loss::Ask,
    Loss::Allow,
    Loss::Context,
    Loss::InputRewrite,
    Loss::Halt,
    Loss::Followup,
];
const AGENTS: usize = Agent::ALL.len();
const KINDS: usize = EventKind::ALL.len();

/// Counters of one subscriber (remote or built-in).
#[derive(Debug, Default)]
pub struct SubscriberStats {
    /// Events handed to it (decide calls made, observe events sent).
    pub calls: AtomicU64,
    pub ok: AtomicU64,
    /// gRPC errors, connection failures and unusable replies.
    pub errors: AtomicU64,
    /// Calls that hit the subscriber's deadline.
    pub timeouts: AtomicU64,
    /// Failures answered as "no opinion" (`on_error = "allow"`).
    pub fail_open: AtomicU64,
    /// Failures answered with a deny (`on_error = "deny"`).
    pub fail_closed: AtomicU64,
    /// Events that did not fit in an observe or audit queue.
    pub drops: AtomicU64,
}

/// Everything the gateway counts. Shared as `Arc<Metrics>`.
#[derive(Debug)]
pub struct Metrics {
    events: [[AtomicU64; KINDS]; AGENTS],
    detect_errors: AtomicU64,
    parse_errors: AtomicU64,
    refused: [AtomicU64; Refusal::ALL.len()],
    rewrite_conflicts: AtomicU64,
    context_truncations: AtomicU64,
    losses: [AtomicU64; LOSSES.len()],
    subscribers: DashMap<String, Arc<SubscriberStats>>,
    /// End-to-end time of one event inside the gateway, in microseconds.
    latency_us: Mutex<Histogram<u64>>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            events: std::array::from_fn(|_| std::array::from_fn(|_| AtomicU64::new(0))),
            detect_errors: AtomicU64::new(0),
            parse_errors: AtomicU64::new(0),
            refused: std::array::from_fn(|_| AtomicU64::new(0)),
            rewrite_conflicts: AtomicU64::new(0),
            context_truncations: AtomicU64::new(0),
            losses: std::array::from_fn(|_| AtomicU64::new(0)),
            subscribers: DashMap::new(),
            // 1 µs .. 1 h at 3 significant digits.
            latency_us: Mutex::new(
                Histogram::new_with_bounds(1, 3_600_000_000, 3)
                    .expect("constant histogram bounds are valid"),
            ),
        }
    }
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

impl Metrics {
    /// The stats handle of subscriber `name`, created on first use. Called
    /// at startup; the hook path keeps the returned `Arc`.
    pub fn subscriber(&self, name: &str) -> Arc<SubscriberStats> {
        self.subscribers.entry(name.to_owned()).or_default().clone()
    }

    pub fn event(&self, agent: Agent, kind: EventKind) {
        let a = Agent::ALL.iter().position(|x| *x == agent).unwrap_or(0);
        let k = EventKind::ALL
            .iter()
            .position(|x| *x == kind)
            .unwrap_or(KINDS - 1);
        bump(&self.events[a][k]);
    }

    pub fn detect_error(&self) {
        bump(&self.detect_errors);
    }

    pub fn parse_error(&self) {
        bump(&self.parse_errors);
    }

    pub fn refused(&self, reason: Refusal) {
        let i = Refusal::ALL.iter().position(|r| *r == reason).unwrap_or(0);
        bump(&self.refused[i]);
    }

    pub fn rewrite_conflicts(&self, n: usize) {
        self.rewrite_conflicts
            .fetch_add(n as u64, Ordering::Relaxed);
    }

    pub fn context_truncated(&self) {
        bump(&self.context_truncations);
    }

    pub fn loss(&self, loss: Loss) {
        let i = LOSSES.iter().position(|l| *l == loss).unwrap_or(0);
        bump(&self.losses[i]);
    }

    pub fn latency(&self, elapsed: Duration) {
        let us = u64::try_from(elapsed.as_micros())
            .unwrap_or(u64::MAX)
            .max(1);
        if let Ok(mut histogram) = self.latency_us.lock() {
            histogram.saturating_record(us);
        }
    }

    /// A consistent-enough copy of every counter, for reports.
    pub fn snapshot(&self) -> Snapshot {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mut events = Vec::new();
        for (a, agent) in Agent::ALL.iter().enumerate() {
            for (k, kind) in EventKind::ALL.iter().enumerate() {
                let count = load(&self.events[a][k]);
                if count > 0 {
                    events.push(EventCount {
                        agent: agent.as_str(),
                        kind: kind.as_str(),
                        count,
                    });
                }
            }
        }
        let mut subscribers: Vec<SubscriberSnapshot> = self
            .subscribers
            .iter()
            .map(|entry| {
                let s = entry.value();
                SubscriberSnapshot {
                    name: entry.key().clone(),
                    calls: load(&s.calls),
                    ok: load(&s.ok),
                    errors: load(&s.errors),
                    timeouts: load(&s.timeouts),
                    fail_open: load(&s.fail_open),
                    fail_closed: load(&s.fail_closed),
                    drops: load(&s.drops),
                }
            })
            .collect();
        subscribers.sort_by(|a, b| a.name.cmp(&b.name));
        let latency = self.latency_us.lock().ok().map(|h| LatencySnapshot {
            count: h.len(),
            p50_us: h.value_at_quantile(0.50),
            p90_us: h.value_at_quantile(0.90),
            p99_us: h.value_at_quantile(0.99),
            max_us: h.max(),
        });
        Snapshot {
            events,
            detect_errors: load(&self.detect_errors),
            parse_errors: load(&self.parse_errors),
            refused: Refusal::ALL
                .iter()
                .zip(&self.refused)
                .map(|(r, c)| (r.as_str(), load(c)))
                .collect(),
            rewrite_conflicts: load(&self.rewrite_conflicts),
            context_truncations: load(&self.context_truncations),
            losses: LOSSES
                .iter()
                .zip(&self.losses)
                .map(|(l, c)| (l.as_str(), load(c)))
                .collect(),
            subscribers,
            latency,
        }
    }
}

/// A point-in-time copy of [`Metrics`].
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    pub events: Vec<EventCount>,
    pub detect_errors: u64,
    pub parse_errors: u64,
    pub refused: Vec<(&'static str, u64)>,
    pub rewrite_conflicts: u64,
    pub context_truncations: u64,
    pub losses: Vec<(&'static str, u64)>,
    pub subscribers: Vec<SubscriberSnapshot>,
    pub latency: Option<LatencySnapshot>,
}

impl Snapshot {
    /// Events seen in total.
    pub fn total_events(&self) -> u64 {
        self.events.iter().map(|e| e.count).sum()
    }

    /// The refusal counter for `reason`.
    pub fn refusals(&self, reason: Refusal) -> u64 {
        self.refused
            .iter()
            .find(|(name, _)| *name == reason.as_str())
            .map_or(0, |(_, n)| *n)
    }

    /// The stats of subscriber `name`, if it exists.
    pub fn subscriber(&self, name: &str) -> Option<&SubscriberSnapshot> {
        self.subscribers.iter().find(|s| s.name == name)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct EventCount {
    pub agent: &'static str,
    pub kind: &'static str,
    pub count: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct SubscriberSnapshot {
    pub name: String,
    pub calls: u64,
    pub ok: u64,
    pub errors: u64,
    pub timeouts: u64,
    pub fail_open: u64,
    pub fail_closed: u64,
    pub drops: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct LatencySnapshot {
    pub count: u64,
    pub p50_us: u64,
    pub p90_us: u64,
    pub p99_us: u64,
    pub max_us: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_land_in_the_snapshot() {
        let metrics = Metrics::default();
        metrics.event(Agent::Cursor, EventKind::PreToolUse);
        metrics.event(Agent::Cursor, EventKind::PreToolUse);
        metrics.refused(Refusal::ForeignUid);
        metrics.loss(Loss::Context);
        let stats = metrics.subscriber("policy");
        stats.timeouts.fetch_add(1, Ordering::Relaxed);
        metrics.latency(Duration::from_micros(250));

        let snap = metrics.snapshot();
        assert_eq!(snap.total_events(), 2);
        assert_eq!(snap.events[0].agent, "cursor");
        assert_eq!(snap.events[0].kind, "pre_tool_use");
        assert_eq!(snap.refusals(Refusal::ForeignUid), 1);
        assert_eq!(snap.refusals(Refusal::Busy), 0);
        assert!(snap.losses.contains(&("context", 1)));
        assert_eq!(snap.subscriber("policy").map(|s| s.timeouts), Some(1));
        assert_eq!(snap.latency.map(|l| l.count), Some(1));
    }

    #[test]
    fn subscriber_handles_are_shared() {
        let metrics = Metrics::default();
        let a = metrics.subscriber("x");
        let b = metrics.subscriber("x");
        a.calls.fetch_add(1, Ordering::Relaxed);
        assert_eq!(b.calls.load(Ordering::Relaxed), 1);
    }
}
