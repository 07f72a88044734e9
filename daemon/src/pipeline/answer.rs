//! Step three: the agent's reply. The merged decision is rendered in the
//! agent's dialect; what it cannot express is counted as a loss; the
//! audit log gets the event; a reply larger than the shim takes blocks,
//! saying why, instead of being refused by the shim.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use hookgate_adapters::{self as adapters, Decision, FailMode, HookEvent};
use hookgate_wire::{MAX_REPLY_BODY, Reply, ReplyFrame as _};

use super::decide::Decided;
use super::{Answer, CallTerms, Pipeline};
use crate::budget::Payload;
use crate::builtin::audit::AuditRecord;
use crate::delivery::Delivery;
use crate::feed::Feed;
use crate::metrics::Outcome;
use crate::otel::EventSpan;
use crate::subscribers::Registry;
use crate::warnings::{self, Warning};

/// Shown when the merged reply is too large for the shim to take.
const OVERSIZE_MESSAGE: &str =
    "hookgate blocked this: the subscribers' reply is larger than an agent reply may be";

impl Pipeline {
    #[expect(
        clippy::too_many_arguments,
        reason = "the event's parts the earlier steps produced, each used once"
    )]
    pub(super) fn answer(
        &self,
        registry: &Arc<Registry>,
        event: &Arc<HookEvent>,
        (id, terms): (String, CallTerms),
        payload: Arc<Payload>,
        mut decided: Decided,
        span: EventSpan,
        started: Instant,
    ) -> (Answer, Decision) {
        let capped = self.followups.apply(event, &mut decided.merged.decision);
        if capped {
            self.metrics.followup_capped(event.dialect.agent());
            warnings::warn(
                Warning::Followup,
                format_args!(
                    "a {} session had its follow-ups in a row capped ([server] max_followups); the follow-up was left out and the agent stops",
                    event.dialect.agent()
                ),
            );
        }
        let rendered = adapters::render(event, &decided.merged.decision);
        for loss in &rendered.losses {
            self.metrics.loss(event.dialect.agent(), *loss);
        }
        tracing::debug!(
            id,
            agent = %event.dialect.agent(),
            kind = event.kind.as_str(),
            deciders = decided.deciders,
            permission = ?decided.merged.decision.permission,
            losses = ?rendered.losses,
            "event decided"
        );
        let outcome = Outcome::of(&decided.merged.decision);
        let mut verdicts = decided.verdicts;
        verdicts.losses = rendered.losses.clone();
        verdicts.followup_capped = capped;
        span.finish(outcome, rendered.losses.len(), Some(&payload));
        let log = Logged::new(registry, self.feed.as_ref(), Some(event), || AuditRecord {
            id,
            at: SystemTime::now(),
            event: Some(Arc::clone(event)),
            payload,
            decision: decided.merged.decision.clone(),
            verdicts,
            error: None,
            latency: started.elapsed(),
            delivery: Delivery::Unconfirmed,
            fail_mode: terms.fail_mode,
            deadline_left: terms.had,
        });
        if super::is_probe(event) {
            self.metrics.probe(event.dialect.agent(), outcome);
        } else {
            self.metrics.replied(
                event.dialect.agent(),
                event.kind,
                outcome,
                started.elapsed(),
            );
        }
        let reply = rendered.reply;
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
            adapters::fallback(
                Some(event.dialect),
                native,
                FailMode::Closed,
                OVERSIZE_MESSAGE,
            )
        };
        let mut log = log;
        log.reply_sent(&reply);
        let answer = Answer {
            reply,
            log,
            terms,
            ready: Instant::now(),
        };
        (answer, decided.merged.decision)
    }
}

/// An event's audit record, held until what became of the reply is known
/// (`crate::delivery`), then given to the registry's recorders. With no
/// recorder for the event nothing is built, so an event nobody records
/// copies no decision. Dropped unfinished (an HTTP hook, whose fate nobody
/// learns), the record is logged as it stands: `unconfirmed`.
/// The console's feed (`crate::console`), when it is on, gets a copy.
#[derive(Debug, Default)]
pub(crate) struct Logged {
    registry: Option<Arc<Registry>>,
    feed: Option<Arc<Feed>>,
    /// The reply sent, for the feed only (the decision log keeps none).
    reply: Option<Reply>,
    record: Option<AuditRecord>,
}

impl Logged {
    pub(super) fn new(
        registry: &Arc<Registry>,
        feed: Option<&Arc<Feed>>,
        event: Option<&HookEvent>,
        build: impl FnOnce() -> AuditRecord,
    ) -> Logged {
        let record = (feed.is_some() || registry.records(event)).then(build);
        Logged {
            registry: record.as_ref().map(|_| Arc::clone(registry)),
            feed: feed.cloned(),
            reply: None,
            record,
        }
    }

    /// Keeps a copy of the reply for the console's feed, when it is on.
    pub(super) fn reply_sent(&mut self, reply: &Reply) {
        if self.feed.is_some() {
            self.reply = Some(reply.clone());
        }
    }

    /// Logs the record, saying what became of the reply.
    pub(crate) fn finish(mut self, delivery: Delivery) {
        if let Some(record) = &mut self.record {
            record.delivery = delivery;
        }
    }
}

impl Drop for Logged {
    fn drop(&mut self) {
        let (Some(registry), Some(record)) = (self.registry.take(), self.record.take()) else {
            return;
        };
        if let Some(feed) = self.feed.take() {
            feed.push(record.clone(), self.reply.take());
        }
        let event = record.event.clone();
        registry.record(event.as_deref(), || record);
    }
}
