//! One event, explained: the path every request takes (`Pipeline::run`),
//! keeping what it found (the canonical event, each decider's verdict and
//! latency, the merged decision, the losses, the reply) for `gateway eval`
//! and `gateway replay`, which run the pipeline in-process, and for the
//! admin API's `Eval` (`gateway eval --socket`), which runs it in the live
//! gateway. One path, so what eval shows is what the gateway does.

use std::sync::Arc;

use hookgate_adapters::{self as adapters, Decision, HookEvent, Loss};
use hookgate_wire::Reply;

use super::Pipeline;
use crate::budget::Reservation;
use crate::builtin::audit::SubscriberOutcome;
use crate::hook_call::HookCall;

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
    /// Runs `request` as the gateway would; the verdicts are kept when the
    /// pipeline is [`Pipeline::explaining`].
    pub(crate) async fn explain(&self, call: impl Into<HookCall>) -> Explained {
        self.explain_reserved(call, None).await
    }

    /// Runs `request` as the gateway would, keeping every verdict, whose
    /// bytes `reservation` holds in the memory budget: a live gateway's
    /// answer to an admin `Eval` call (audited like any call, its record
    /// `unconfirmed`: no agent receives the reply).
    pub(crate) async fn explain_reserved(
        &self,
        call: impl Into<HookCall>,
        reservation: Option<Reservation>,
    ) -> Explained {
        let ran = self
            .run(
                call.into(),
                reservation,
                true,
                &crate::hold::HoldLine::none(),
            )
            .await;
        let decision = ran.decision.unwrap_or_default();
        let losses = match &ran.event {
            Some(event) => adapters::render(event, &decision).losses,
            None => Vec::new(),
        };
        Explained {
            event: ran.event,
            subscribers: ran.subscribers,
            decision,
            losses,
            reply: ran.answer.reply,
        }
    }
}
