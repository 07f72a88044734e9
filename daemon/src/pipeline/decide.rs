//! Step two: who decides. The event goes to every observer and shadow
//! whose filter matches (never waited for), then to every matching decide
//! subscriber at once, each call bounded by its own deadline and the
//! shim's (`call`); their decisions, in config order, merge by the
//! documented rules (`adapters::merge`).

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use futures_util::future::join_all;
use hookgate_adapters::{self as adapters, HookEvent, Merged, RankedDecision};

use super::Pipeline;
use crate::budget::Payload;
use crate::builtin::Call;
use crate::builtin::audit::{SubscriberOutcome, Verdicts};
use crate::convert::ProtoEvent;
use crate::hold::HoldLine;
use crate::otel::{CallOutcome, EventSpan};
use crate::subscribers::Registry;

/// What the subscribers decided about one event.
pub(super) struct Decided {
    pub(super) merged: Merged,
    /// Each subscriber's outcome (for the audit log only).
    pub(super) verdicts: Verdicts,
    /// How many deciders were asked.
    pub(super) deciders: usize,
}

impl Pipeline {
    #[expect(
        clippy::too_many_arguments,
        reason = "one event's parts, borrowed as the pipeline holds them, and the call's terms"
    )]
    pub(super) async fn decide(
        &self,
        registry: &Registry,
        event: &Arc<HookEvent>,
        id: &str,
        payload: &Arc<Payload>,
        span: &EventSpan,
        (received, deadline): (Instant, Option<Instant>),
        hold: &HoldLine,
    ) -> Decided {
        let caller = registry.caller();
        let call = Call {
            event,
            id,
            payload,
            received,
            caller: &caller,
            deadline,
            hold,
        };
        // Converted and encoded once, only if a remote subscriber (decide or
        // observe) uses it; every remote is sent the same bytes.
        let proto = ProtoEvent::new(
            Arc::clone(event),
            id.to_owned(),
            Arc::clone(payload),
            Arc::clone(&caller),
        );

        registry.offer(&call, &proto);

        // Every matching decide subscriber at once; results in config order.
        let deciders = registry.deciders_for(event);
        let pending: Vec<_> = deciders
            .iter()
            .map(|d| {
                let pending = d.decide_traced(&call, Arc::clone(&proto));
                async move {
                    let (at, started) = (SystemTime::now(), Instant::now());
                    let (ruling, outcome) = pending.await;
                    let took = started.elapsed();
                    let failed = match outcome {
                        CallOutcome::Answered => None,
                        CallOutcome::Failed(why) => Some(why),
                    };
                    span.subscriber(&d.name, at, took, &ruling.decision, outcome);
                    let noted = (ruling.rule, ruling.revision, ruling.held);
                    (ruling.decision, took, failed, noted)
                }
            })
            .collect();
        let decisions = join_all(pending).await;
        // Each subscriber's outcome, for the audit log (and `gateway eval`).
        let mut verdicts = Verdicts::default();
        if self.explaining || registry.recorded() {
            verdicts.subscribers = deciders
                .iter()
                .zip(&decisions)
                .map(
                    |(d, (decision, took, failed, (rule, revision, held)))| SubscriberOutcome {
                        name: d.name.clone(),
                        permission: decision.permission,
                        latency: *took,
                        failed: *failed,
                        rule: rule.clone(),
                        revision: revision.clone(),
                        held: held.clone(),
                    },
                )
                .collect();
        }
        let ranked: Vec<RankedDecision> = deciders
            .iter()
            .zip(decisions.into_iter().map(|(decision, ..)| decision))
            .filter(|(_, decision)| !decision.is_neutral())
            .map(|(d, decision)| RankedDecision {
                subscriber: d.name.clone(),
                priority: d.priority,
                decision,
            })
            .collect();

        let mut merged = adapters::merge(event.dialect, &ranked);
        super::recheck::recheck(registry, &call, &mut merged).await;
        if !merged.rewrite_conflicts.is_empty() {
            self.metrics
                .rewrite_conflicts(event.dialect.agent(), merged.rewrite_conflicts.len());
            tracing::info!(id, losers = ?merged.rewrite_conflicts, "input rewrite conflict; highest priority won");
        }
        if merged.context_truncated {
            self.metrics.context_truncated(event.dialect.agent());
        }
        Decided {
            merged,
            verdicts,
            deciders: deciders.len(),
        }
    }
}
