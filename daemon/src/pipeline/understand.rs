//! Step one: what the payload is. The dialect is detected (the shim's
//! arguments, the payload's keys, the agent's variable names) and the
//! payload parsed into the canonical event; a payload that cannot be
//! understood is answered here, with the hook call's fail mode.

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use crate::hook_call::HookCall;
use hookgate_adapters::{
    self as adapters, Agent, Decision, Detected, Dialect, FailMode, HookEvent,
};

use super::answer::Logged;
use super::{Answer, CallTerms, Pipeline};
use crate::budget::{Payload, Reservation};
use crate::builtin::audit::{AuditRecord, Verdicts};
use crate::delivery::Delivery;
use crate::metrics::Unparsed;
use crate::subscribers::Registry;
use crate::warnings::{self, Warning};

/// Shown to the user and the model when a payload that could not be
/// understood is blocked.
pub(super) const UNPARSED_MESSAGE: &str = "hookgate blocked this: the gateway could not understand this hook payload, \
     so no policy could check it (fail-closed); `gateway status` counts it under `unparsed`";

/// Why a payload was not understood, and what is known about it anyway.
#[derive(Debug)]
pub(super) struct NotUnderstood {
    /// The agent the shim named, if any.
    hint: Option<Agent>,
    /// The dialect, when detection got that far (for the right reply).
    detected: Option<Detected>,
    reason: Unparsed,
    /// For logs: names fields, never payload content.
    error: String,
}

/// Step one of an event: detect the dialect and parse the payload.
pub(super) fn understand(call: &HookCall) -> Result<HookEvent, NotUnderstood> {
    // The caller's agent (`gateway-shim cursor`, `/hook/cursor`) is a
    // hint, and its event the event of payloads that name none
    // (`gateway-shim copilot preToolUse`).
    let hint = call.hint;
    let env_names: Vec<&str> = call.env_names.iter().map(String::as_str).collect();
    let detected =
        adapters::detect_with_event(&call.payload, hint, call.event.as_deref(), &env_names)
            .map_err(|err| NotUnderstood {
                hint,
                detected: None,
                reason: Unparsed::of_detect(&err),
                error: err.to_string(),
            })?;
    let mut event =
        adapters::parse_detected(&detected, &call.payload).map_err(|err| NotUnderstood {
            // The dialect is known: its agent's payload did not parse.
            hint: Some(detected.dialect.agent()),
            reason: Unparsed::of_parse(&err),
            error: err.to_string(),
            detected: Some(detected),
        })?;
    // A payload without a working directory (Cline's, Copilot's camelCase
    // ones) ran in the hook's: the agent starts its hooks there, and the
    // guard resolves relative paths against it.
    if event.cwd.is_none() {
        event.cwd.clone_from(&call.cwd);
    }
    Ok(event)
}

impl Pipeline {
    /// The reply for a payload that could not be understood: the hook
    /// call's fail mode decides, not chance. Fail-open gets the agent's
    /// neutral reply; fail-closed (the shim's mode, or `on_unparsed =
    /// "closed"`) gets its blocking reply for that event, since a payload
    /// nobody can read is one nobody can guard.
    pub(super) fn unparsed(
        &self,
        registry: &Arc<Registry>,
        (id, terms): (String, CallTerms),
        payload: Vec<u8>,
        reservation: Option<Reservation>,
        unparsed: NotUnderstood,
        started: Instant,
    ) -> Answer {
        let mode = match (self.on_unparsed, terms.fail_mode) {
            (FailMode::Closed, _) | (_, FailMode::Closed) => FailMode::Closed,
            _ => FailMode::Open,
        };
        match unparsed.hint {
            Some(agent) => self.metrics.parse_error(agent),
            None => self.metrics.detect_error(),
        }
        self.metrics.unparsed(unparsed.reason, mode);
        let began = SystemTime::now() - started.elapsed();
        self.telemetry
            .unparsed(unparsed.reason.as_str(), mode, began);
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
        let log = Logged::new(registry, self.feed.as_ref(), None, || AuditRecord {
            id,
            at: SystemTime::now(),
            event: None,
            payload: Arc::new(Payload::new(payload, reservation)),
            decision: Decision::default(),
            verdicts: Verdicts::default(),
            error: Some(unparsed.error.clone()),
            latency: started.elapsed(),
            delivery: Delivery::Unconfirmed,
            fail_mode: terms.fail_mode,
            deadline_left: terms.had,
        });
        self.metrics.latency(started.elapsed());
        Answer {
            reply,
            log,
            terms,
            ready: Instant::now(),
        }
    }
}
