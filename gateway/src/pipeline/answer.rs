//! Step three: the agent's reply. The merged decision is rendered in the
//! agent's dialect; what it cannot express is counted as a loss; the
//! audit log gets the event; a reply larger than the shim takes blocks,
//! saying why, instead of being refused by the shim.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use hookgate_adapters::{self as adapters, Decision, FailMode, HookEvent};
use hookgate_wire::{MAX_REPLY_BODY, Reply};

use super::Pipeline;
use super::decide::Decided;
use crate::budget::Payload;
use crate::builtin::audit::{Audit, AuditRecord, Verdicts};
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
        registry: &Registry,
        event: &Arc<HookEvent>,
        id: String,
        payload: Arc<Payload>,
        decided: Decided,
        span: EventSpan,
        started: Instant,
    ) -> (Reply, Decision) {
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
        span.finish(outcome, rendered.losses.len(), Some(&payload));
        self.audit(
            registry,
            event,
            id,
            payload,
            (&decided.merged.decision, verdicts),
            started,
        );
        self.metrics.replied(
            event.dialect.agent(),
            event.kind,
            outcome,
            started.elapsed(),
        );
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
        (reply, decided.merged.decision)
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
        record_to(registry.audits_for(Some(event)), || AuditRecord {
            id,
            at: SystemTime::now(),
            event: Some(Arc::clone(event)),
            payload,
            decision: decision.clone(),
            verdicts,
            error: None,
            latency: started.elapsed(),
        });
    }
}

/// Gives each audit the record `build` makes (the last one takes it, the
/// others a copy); with no audit nothing is built, so an event nobody
/// audits copies no decision.
pub(super) fn record_to<'a>(
    audits: impl Iterator<Item = &'a Arc<Audit>>,
    build: impl FnOnce() -> AuditRecord,
) {
    let mut audits = audits.peekable();
    if audits.peek().is_none() {
        return;
    }
    let record = build();
    while let Some(audit) = audits.next() {
        if audits.peek().is_some() {
            audit.record(record.clone());
        } else {
            audit.record(record);
            return;
        }
    }
}

/// The adapters' reply as a wire frame's.
pub(super) fn wire_reply(reply: adapters::Reply) -> Reply {
    Reply {
        exit_code: reply.exit_code,
        stdout: reply.stdout,
        stderr: reply.stderr,
    }
}
