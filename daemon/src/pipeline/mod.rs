//! One hook event, from the shim's request to the agent's reply, in three
//! steps, a module each: `understand` (detect the dialect, parse the
//! payload; what cannot be understood gets the hook call's fail mode),
//! `decide` (offer it to observers and shadows, ask the matching deciders
//! in parallel, merge, and check a rewritten tool input again: `recheck`)
//! and `answer` (cap a session's follow-ups in a row: `followups`; render
//! the agent's reply, count what it could not express, audit, bound the
//! reply's size).
//!
//! Everything here is bounded by the subscribers' deadlines; nothing blocks
//! on observe subscribers or the audit log. A payload that cannot be
//! understood gets the hook call's fail mode (neutral reply, or the agent's
//! blocking one) and a counter.

mod answer;
mod decide;
mod explain;
mod followups;
mod recheck;
#[cfg(test)]
mod tests;
mod understand;

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use arc_swap::ArcSwap;
use hookgate_adapters::{Decision, FailMode};
use hookgate_wire::Reply;

pub(crate) use crate::call_terms::CallTerms;
pub(crate) use answer::Logged;
pub(crate) use explain::Explained;

use crate::budget::{Payload, Reservation};
use crate::builtin::audit::SubscriberOutcome;
use crate::hold::HoldLine;
use crate::hook_call::HookCall;
use crate::ids::EventIds;
use crate::metrics::Metrics;
use crate::otel::Telemetry;
use crate::subscribers::Registry;
use hookgate_config::DEFAULT_MAX_FOLLOWUPS;

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
    /// Follow-ups in a row per session, and the cap on them.
    followups: followups::FollowupCap,
    /// Keep every decider's verdict for the caller (`explain`).
    explaining: bool,
    /// The console's live feed (`[ui]`); off by default.
    feed: Option<Arc<crate::feed::Feed>>,
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
            followups: followups::FollowupCap::new(DEFAULT_MAX_FOLLOWUPS),
            explaining: false,
            feed: None,
        }
    }

    /// Keeps what each event went through for [`Pipeline::explain`].
    pub(crate) fn explaining(mut self) -> Pipeline {
        self.explaining = true;
        self
    }

    /// Drops a session's follow-up once `max` came in a row
    /// (`[server] max_followups`).
    pub(crate) fn with_max_followups(mut self, max: u32) -> Pipeline {
        self.followups = followups::FollowupCap::new(max);
        self
    }

    /// Exports a span per event through `telemetry`.
    pub(crate) fn with_telemetry(mut self, telemetry: Telemetry) -> Pipeline {
        self.telemetry = telemetry;
        self
    }

    /// Gives every event's record to the console's `feed`.
    pub(crate) fn with_feed(mut self, feed: Option<Arc<crate::feed::Feed>>) -> Pipeline {
        self.feed = feed;
        self
    }

    /// The registry in effect, shared with whoever reloads the config.
    pub(crate) fn registry(&self) -> Arc<ArcSwap<Registry>> {
        Arc::clone(&self.registry)
    }

    /// The reply for one request whose fate nobody learns (an HTTP hook's:
    /// its audit record says `unconfirmed`), whose bytes `reservation`
    /// holds in the memory budget (until everything derived from it is
    /// done).
    pub(crate) async fn handle(
        &self,
        call: impl Into<HookCall>,
        reservation: Option<Reservation>,
    ) -> Reply {
        self.evaluate(call, reservation).await.0
    }

    /// [`Pipeline::handle`], also giving the merged decision (`None` when
    /// the payload was not understood), so tests assert on the decision
    /// and leave the agent's reply format to `adapters`.
    pub(crate) async fn evaluate(
        &self,
        call: impl Into<HookCall>,
        reservation: Option<Reservation>,
    ) -> (Reply, Option<Decision>) {
        let ran = self
            .run(call.into(), reservation, false, &HoldLine::none())
            .await;
        (ran.answer.reply, ran.decision)
    }

    /// The answer to a shim's request: the reply, and its audit record
    /// waiting for the server to say what became of it. `hold` is the
    /// shim's line for hold frames (`crate::hold`).
    pub(crate) async fn answer_call(
        &self,
        call: HookCall,
        reservation: Option<Reservation>,
        hold: &HoldLine,
    ) -> Answer {
        self.run(call, reservation, false, hold).await.answer
    }

    /// The one path every request takes, whoever asks (a shim, an HTTP
    /// hook, `gateway eval`); each decider's verdict is kept when the
    /// pipeline is [`Pipeline::explaining`] or the caller asks (`keep`);
    /// `hold` is the shim's line for hold frames, if it takes them.
    async fn run(
        &self,
        call: HookCall,
        reservation: Option<Reservation>,
        keep: bool,
        hold: &HoldLine,
    ) -> Ran {
        let started = Instant::now();
        let id = self.ids.next_id();
        let registry = self.registry.load_full();
        let terms = call.terms;
        let event = match understand::understand(&call) {
            Ok(event) => Arc::new(event),
            Err(unparsed) => {
                let answer = self.unparsed(
                    &registry,
                    (id, terms),
                    call.payload,
                    reservation,
                    unparsed,
                    started,
                );
                return Ran {
                    answer,
                    event: None,
                    decision: None,
                    subscribers: Vec::new(),
                };
            }
        };
        if !is_probe(&event) {
            self.metrics.event(event.dialect.agent(), event.kind);
        }
        let span = self
            .telemetry
            .event(&event, &id, SystemTime::now() - started.elapsed());
        let payload = Arc::new(Payload::new(call.payload, reservation));
        let decided = self
            .decide(
                &registry,
                &event,
                &id,
                &payload,
                &span,
                (started, terms.fan_out_deadline()),
                hold,
            )
            .await;
        let subscribers = if self.explaining || keep {
            decided.verdicts.subscribers.clone()
        } else {
            Vec::new()
        };
        let (answer, decision) = self.answer(
            &registry,
            &event,
            (id, terms),
            payload,
            decided,
            span,
            started,
        );
        Ran {
            answer,
            event: Some(event),
            decision: Some(decision),
            subscribers,
        }
    }
}

/// What one request went through.
struct Ran {
    answer: Answer,
    /// `None` when the payload was not understood.
    event: Option<Arc<hookgate_adapters::HookEvent>>,
    decision: Option<Decision>,
    /// Each decider's verdict, kept only when [`Pipeline::explaining`] or
    /// asked for.
    subscribers: Vec<SubscriberOutcome>,
}

/// The reply to one hook call, and its audit record, which waits to learn
/// what became of the reply (`Logged::finish`; dropped, it is logged as
/// `unconfirmed`).
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) reply: Reply,
    pub(crate) log: Logged,
    /// What the shim said of its fail mode and deadline.
    pub(crate) terms: CallTerms,
    /// When the reply was ready.
    pub(crate) ready: Instant,
}

/// A `gateway doctor` probe or a `gateway eval --socket` call (their
/// sessions): counted apart from traffic.
fn is_probe(event: &hookgate_adapters::HookEvent) -> bool {
    event
        .session_id
        .as_deref()
        .is_some_and(hookgate_adapters::is_probe_session)
}
