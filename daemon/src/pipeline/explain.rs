//! One event, explained: the same three steps, keeping what each found
//! (the canonical event, each decider's verdict and latency, the merged
//! decision, the losses, the reply) for `gateway eval` and `gateway
//! replay`, which run the pipeline in-process.

use std::sync::Arc;
use std::time::Instant;

use hookgate_adapters::{self as adapters, Decision, HookEvent, Loss};
use hookgate_wire::{Reply, Request};

use super::{CallTerms, Pipeline, understand};
use crate::budget::Payload;
use crate::builtin::audit::SubscriberOutcome;
use crate::otel::EventSpan;

/// What one event went through.
#[derive(Debug)]
pub(crate) struct Explained {
    /// `None` when the payload was not understood (the reply is then the
    /// fail mode's).
    pub(crate) event: Option<Arc<HookEvent>>,
    pub(crate) subscribers: Vec<SubscriberOutcome>,
    pub(crate) decision: Decision,
    pub(crate) losses: Vec<Loss>,
    pub(crate) reply: Reply,
}

impl Pipeline {
    pub(crate) async fn explain(&self, request: Request) -> Explained {
        let started = Instant::now();
        let Ok(event) = understand::understand(&request) else {
            let (reply, _) = self.evaluate(request, None).await;
            return Explained {
                event: None,
                subscribers: Vec::new(),
                decision: Decision::default(),
                losses: Vec::new(),
                reply,
            };
        };
        let event = Arc::new(event);
        let registry = self.registry.load_full();
        let id = self.ids.next_id();
        let terms = CallTerms::of(&request);
        let payload = Arc::new(Payload::new(request.stdin, None));
        let span = EventSpan::default();
        let decided = self
            .decide(
                &registry,
                &event,
                &id,
                &payload,
                &span,
                started,
                terms.fan_out_deadline(),
                true,
            )
            .await;
        let subscribers = decided.verdicts.subscribers.clone();
        let (answer, decision) = self.answer(
            &registry,
            &event,
            (id, terms),
            payload,
            decided,
            span,
            started,
        );
        let reply = answer.reply;
        let losses = adapters::render(&event, &decision).losses;
        Explained {
            event: Some(event),
            subscribers,
            decision,
            losses,
            reply,
        }
    }
}
