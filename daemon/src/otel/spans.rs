//! The spans of one hook event: the event's own (its parent the agent's
//! `traceparent`, when it sent a valid one) and one child per decide
//! subscriber call, with what each decided.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use hookgate_adapters::{Decision, FailMode, HookEvent, Permission, TraceContext};
use opentelemetry::propagation::TextMapPropagator as _;
use opentelemetry::trace::{Span as _, SpanKind, Status, TraceContextExt as _, Tracer as _};
use opentelemetry::{Context, KeyValue};
use opentelemetry_sdk::propagation::TraceContextPropagator;

use super::{Telemetry, Tracing};
use crate::budget::Payload;
use crate::metrics::Outcome;

/// Masked payloads on spans are cut to this many bytes.
const MAX_PAYLOAD_ATTRIBUTE: usize = 16 << 10;

/// How a subscriber call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CallOutcome {
    /// It answered (its decision may be no opinion).
    Answered,
    /// It failed (why, in words); its `on_error` decided.
    Failed(&'static str),
}

/// The span of one event in flight; no-op when export is off or the event
/// is not sampled.
#[derive(Debug, Default)]
pub(crate) struct EventSpan {
    inner: Option<(Arc<Tracing>, Context)>,
    /// Agent, event kind and tool class, repeated on each child span so a
    /// backend can filter subscriber calls without joining on the parent.
    common: Vec<KeyValue>,
}

impl Telemetry {
    /// Starts the span of `event`, begun at `started`.
    pub(crate) fn event(&self, event: &HookEvent, id: &str, started: SystemTime) -> EventSpan {
        let Some(tracing) = &self.tracing else {
            return EventSpan::default();
        };
        let parent = parent(event.trace.as_ref());
        let mut common = vec![
            KeyValue::new("hookgate.agent", event.dialect.agent().as_str()),
            KeyValue::new("hookgate.event.kind", event.kind.as_str()),
        ];
        if let Some(tool) = &event.tool {
            common.push(KeyValue::new("hookgate.tool.class", tool.class.as_str()));
        }
        let mut attributes = common.clone();
        attributes.extend([
            KeyValue::new("hookgate.event.id", id.to_owned()),
            KeyValue::new("hookgate.event.native", event.native_event.clone()),
            KeyValue::new("hookgate.event.blocking", event.blocking),
        ]);
        if let Some(tool) = &event.tool {
            attributes.push(KeyValue::new("hookgate.tool.name", tool.name.clone()));
        }
        let span = tracing
            .tracer
            .span_builder(format!("hook {}", event.kind.as_str()))
            .with_kind(SpanKind::Server)
            .with_start_time(started)
            .with_attributes(attributes)
            .start_with_context(&tracing.tracer, &parent);
        let cx = parent.with_span(span);
        if !cx.span().is_recording() {
            return EventSpan::default();
        }
        EventSpan {
            inner: Some((Arc::clone(tracing), cx)),
            common,
        }
    }

    /// One span for a payload that was not understood, and how it was
    /// answered.
    pub(crate) fn unparsed(&self, reason: &'static str, mode: FailMode, started: SystemTime) {
        let Some(tracing) = &self.tracing else { return };
        let mut span = tracing
            .tracer
            .span_builder("hook unparsed")
            .with_kind(SpanKind::Server)
            .with_start_time(started)
            .with_attributes([
                KeyValue::new("hookgate.unparsed", reason),
                KeyValue::new(
                    "hookgate.outcome",
                    if mode == FailMode::Closed {
                        "blocked"
                    } else {
                        "neutral"
                    },
                ),
            ])
            .start(&tracing.tracer);
        span.set_status(Status::error("payload not understood"));
        span.end();
    }
}

impl EventSpan {
    /// A child span for one subscriber call that began at `started` and
    /// took `took`.
    pub(crate) fn subscriber(
        &self,
        name: &str,
        started: SystemTime,
        took: Duration,
        decision: &Decision,
        outcome: CallOutcome,
    ) {
        let Some((tracing, cx)) = &self.inner else {
            return;
        };
        let mut attributes = self.common.clone();
        attributes.extend([
            KeyValue::new("hookgate.subscriber", name.to_owned()),
            KeyValue::new("hookgate.subscriber.decision", permission(decision)),
        ]);
        let status = match outcome {
            CallOutcome::Answered => {
                attributes.push(KeyValue::new("hookgate.subscriber.outcome", "answered"));
                Status::Ok
            }
            CallOutcome::Failed(why) => {
                attributes.push(KeyValue::new("hookgate.subscriber.outcome", "error"));
                attributes.push(KeyValue::new("hookgate.subscriber.error", why));
                Status::error(why)
            }
        };
        let mut span = tracing
            .tracer
            .span_builder(format!("subscriber {name}"))
            .with_kind(SpanKind::Client)
            .with_start_time(started)
            .with_attributes(attributes)
            .start_with_context(&tracing.tracer, cx);
        span.set_status(status);
        span.end_with_timestamp(started + took);
    }

    /// Ends the event's span with its merged outcome. With `payloads = true`
    /// the payload is masked and attached first, on a task of its own, so
    /// the masking never delays the reply.
    pub(crate) fn finish(self, outcome: Outcome, losses: usize, payload: Option<&Arc<Payload>>) {
        let Some((tracing, cx)) = self.inner else {
            return;
        };
        let span = cx.span();
        span.set_attribute(KeyValue::new("hookgate.outcome", outcome.as_str()));
        span.set_attribute(KeyValue::new(
            "hookgate.losses",
            i64::try_from(losses).unwrap_or(i64::MAX),
        ));
        let ended = SystemTime::now();
        match payload.filter(|_| tracing.payloads) {
            Some(payload) => {
                let payload = Arc::clone(payload);
                tokio::spawn(async move {
                    let span = cx.span();
                    span.set_attribute(KeyValue::new("hookgate.payload", masked(&payload)));
                    span.end_with_timestamp(ended);
                });
            }
            None => span.end_with_timestamp(ended),
        }
    }
}

fn permission(decision: &Decision) -> &'static str {
    match decision.permission {
        Permission::Allow => "allow",
        Permission::Ask => "ask",
        Permission::Deny => "deny",
        Permission::Unspecified => "none",
    }
}

/// The payload as JSON with secrets masked, cut to a bounded size; a
/// payload that is not JSON is masked as text.
fn masked(payload: &[u8]) -> String {
    let mut text = match serde_json::from_slice::<serde_json::Value>(payload) {
        Ok(mut value) => {
            hookgate_mask::mask_json(&mut value);
            value.to_string()
        }
        Err(_) => hookgate_mask::mask_str(&String::from_utf8_lossy(payload)),
    };
    if text.len() > MAX_PAYLOAD_ATTRIBUTE {
        let mut cut = MAX_PAYLOAD_ATTRIBUTE;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// The parent context of an event's span: the agent's, if it sent a valid
/// W3C `traceparent` (the propagator checks it), else a new trace.
fn parent(trace: Option<&TraceContext>) -> Context {
    let Some(trace) = trace else {
        return Context::new();
    };
    let mut carrier = HashMap::with_capacity(2);
    carrier.insert("traceparent".to_owned(), trace.traceparent.clone());
    if let Some(state) = &trace.tracestate {
        carrier.insert("tracestate".to_owned(), state.clone());
    }
    TraceContextPropagator::new().extract(&carrier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_valid_traceparents_become_parents() {
        let valid = TraceContext {
            traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".into(),
            tracestate: Some("vendor=1".into()),
        };
        let cx = parent(Some(&valid));
        let sc = cx.span().span_context().clone();
        assert!(sc.is_valid() && sc.is_remote() && sc.is_sampled());
        assert_eq!(
            sc.trace_id().to_string(),
            "4bf92f3577b34da6a3ce929d0e0e4736"
        );
        for bad in [
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "zz-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "not a traceparent",
        ] {
            let trace = TraceContext {
                traceparent: bad.into(),
                tracestate: None,
            };
            assert!(
                !parent(Some(&trace)).span().span_context().is_valid(),
                "{bad}"
            );
        }
    }

    #[test]
    fn payloads_are_masked_and_bounded() {
        let payload = br#"{"tool_input":{"command":"export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}"#;
        let text = masked(payload);
        assert!(
            !text.contains("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            "{text}"
        );
        let big = format!("\"{}\"", "é".repeat(MAX_PAYLOAD_ATTRIBUTE));
        assert!(masked(big.as_bytes()).len() <= MAX_PAYLOAD_ATTRIBUTE);
    }
}
