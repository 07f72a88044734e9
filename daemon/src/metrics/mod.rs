//! Counters for everything the gateway counts, so operators see failures
//! that the agents never show (`gateway status` and Prometheus build on it).
//!
//! The hook path only touches atomics: per-event counters live in fixed
//! arrays indexed by enum position (agent × event kind × outcome), and each
//! subscriber gets its own [`SubscriberStats`] handle at startup, so no map
//! is consulted per event. The only lock is inside [`Latency`] (see there).

pub(crate) mod audit;
pub(crate) mod endpoint;
pub(crate) mod keeper;
pub(crate) mod latency;
pub(crate) mod memory;
pub(crate) mod notify;
pub(crate) mod otel;
pub(crate) mod persist;
mod reasons;
pub(crate) mod rules;
mod snapshot;
pub(crate) mod subscriber;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use dashmap::DashMap;
use hookgate_adapters::{Agent, Decision, EventKind, FailMode, Loss, Permission};

use crate::delivery::Delivery;

pub(crate) use latency::{Latency, LatencySnapshot};
pub(crate) use reasons::{FALLBACK_REASONS, HttpRefusal, Refusal, Unparsed};
pub(crate) use snapshot::{Snapshot, SubscriberSnapshot};
pub(crate) use subscriber::{BreakerState, ErrorKind, State, StateSource, SubscriberStats};

/// The merged decision, in one word, as the subscribers decided it: before
/// rendering, so an answer the agent cannot express (counted as a loss)
/// still counts here as decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Allow,
    Ask,
    Deny,
    /// No opinion: the agent goes on as if no hook ran.
    Neutral,
    /// Stop the agent's loop (wins over any permission).
    Halt,
}

impl Outcome {
    pub const ALL: [Outcome; 5] = [
        Outcome::Allow,
        Outcome::Ask,
        Outcome::Deny,
        Outcome::Neutral,
        Outcome::Halt,
    ];

    pub fn of(decision: &Decision) -> Outcome {
        if decision.halt {
            return Outcome::Halt;
        }
        match decision.permission {
            Permission::Allow => Outcome::Allow,
            Permission::Ask => Outcome::Ask,
            Permission::Deny => Outcome::Deny,
            Permission::Unspecified => Outcome::Neutral,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Allow => "allow",
            Outcome::Ask => "ask",
            Outcome::Deny => "deny",
            Outcome::Neutral => "neutral",
            Outcome::Halt => "halt",
        }
    }
}

pub(crate) const LOSSES: [Loss; 7] = [
    Loss::Deny,
    Loss::Ask,
    Loss::Allow,
    Loss::Context,
    Loss::InputRewrite,
    Loss::Halt,
    Loss::Followup,
];
/// Every reason a part of a decision was left out, as counted: what the
/// agent cannot express ([`LOSSES`]), then what the gateway itself left
/// out (`followup_capped`: a follow-up past `[server] max_followups`).
pub(crate) const LOSS_REASONS: [&str; LOSSES.len() + 1] = [
    "deny",
    "ask",
    "allow",
    "context",
    "input_rewrite",
    "halt",
    "followup",
    "followup_capped",
];
const AGENTS: usize = Agent::ALL.len();
const KINDS: usize = EventKind::ALL.len();
const OUTCOMES: usize = Outcome::ALL.len();

/// The counters of one agent × event kind.
#[derive(Debug)]
pub(crate) struct EventCell {
    events: AtomicU64,
    outcomes: [AtomicU64; OUTCOMES],
    latency: Latency,
}

/// Merge counters of one agent.
#[derive(Debug)]
pub(crate) struct MergeCell {
    rewrite_conflicts: AtomicU64,
    context_truncations: AtomicU64,
    losses: [AtomicU64; LOSS_REASONS.len()],
}

/// Everything the gateway counts. Shared as `Arc<Metrics>`.
#[derive(Debug)]
pub struct Metrics {
    cells: [[EventCell; KINDS]; AGENTS],
    merge: [MergeCell; AGENTS],
    detect_errors: AtomicU64,
    parse_errors: [AtomicU64; AGENTS],
    unparsed: [AtomicU64; Unparsed::ALL.len()],
    /// Unparsed payloads answered neutrally (0) or blocked (1).
    unparsed_replies: [AtomicU64; 2],
    oversize_replies: AtomicU64,
    /// Replies that did not reach the agent: late (after the shim's
    /// deadline, 0) or with the shim gone (1).
    undelivered: [AtomicU64; 2],
    refused: [AtomicU64; Refusal::ALL.len()],
    http_refused: [AtomicU64; HttpRefusal::ALL.len()],
    fallbacks: [AtomicU64; FALLBACK_REASONS.len()],
    subscribers: DashMap<String, Arc<SubscriberStats>>,
    /// `gateway doctor`'s probe events (and `gateway eval --socket`'s calls)
    /// by agent, counted here and not as
    /// traffic (`events`, outcomes, latency).
    probes: [AtomicU64; AGENTS],
    /// Of those, the ones denied: doctor's `cat .env` probe must be.
    probe_denials: [AtomicU64; AGENTS],
    /// End-to-end time of every event (also unparsed ones).
    latency: Latency,
    /// The OpenTelemetry export's counters.
    pub otel: otel::OtelStats,
    /// User config settings the system config's locks refused, in the
    /// config in effect.
    config_refused: AtomicU64,
}

fn zeros<const N: usize>() -> [AtomicU64; N] {
    std::array::from_fn(|_| AtomicU64::new(0))
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            cells: std::array::from_fn(|_| {
                std::array::from_fn(|_| EventCell {
                    events: AtomicU64::new(0),
                    outcomes: zeros(),
                    latency: Latency::new(2),
                })
            }),
            merge: std::array::from_fn(|_| MergeCell {
                rewrite_conflicts: AtomicU64::new(0),
                context_truncations: AtomicU64::new(0),
                losses: zeros(),
            }),
            detect_errors: AtomicU64::new(0),
            parse_errors: zeros(),
            unparsed: zeros(),
            unparsed_replies: zeros(),
            oversize_replies: AtomicU64::new(0),
            undelivered: zeros(),
            refused: zeros(),
            http_refused: zeros(),
            fallbacks: zeros(),
            subscribers: DashMap::new(),
            probes: zeros(),
            probe_denials: zeros(),
            latency: Latency::new(3),
            otel: otel::OtelStats::default(),
            config_refused: AtomicU64::new(0),
        }
    }
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

fn agent_index(agent: Agent) -> usize {
    Agent::ALL.iter().position(|x| *x == agent).unwrap_or(0)
}

fn kind_index(kind: EventKind) -> usize {
    EventKind::ALL
        .iter()
        .position(|x| *x == kind)
        .unwrap_or(KINDS - 1)
}

impl Metrics {
    /// The stats handle of subscriber `name`, created on first use. Called
    /// at startup; the hook path keeps the returned `Arc`.
    pub fn subscriber(&self, name: &str) -> Arc<SubscriberStats> {
        self.subscribers.entry(name.to_owned()).or_default().clone()
    }

    /// How many user settings the config in effect refused (locks).
    pub fn set_config_refused(&self, n: usize) {
        self.config_refused
            .store(u64::try_from(n).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    fn cell(&self, agent: Agent, kind: EventKind) -> &EventCell {
        &self.cells[agent_index(agent)][kind_index(kind)]
    }

    /// An event was parsed.
    pub fn event(&self, agent: Agent, kind: EventKind) {
        bump(&self.cell(agent, kind).events);
    }

    /// A `gateway doctor` probe event of `agent` was answered with
    /// `outcome`.
    pub fn probe(&self, agent: Agent, outcome: Outcome) {
        bump(&self.probes[agent_index(agent)]);
        if outcome == Outcome::Deny {
            bump(&self.probe_denials[agent_index(agent)]);
        }
    }

    /// The event was answered with `outcome` after `elapsed` in the gateway.
    pub fn replied(&self, agent: Agent, kind: EventKind, outcome: Outcome, elapsed: Duration) {
        let cell = self.cell(agent, kind);
        let i = Outcome::ALL.iter().position(|o| *o == outcome).unwrap_or(0);
        bump(&cell.outcomes[i]);
        cell.latency.record(elapsed);
        self.latency.record(elapsed);
    }

    /// The payload's agent could not be detected.
    pub fn detect_error(&self) {
        bump(&self.detect_errors);
    }

    /// A payload of `agent`'s could not be parsed.
    pub fn parse_error(&self, agent: Agent) {
        bump(&self.parse_errors[agent_index(agent)]);
    }

    /// A payload was not understood for `reason` and answered as `mode`
    /// says (neutral reply, or the blocking one).
    pub fn unparsed(&self, reason: Unparsed, mode: FailMode) {
        let i = Unparsed::ALL.iter().position(|r| *r == reason).unwrap_or(0);
        bump(&self.unparsed[i]);
        bump(&self.unparsed_replies[usize::from(mode == FailMode::Closed)]);
    }

    /// A merged reply too large for the shim was replaced by the agent's
    /// blocking reply.
    pub fn oversize_reply(&self) {
        bump(&self.oversize_replies);
    }

    /// A reply did not reach the agent (see `crate::delivery`).
    pub fn undelivered(&self, delivery: Delivery) {
        match delivery {
            Delivery::Late => bump(&self.undelivered[0]),
            Delivery::Gone => bump(&self.undelivered[1]),
            Delivery::Delivered | Delivery::Unconfirmed => {}
        }
    }

    pub fn refused(&self, reason: Refusal) {
        let i = Refusal::ALL.iter().position(|r| *r == reason).unwrap_or(0);
        bump(&self.refused[i]);
    }

    pub fn http_refused(&self, reason: HttpRefusal) {
        let i = HttpRefusal::ALL
            .iter()
            .position(|r| *r == reason)
            .unwrap_or(0);
        bump(&self.http_refused[i]);
    }

    pub fn rewrite_conflicts(&self, agent: Agent, n: usize) {
        self.merge[agent_index(agent)]
            .rewrite_conflicts
            .fetch_add(n as u64, Ordering::Relaxed);
    }

    pub fn context_truncated(&self, agent: Agent) {
        bump(&self.merge[agent_index(agent)].context_truncations);
    }

    pub fn loss(&self, agent: Agent, loss: Loss) {
        let i = LOSSES.iter().position(|l| *l == loss).unwrap_or(0);
        bump(&self.merge[agent_index(agent)].losses[i]);
    }

    /// A follow-up past `[server] max_followups` was left out.
    pub fn followup_capped(&self, agent: Agent) {
        bump(&self.merge[agent_index(agent)].losses[LOSSES.len()]);
    }

    /// End-to-end time of an event that was not parsed (no agent × kind).
    pub fn latency(&self, elapsed: Duration) {
        self.latency.record(elapsed);
    }

    /// Adds `n` shim fallbacks of `reason` (unknown reasons count as
    /// `other`).
    pub fn fallbacks(&self, reason: &str, n: u64) {
        let i = FALLBACK_REASONS
            .iter()
            .position(|r| *r == reason)
            .unwrap_or(FALLBACK_REASONS.len() - 1);
        self.fallbacks[i].fetch_add(n, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests;
