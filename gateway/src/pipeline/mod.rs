//! One hook event, from the shim's request to the agent's reply:
//! detect → parse → select → fan out (in parallel) → merge → render.
//!
//! Everything here is bounded by the subscribers' deadlines; nothing blocks
//! on observe subscribers or the audit log. A payload that cannot be
//! understood gets the agent's neutral reply and a counter, never an error
//! the agent would act on.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use futures_util::future::join_all;
use hookgate_adapters::{
    self as adapters, Agent, Decision, Detected, Dialect, FailMode, HookEvent, RankedDecision,
};
use hookgate_wire::{Reply, Request};

use crate::builtin::audit::AuditRecord;
use crate::convert::ProtoEvent;
use crate::ids::EventIds;
use crate::metrics::{Metrics, Outcome};
use crate::subscribers::Registry;

/// The per-event logic, shared by every connection.
#[derive(Debug)]
pub struct Pipeline {
    registry: Registry,
    metrics: Arc<Metrics>,
    ids: EventIds,
}

impl Pipeline {
    pub fn new(registry: Registry, metrics: Arc<Metrics>) -> Pipeline {
        Pipeline {
            registry,
            metrics,
            ids: EventIds::default(),
        }
    }

    /// The reply for one shim request.
    pub async fn handle(&self, request: Request) -> Reply {
        self.evaluate(request).await.0
    }

    /// [`Pipeline::handle`], also giving the merged decision (`None` when
    /// the payload was not understood), so tests assert on the decision
    /// and leave the agent's reply format to `adapters`.
    pub(crate) async fn evaluate(&self, request: Request) -> (Reply, Option<Decision>) {
        let started = Instant::now();
        let id = self.ids.next_id();
        // The shim's agent argument (`gateway-shim cursor`) is a hint; take
        // the first argument naming an agent, so shim flags may precede it.
        let hint = request
            .args
            .iter()
            .find_map(|arg| arg.parse::<Agent>().ok());
        let env_names: Vec<&str> = request.env.iter().map(|(name, _)| name.as_str()).collect();
        let detected = match adapters::detect(&request.stdin, hint, &env_names) {
            Ok(detected) => detected,
            Err(err) => {
                // With the shim's agent argument the agent is known: its
                // payload did not parse. Without, nobody can tell whose.
                match hint {
                    Some(agent) => self.metrics.parse_error(agent),
                    None => self.metrics.detect_error(),
                }
                tracing::warn!(%id, error = %err, bytes = request.stdin.len(), "payload not understood; neutral reply");
                let reply = self.unparsed(id, request.stdin, None, err.to_string(), started);
                return (reply, None);
            }
        };
        let event = match adapters::parse(detected.dialect, &request.stdin) {
            Ok(event) => Arc::new(event),
            Err(err) => {
                self.metrics.parse_error(detected.dialect.agent());
                tracing::warn!(%id, error = %err, "payload not parsed; neutral reply");
                let reply =
                    self.unparsed(id, request.stdin, Some(detected), err.to_string(), started);
                return (reply, None);
            }
        };
        let agent = event.dialect.agent();
        self.metrics.event(agent, event.kind);
        let payload = Arc::new(request.stdin);
        // Converted and encoded once, only if a remote subscriber (decide or
        // observe) uses it; every remote is sent the same bytes.
        let proto = ProtoEvent::new(Arc::clone(&event), id.clone(), Arc::clone(&payload));

        for (filter, observer) in &self.registry.observers {
            if filter.matches(&event) {
                observer.offer(Arc::clone(&proto));
            }
        }

        // Every matching decide subscriber at once; results in config order.
        let deciders: Vec<_> = self
            .registry
            .deciders
            .iter()
            .filter(|d| d.filter.matches(&event))
            .collect();
        let pending: Vec<_> = deciders
            .iter()
            .map(|d| d.decide(&event, Arc::clone(&proto)))
            .collect();
        let decisions = join_all(pending).await;
        let ranked: Vec<RankedDecision> = deciders
            .iter()
            .zip(decisions)
            .filter(|(_, decision)| !decision.is_neutral())
            .map(|(d, decision)| RankedDecision {
                subscriber: d.name.clone(),
                priority: d.priority,
                decision,
            })
            .collect();

        let merged = adapters::merge(event.dialect, &ranked);
        if !merged.rewrite_conflicts.is_empty() {
            self.metrics
                .rewrite_conflicts(agent, merged.rewrite_conflicts.len());
            tracing::info!(%id, losers = ?merged.rewrite_conflicts, "input rewrite conflict; highest priority won");
        }
        if merged.context_truncated {
            self.metrics.context_truncated(agent);
        }
        let rendered = adapters::render(&event, &merged.decision);
        for loss in &rendered.losses {
            self.metrics.loss(agent, *loss);
        }
        tracing::debug!(
            %id,
            agent = %event.dialect.agent(),
            kind = event.kind.as_str(),
            deciders = deciders.len(),
            permission = ?merged.decision.permission,
            losses = ?rendered.losses,
            "event decided"
        );
        let outcome = Outcome::of(&merged.decision);
        self.audit(&event, id, payload, &merged.decision, started);
        self.metrics
            .replied(agent, event.kind, outcome, started.elapsed());
        let reply = rendered.reply;
        let reply = Reply {
            exit_code: reply.exit_code,
            stdout: reply.stdout,
            stderr: reply.stderr,
        };
        (reply, Some(merged.decision))
    }

    /// The neutral reply for a payload that could not be understood.
    fn unparsed(
        &self,
        id: String,
        payload: Vec<u8>,
        detected: Option<Detected>,
        error: String,
        started: Instant,
    ) -> Reply {
        let dialect: Option<Dialect> = detected.as_ref().map(|d| d.dialect);
        let native = detected.as_ref().and_then(|d| d.native_event.as_deref());
        let reply = adapters::fallback(dialect, native, FailMode::Open, "");
        if !self.registry.audits.is_empty() {
            let payload = Arc::new(payload);
            for (_, audit) in &self.registry.audits {
                audit.record(AuditRecord {
                    id: id.clone(),
                    at: SystemTime::now(),
                    event: None,
                    payload: Arc::clone(&payload),
                    decision: Decision::default(),
                    error: Some(error.clone()),
                    latency: started.elapsed(),
                });
            }
        }
        self.metrics.latency(started.elapsed());
        Reply {
            exit_code: reply.exit_code,
            stdout: reply.stdout,
            stderr: reply.stderr,
        }
    }

    fn audit(
        &self,
        event: &Arc<HookEvent>,
        id: String,
        payload: Arc<Vec<u8>>,
        decision: &Decision,
        started: Instant,
    ) {
        let mut audits = self
            .registry
            .audits
            .iter()
            .filter(|(filter, _)| filter.matches(event))
            .peekable();
        if audits.peek().is_none() {
            return;
        }
        for (_, audit) in audits {
            audit.record(AuditRecord {
                id: id.clone(),
                at: SystemTime::now(),
                event: Some(Arc::clone(event)),
                payload: Arc::clone(&payload),
                decision: decision.clone(),
                error: None,
                latency: started.elapsed(),
            });
        }
    }
}

#[cfg(test)]
mod tests;
