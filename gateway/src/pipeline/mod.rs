//! One hook event, from the shim's request to the agent's reply:
//! detect → parse → select → fan out (in parallel) → merge → render.
//!
//! Everything here is bounded by the subscribers' deadlines; nothing blocks
//! on observe subscribers or the audit log. A payload that cannot be
//! understood gets the hook call's fail mode (neutral reply, or the agent's
//! blocking one) and a counter.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use arc_swap::ArcSwap;
use futures_util::future::join_all;
use hookgate_adapters::{
    self as adapters, Agent, Decision, Detected, Dialect, FailMode, HookEvent, RankedDecision,
};
use hookgate_wire::{MAX_REPLY_BODY, Reply, Request};

use crate::budget::{Payload, Reservation};
use crate::builtin::audit::{AuditRecord, SubscriberOutcome, Verdicts};
use crate::convert::ProtoEvent;
use crate::ids::EventIds;
use crate::metrics::{Metrics, Outcome, Unparsed};
use crate::subscribers::Registry;
use crate::warnings::{self, Warning};

/// The per-event logic, shared by every connection.
#[derive(Debug)]
pub struct Pipeline {
    /// The subscribers in effect, swapped whole by a config reload; each
    /// event loads it once, so it finishes on the registry it began with.
    registry: Arc<ArcSwap<Registry>>,
    metrics: Arc<Metrics>,
    ids: EventIds,
    /// `[server] on_unparsed`: `Closed` blocks every payload that cannot be
    /// understood; `Open` leaves it to each hook call's fail mode.
    on_unparsed: FailMode,
}

impl Pipeline {
    pub fn new(registry: Registry, metrics: Arc<Metrics>, on_unparsed: FailMode) -> Pipeline {
        Pipeline {
            registry: Arc::new(ArcSwap::from_pointee(registry)),
            metrics,
            ids: EventIds::default(),
            on_unparsed,
        }
    }

    /// The registry in effect, shared with whoever reloads the config.
    pub fn registry(&self) -> Arc<ArcSwap<Registry>> {
        Arc::clone(&self.registry)
    }

    /// The reply for one shim request, whose bytes `reservation` holds in
    /// the memory budget (until everything derived from it is done).
    pub async fn handle(&self, request: Request, reservation: Option<Reservation>) -> Reply {
        self.evaluate(request, reservation).await.0
    }

    /// [`Pipeline::handle`], also giving the merged decision (`None` when
    /// the payload was not understood), so tests assert on the decision
    /// and leave the agent's reply format to `adapters`.
    pub(crate) async fn evaluate(
        &self,
        request: Request,
        reservation: Option<Reservation>,
    ) -> (Reply, Option<Decision>) {
        let started = Instant::now();
        let id = self.ids.next_id();
        let registry = self.registry.load_full();
        let event = match understand(&request) {
            Ok(event) => Arc::new(event),
            Err(unparsed) => {
                let reply = self.unparsed(&registry, id, request, reservation, unparsed, started);
                return (reply, None);
            }
        };
        let agent = event.dialect.agent();
        self.metrics.event(agent, event.kind);
        let payload = Arc::new(Payload::new(request.stdin, reservation));
        // Converted and encoded once, only if a remote subscriber (decide or
        // observe) uses it; every remote is sent the same bytes.
        let proto = ProtoEvent::new(
            Arc::clone(&event),
            id.clone(),
            Arc::clone(&payload),
            Arc::clone(&registry.caller),
        );

        for (filter, observer) in &registry.observers {
            if filter.matches(&event) {
                observer.offer(Arc::clone(&proto));
            }
        }

        // Shadows start first and are never awaited.
        for shadow in &registry.shadows {
            if shadow.decider().filter.matches(&event) {
                shadow.offer(&event, &proto);
            }
        }

        // Every matching decide subscriber at once; results in config order.
        let deciders: Vec<_> = registry
            .deciders
            .iter()
            .filter(|d| d.filter.matches(&event))
            .collect();
        let pending: Vec<_> = deciders
            .iter()
            .map(|d| {
                let call = d.decide(&event, Arc::clone(&proto));
                async move {
                    let started = Instant::now();
                    (call.await, started.elapsed())
                }
            })
            .collect();
        let decisions = join_all(pending).await;
        // Each subscriber's outcome, for the audit log only.
        let mut verdicts = Verdicts::default();
        if !registry.audits.is_empty() {
            verdicts.subscribers = deciders
                .iter()
                .zip(&decisions)
                .map(|(d, (decision, took))| SubscriberOutcome {
                    name: d.name.clone(),
                    permission: decision.permission,
                    latency: *took,
                })
                .collect();
        }
        let ranked: Vec<RankedDecision> = deciders
            .iter()
            .zip(decisions.into_iter().map(|(decision, _)| decision))
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
        verdicts.losses = rendered.losses.clone();
        let decided = (&merged.decision, verdicts);
        self.audit(&registry, &event, id, payload, decided, started);
        self.metrics
            .replied(agent, event.kind, outcome, started.elapsed());
        let reply = wire_reply(rendered.reply);
        let reply = if reply.body_len() <= MAX_REPLY_BODY {
            reply
        } else {
            // The shim would refuse it and apply its own fail mode; block
            // here instead, saying why.
            self.metrics.oversize_reply();
            warnings::warn(
                Warning::Unparsed,
                format_args!(
                    "the merged reply is over the shim's limit of {MAX_REPLY_BODY} bytes; blocked"
                ),
            );
            let native = Some(event.native_event.as_str());
            wire_reply(adapters::fallback(
                Some(event.dialect),
                native,
                FailMode::Closed,
                OVERSIZE_MESSAGE,
            ))
        };
        (reply, Some(merged.decision))
    }

    /// The reply for a payload that could not be understood: the hook
    /// call's fail mode decides, not chance. Fail-open gets the agent's
    /// neutral reply; fail-closed (the shim's mode, or `on_unparsed =
    /// "closed"`) gets its blocking reply for that event, since a payload
    /// nobody can read is one nobody can guard.
    fn unparsed(
        &self,
        registry: &Registry,
        id: String,
        request: Request,
        reservation: Option<Reservation>,
        unparsed: NotUnderstood,
        started: Instant,
    ) -> Reply {
        let mode = match (self.on_unparsed, forwarded_fail_mode(&request)) {
            (FailMode::Closed, _) | (_, FailMode::Closed) => FailMode::Closed,
            _ => FailMode::Open,
        };
        match unparsed.hint {
            Some(agent) => self.metrics.parse_error(agent),
            None => self.metrics.detect_error(),
        }
        self.metrics.unparsed(unparsed.reason, mode);
        warnings::warn(
            Warning::Unparsed,
            format_args!(
                "payload not understood ({}: {}); answered {}",
                unparsed.reason.as_str(),
                unparsed.error,
                if mode == FailMode::Closed {
                    "blocked (fail-closed)"
                } else {
                    "neutrally (fail-open)"
                },
            ),
        );
        let dialect: Option<Dialect> = unparsed.detected.as_ref().map(|d| d.dialect);
        let native = unparsed
            .detected
            .as_ref()
            .and_then(|d| d.native_event.as_deref());
        let reply = adapters::fallback(dialect, native, mode, UNPARSED_MESSAGE);
        if !registry.audits.is_empty() {
            let payload = Arc::new(Payload::new(request.stdin, reservation));
            for (_, audit) in &registry.audits {
                audit.record(AuditRecord {
                    id: id.clone(),
                    at: SystemTime::now(),
                    event: None,
                    payload: Arc::clone(&payload),
                    decision: Decision::default(),
                    verdicts: Verdicts::default(),
                    error: Some(unparsed.error.clone()),
                    latency: started.elapsed(),
                });
            }
        }
        self.metrics.latency(started.elapsed());
        wire_reply(reply)
    }

    fn audit(
        &self,
        registry: &Registry,
        event: &Arc<HookEvent>,
        id: String,
        payload: Arc<Payload>,
        (decision, verdicts): (&Decision, Verdicts),
        started: Instant,
    ) {
        let mut audits = registry
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
                verdicts: verdicts.clone(),
                error: None,
                latency: started.elapsed(),
            });
        }
    }
}

#[cfg(test)]
mod tests;

/// Shown to the user and the model when a payload that could not be
/// understood is blocked.
const UNPARSED_MESSAGE: &str = "hookgate blocked this: the gateway could not understand this hook payload, \
     so no policy could check it (fail-closed); `gateway status` counts it under `unparsed`";

/// Shown when the merged reply is too large for the shim to take.
const OVERSIZE_MESSAGE: &str =
    "hookgate blocked this: the subscribers' reply is larger than an agent reply may be";

/// Why a payload was not understood, and what is known about it anyway.
#[derive(Debug)]
struct NotUnderstood {
    /// The agent the shim named, if any.
    hint: Option<Agent>,
    /// The dialect, when detection got that far (for the right reply).
    detected: Option<Detected>,
    reason: Unparsed,
    /// For logs: names fields, never payload content.
    error: String,
}

/// Step one of an event: detect the dialect and parse the payload.
fn understand(request: &Request) -> Result<HookEvent, NotUnderstood> {
    // The shim's agent argument (`gateway-shim cursor`) is a hint, and the
    // word after it the event of payloads that name none (`gateway-shim
    // copilot preToolUse`); shim flags may precede them.
    let (hint, event_arg) = adapters::args_hint(&request.args);
    let env_names: Vec<&str> = request.env.iter().map(|(name, _)| name.as_str()).collect();
    let detected = adapters::detect_with_event(&request.stdin, hint, event_arg, &env_names)
        .map_err(|err| NotUnderstood {
            hint,
            detected: None,
            reason: Unparsed::of_detect(&err),
            error: err.to_string(),
        })?;
    adapters::parse_detected(&detected, &request.stdin).map_err(|err| NotUnderstood {
        // The dialect is known: its agent's payload did not parse.
        hint: Some(detected.dialect.agent()),
        reason: Unparsed::of_parse(&err),
        error: err.to_string(),
        detected: Some(detected),
    })
}

/// The fail mode the shim resolved for this hook call (it forwards it as
/// `HOOKGATE_FAIL`); open when absent or unknown.
fn forwarded_fail_mode(request: &Request) -> FailMode {
    let forwarded = request
        .env
        .iter()
        .find(|(name, _)| name == hookgate_wire::FAIL_MODE_VAR)
        .map(|(_, value)| value.as_str());
    match forwarded {
        Some("closed") => FailMode::Closed,
        _ => FailMode::Open,
    }
}

/// The adapters' reply as a wire frame's.
fn wire_reply(reply: adapters::Reply) -> Reply {
    Reply {
        exit_code: reply.exit_code,
        stdout: reply.stdout,
        stderr: reply.stderr,
    }
}
