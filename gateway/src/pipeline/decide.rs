//! Step two: who decides. The event goes to every observer and shadow
//! whose filter matches (never waited for), then to every matching decide
//! subscriber at once; their decisions, in config order, merge by the
//! documented rules (`adapters::merge`).

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use futures_util::future::join_all;
use hookgate_adapters::{self as adapters, HookEvent, Merged, RankedDecision};

use super::Pipeline;
use crate::budget::Payload;
use crate::builtin::audit::{SubscriberOutcome, Verdicts};
use crate::convert::ProtoEvent;
use crate::otel::EventSpan;
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
    pub(super) async fn decide(
        &self,
        registry: &Registry,
        event: &Arc<HookEvent>,
        id: &str,
        payload: &Arc<Payload>,
        span: &EventSpan,
    ) -> Decided {
        // Converted and encoded once, only if a remote subscriber (decide or
        // observe) uses it; every remote is sent the same bytes.
        let proto = ProtoEvent::new(
            Arc::clone(event),
            id.to_owned(),
            Arc::clone(payload),
            registry.caller(),
        );

        registry.offer(event, &proto);

        // Every matching decide subscriber at once; results in config order.
        let deciders = registry.deciders_for(event);
        let pending: Vec<_> = deciders
            .iter()
            .map(|d| {
                let call = d.decide_traced(event, Arc::clone(&proto));
                async move {
                    let (at, started) = (SystemTime::now(), Instant::now());
                    let (decision, outcome) = call.await;
                    let took = started.elapsed();
                    span.subscriber(&d.name, at, took, &decision, outcome);
                    (decision, took)
                }
            })
            .collect();
        let decisions = join_all(pending).await;
        // Each subscriber's outcome, for the audit log only.
        let mut verdicts = Verdicts::default();
        if registry.audited() {
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
