//! A point-in-time copy of [`Metrics`], the one shape every report
//! (`gateway status`, its JSON, Prometheus) is built from.
//!
//! Maps are `BTreeMap`s keyed by the bounded label sets (outcome, refusal,
//! loss, fallback reason), always with every key present, so the JSON
//! document has a stable shape whatever happened.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use hookgate_adapters::{Agent, EventKind};
use serde::Serialize;

use super::latency::LatencySnapshot;
use super::otel::OtelSnapshot;
use super::{FALLBACK_REASONS, HttpRefusal, LOSS_REASONS, Metrics, Outcome, Refusal, Unparsed};

/// A point-in-time copy of [`Metrics`].
#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    /// Agent × event kinds that saw at least one event.
    pub events: Vec<EventCount>,
    /// Payloads whose agent could not be told.
    pub detect_errors: u64,
    /// Payloads that could not be parsed, in total and by agent.
    pub parse_errors: u64,
    pub parse_errors_by_agent: BTreeMap<&'static str, u64>,
    /// Payloads not understood (detect or parse errors), by reason, and how
    /// they were answered (`open`: neutral reply, `closed`: blocked).
    pub unparsed: BTreeMap<&'static str, u64>,
    pub unparsed_replies: BTreeMap<&'static str, u64>,
    /// Merged replies over the shim's reply limit, blocked instead.
    pub oversize_replies: u64,
    /// Replies that did not reach the agent, by why: `late` (ready after
    /// the shim's deadline: it answered by its fail mode) or `gone` (the
    /// shim closed without taking it: killed by the agent).
    pub undelivered: BTreeMap<&'static str, u64>,
    /// Connections closed unanswered, by reason.
    pub refused: BTreeMap<&'static str, u64>,
    /// HTTP hook requests and connections refused, by reason.
    pub http_refused: BTreeMap<&'static str, u64>,
    /// Shim fallbacks (answers without the gateway), by reason.
    pub fallbacks: BTreeMap<&'static str, u64>,
    pub rewrite_conflicts: u64,
    pub context_truncations: u64,
    /// Merge counters of agents that have any.
    pub merge: Vec<MergeCount>,
    pub subscribers: Vec<SubscriberSnapshot>,
    /// End-to-end gateway latency of every event.
    pub latency: LatencySnapshot,
    /// The OpenTelemetry export: spans exported and dropped.
    pub otel: OtelSnapshot,
    /// User config settings refused by the system config's locks.
    pub config_refused: u64,
    /// `gateway doctor`'s probe events by agent (not in `events`).
    pub probes: BTreeMap<&'static str, u64>,
    /// Of those, the ones denied (since the gateway started; not kept
    /// across restarts): `gateway doctor` judges its dangerous probe by it.
    pub probe_denials: BTreeMap<&'static str, u64>,
}

impl Snapshot {
    /// Events seen in total.
    pub fn total_events(&self) -> u64 {
        self.events.iter().map(|e| e.count).sum()
    }

    /// The refusal counter for `reason`.
    pub fn refusals(&self, reason: Refusal) -> u64 {
        self.refused.get(reason.as_str()).copied().unwrap_or(0)
    }

    /// The HTTP refusal counter for `reason`.
    pub fn http_refusals(&self, reason: HttpRefusal) -> u64 {
        self.http_refused.get(reason.as_str()).copied().unwrap_or(0)
    }

    /// The stats of subscriber `name`, if it exists.
    pub fn subscriber(&self, name: &str) -> Option<&SubscriberSnapshot> {
        self.subscribers.iter().find(|s| s.name == name)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct EventCount {
    pub agent: &'static str,
    #[serde(rename = "event")]
    pub kind: &'static str,
    pub count: u64,
    /// Replies by outcome (allow, ask, deny, neutral, halt).
    pub outcomes: BTreeMap<&'static str, u64>,
    pub latency: LatencySnapshot,
}

#[derive(Debug, Clone, Serialize)]
pub struct MergeCount {
    pub agent: &'static str,
    pub rewrite_conflicts: u64,
    pub context_truncations: u64,
    /// Decision parts the agent could not express, by kind.
    pub losses: BTreeMap<&'static str, u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SubscriberSnapshot {
    pub name: String,
    /// The config layer it came from (`default`, `system`, `user`) and
    /// whether the system locked it.
    pub layer: &'static str,
    pub locked: bool,
    pub state: &'static str,
    pub state_source: &'static str,
    pub calls: u64,
    pub ok: u64,
    pub allow: u64,
    pub ask: u64,
    pub deny: u64,
    pub errors: u64,
    pub errors_by_kind: BTreeMap<&'static str, u64>,
    pub timeouts: u64,
    /// Calls cut at the shim's deadline, before the subscriber's own.
    pub deadline_cuts: u64,
    pub fail_open: u64,
    pub fail_closed: u64,
    pub drops: u64,
    /// Built-in checks handed to the blocking pool (past the first,
    /// inline attempt's budget).
    pub pooled: u64,
    /// The circuit breaker: `off` (built-ins, or turned off), `closed`,
    /// `open`, `half_open`; calls skipped while open; transitions.
    pub breaker: &'static str,
    pub breaker_open: u64,
    pub breaker_opened: u64,
    pub breaker_closed: u64,
    /// Shadow subscribers: what they would have decided, by permission.
    pub would: BTreeMap<&'static str, u64>,
    pub latency: LatencySnapshot,
    /// Remote subscribers: each endpoint's health and calls it handed on.
    pub endpoints: Vec<super::endpoint::EndpointSnapshot>,
    /// `rego` subscribers: the loaded revision and the bundle's fetches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicySnapshot>,
    /// Guards: each rule that decided, by id, with its hits.
    pub rules: Vec<super::rules::RuleCount>,
    /// Decision logs: reopens of a log moved away, anchor write failures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit: Option<super::audit::AuditSnapshot>,
    /// Memories: captures stored, sessions compressed, failures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<super::memory::MemorySnapshot>,
    /// Approvals that notify: notifications sent, failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notifications: Option<super::notify::NotifySnapshot>,
}

/// A `rego` subscriber's policy, for `gateway status`.
#[derive(Debug, Clone, Serialize)]
pub struct PolicySnapshot {
    /// `None` until a policy is loaded (a bundle not fetched yet).
    pub revision: Option<String>,
    pub last_fetch: Option<String>,
    pub updates: u64,
    pub refused: u64,
    pub fetch_errors: u64,
}

fn policy_snapshot(p: &super::subscriber::PolicyStats) -> Option<PolicySnapshot> {
    let revision = p.revision.load_full().map(|r| r.as_ref().clone());
    let last_fetch = p.last_fetch.load_full().map(|r| r.as_ref().clone());
    (revision.is_some() || last_fetch.is_some()).then(|| PolicySnapshot {
        revision,
        last_fetch,
        updates: load(&p.updates),
        refused: load(&p.refused),
        fetch_errors: load(&p.fetch_errors),
    })
}

fn load(counter: &AtomicU64) -> u64 {
    counter.load(Ordering::Relaxed)
}

fn labelled<'a>(
    names: impl IntoIterator<Item = &'static str>,
    counters: impl IntoIterator<Item = &'a AtomicU64>,
) -> BTreeMap<&'static str, u64> {
    names
        .into_iter()
        .zip(counters.into_iter().map(load))
        .collect()
}

impl Metrics {
    /// A consistent-enough copy of every counter, for reports.
    pub fn snapshot(&self) -> Snapshot {
        let mut events = Vec::new();
        for (agent, row) in Agent::ALL.iter().zip(&self.cells) {
            for (kind, cell) in EventKind::ALL.iter().zip(row) {
                let count = load(&cell.events);
                if count > 0 {
                    events.push(EventCount {
                        agent: agent.as_str(),
                        kind: kind.as_str(),
                        count,
                        outcomes: labelled(Outcome::ALL.map(Outcome::as_str), &cell.outcomes),
                        latency: cell.latency.snapshot(),
                    });
                }
            }
        }
        let merge: Vec<MergeCount> = Agent::ALL
            .iter()
            .zip(&self.merge)
            .map(|(agent, cell)| MergeCount {
                agent: agent.as_str(),
                rewrite_conflicts: load(&cell.rewrite_conflicts),
                context_truncations: load(&cell.context_truncations),
                losses: labelled(LOSS_REASONS, &cell.losses),
            })
            .filter(|m| {
                m.rewrite_conflicts + m.context_truncations + m.losses.values().sum::<u64>() > 0
            })
            .collect();
        let mut subscribers: Vec<SubscriberSnapshot> = self
            .subscribers
            .iter()
            .map(|entry| {
                let s = entry.value();
                SubscriberSnapshot {
                    name: entry.key().clone(),
                    layer: s.layer().as_str(),
                    locked: s.locked(),
                    state: s.state().as_str(),
                    state_source: s.source().as_str(),
                    calls: load(&s.calls),
                    ok: load(&s.ok),
                    allow: load(&s.allow),
                    ask: load(&s.ask),
                    deny: load(&s.deny),
                    errors: load(&s.errors),
                    errors_by_kind: labelled(
                        ["connect", "status", "bad_reply", "too_complex"],
                        [
                            &s.errors_connect,
                            &s.errors_status,
                            &s.errors_bad_reply,
                            &s.errors_too_complex,
                        ],
                    ),
                    timeouts: load(&s.timeouts),
                    deadline_cuts: load(&s.deadline_cuts),
                    fail_open: load(&s.fail_open),
                    fail_closed: load(&s.fail_closed),
                    drops: load(&s.drops),
                    pooled: load(&s.pooled),
                    breaker: s.breaker().as_str(),
                    breaker_open: load(&s.breaker_open),
                    breaker_opened: load(&s.breaker_opened),
                    breaker_closed: load(&s.breaker_closed),
                    would: labelled(
                        ["allow", "ask", "deny"],
                        [&s.would_allow, &s.would_ask, &s.would_deny],
                    ),
                    latency: s.latency.snapshot(),
                    endpoints: super::endpoint::snapshot(&s.endpoints.load()),
                    policy: policy_snapshot(&s.policy),
                    rules: s.rules.snapshot(),
                    audit: s.audit.snapshot(),
                    memory: s.memory.snapshot(),
                    notifications: s.notify.snapshot(),
                }
            })
            .collect();
        subscribers.sort_by(|a, b| a.name.cmp(&b.name));
        let parse_errors_by_agent = labelled(Agent::ALL.map(Agent::as_str), &self.parse_errors);
        Snapshot {
            events,
            detect_errors: load(&self.detect_errors),
            parse_errors: parse_errors_by_agent.values().sum(),
            parse_errors_by_agent,
            unparsed: labelled(Unparsed::ALL.map(Unparsed::as_str), &self.unparsed),
            unparsed_replies: labelled(["open", "closed"], &self.unparsed_replies),
            oversize_replies: load(&self.oversize_replies),
            undelivered: labelled(["late", "gone"], &self.undelivered),
            refused: labelled(Refusal::ALL.map(Refusal::as_str), &self.refused),
            http_refused: labelled(
                HttpRefusal::ALL.map(HttpRefusal::as_str),
                &self.http_refused,
            ),
            fallbacks: labelled(FALLBACK_REASONS, &self.fallbacks),
            rewrite_conflicts: self.merge.iter().map(|m| load(&m.rewrite_conflicts)).sum(),
            context_truncations: self
                .merge
                .iter()
                .map(|m| load(&m.context_truncations))
                .sum(),
            merge,
            subscribers,
            latency: self.latency.snapshot(),
            otel: self.otel.snapshot(),
            config_refused: load(&self.config_refused),
            probes: labelled(Agent::ALL.map(Agent::as_str), &self.probes),
            probe_denials: labelled(Agent::ALL.map(Agent::as_str), &self.probe_denials),
        }
    }
}
