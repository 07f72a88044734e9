//! One hook event, from the shim's request to the agent's reply, in three
//! steps, a module each: `understand` (detect the dialect, parse the
//! payload; what cannot be understood gets the hook call's fail mode),
//! `decide` (offer it to observers and shadows, ask the matching deciders
//! in parallel, merge) and `answer` (render the agent's reply, count what
//! it could not express, audit, bound the reply's size).
//!
//! Everything here is bounded by the subscribers' deadlines; nothing blocks
//! on observe subscribers or the audit log. A payload that cannot be
//! understood gets the hook call's fail mode (neutral reply, or the agent's
//! blocking one) and a counter.

mod answer;
mod decide;
#[cfg(test)]
mod tests;
mod understand;

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use arc_swap::ArcSwap;
use hookgate_adapters::{Decision, FailMode};
use hookgate_wire::{Reply, Request};

use crate::budget::{Payload, Reservation};
use crate::ids::EventIds;
use crate::metrics::Metrics;
use crate::otel::Telemetry;
use crate::subscribers::Registry;

/// The per-event logic, shared by every connection.
#[derive(Debug)]
pub(crate) struct Pipeline {
    /// The subscribers in effect, swapped whole by a config reload; each
    /// event loads it once, so it finishes on the registry it began with.
    registry: Arc<ArcSwap<Registry>>,
    metrics: Arc<Metrics>,
    ids: EventIds,
    /// `[server] on_unparsed`: `Closed` blocks every payload that cannot be
    /// understood; `Open` leaves it to each hook call's fail mode.
    on_unparsed: FailMode,
    /// Trace export (`[otel]`); off by default.
    telemetry: Telemetry,
}

impl Pipeline {
    pub(crate) fn new(
        registry: Registry,
        metrics: Arc<Metrics>,
        on_unparsed: FailMode,
    ) -> Pipeline {
        Pipeline {
            registry: Arc::new(ArcSwap::from_pointee(registry)),
            metrics,
            ids: EventIds::default(),
            on_unparsed,
            telemetry: Telemetry::off(),
        }
    }

    /// Exports a span per event through `telemetry`.
    pub(crate) fn with_telemetry(mut self, telemetry: Telemetry) -> Pipeline {
        self.telemetry = telemetry;
        self
    }

    /// The registry in effect, shared with whoever reloads the config.
    pub(crate) fn registry(&self) -> Arc<ArcSwap<Registry>> {
        Arc::clone(&self.registry)
    }

    /// The reply for one shim request, whose bytes `reservation` holds in
    /// the memory budget (until everything derived from it is done).
    pub(crate) async fn handle(&self, request: Request, reservation: Option<Reservation>) -> Reply {
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
        let event = match understand::understand(&request) {
            Ok(event) => Arc::new(event),
            Err(unparsed) => {
                let reply = self.unparsed(&registry, id, request, reservation, unparsed, started);
                return (reply, None);
            }
        };
        self.metrics.event(event.dialect.agent(), event.kind);
        let span = self
            .telemetry
            .event(&event, &id, SystemTime::now() - started.elapsed());
        let payload = Arc::new(Payload::new(request.stdin, reservation));
        let decided = self.decide(&registry, &event, &id, &payload, &span).await;
        let (reply, decision) = self.answer(&registry, &event, id, payload, decided, span, started);
        (reply, Some(decision))
    }
}
