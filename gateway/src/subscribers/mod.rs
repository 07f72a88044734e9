//! The configured subscribers, ready for the hook path: decide subscribers
//! (remote and built-in guard) awaited in parallel, observe subscribers and
//! the audit log fed through bounded queues.

pub(crate) mod balance;
pub(crate) mod breaker;
pub(crate) mod dial;
pub(crate) mod health;
pub(crate) mod observe;
mod registry;
pub(crate) mod remote;
pub(crate) mod shadow;
pub(crate) mod tls;
pub(crate) mod token;
pub(crate) mod unary;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use hookgate_adapters::{Decision, HookEvent, Permission};

use crate::builtin::guard::Guard;
use crate::config::OnError;
use crate::convert::{self, ProtoEvent};
use crate::filter::Filter;
use crate::metrics::{ErrorKind, SubscriberStats};
use crate::otel::CallOutcome;
use crate::warnings::{self, Warning};
use remote::{Failure, Remote};

pub(crate) use registry::{Builder, Registry};

/// A subscriber the hook path waits for.
#[derive(Debug)]
pub(crate) struct Decider {
    pub name: String,
    pub priority: i32,
    pub filter: Filter,
    pub kind: DeciderKind,
    /// A shadow (`mode = "shadow"`): its decision is only counted.
    pub shadow: bool,
}

/// Who answers for a [`Decider`].
#[derive(Debug)]
pub(crate) enum DeciderKind {
    /// Boxed: a tonic client is large, and deciders live in one `Vec`.
    Remote(Box<Remote>),
    /// The built-in guard and its counters (a remote keeps its own).
    Guard(Guard, Arc<SubscriberStats>),
}

impl Decider {
    /// This subscriber's counters.
    pub(crate) fn stats(&self) -> &Arc<SubscriberStats> {
        match &self.kind {
            DeciderKind::Remote(remote) => remote.stats(),
            DeciderKind::Guard(_, stats) => stats,
        }
    }

    /// This subscriber's decision on `event` (`proto` is the same event as
    /// sent over gRPC, encoded once, when a remote subscriber first asks).
    /// Never fails: failures become the on_error decision.
    pub(crate) async fn decide(&self, event: &HookEvent, proto: Arc<ProtoEvent>) -> Decision {
        self.decide_traced(event, proto).await.0
    }

    /// [`Decider::decide`], also saying whether the call answered or
    /// failed (for its trace span).
    pub(crate) async fn decide_traced(
        &self,
        event: &HookEvent,
        proto: Arc<ProtoEvent>,
    ) -> (Decision, CallOutcome) {
        match &self.kind {
            DeciderKind::Remote(remote) => {
                remote.stats().calls.fetch_add(1, Ordering::Relaxed);
                let reply = remote.call(proto.encoded()).await;
                match reply.map(convert::decision_from_proto) {
                    Ok(converted) => {
                        let stats = remote.stats();
                        for bad in &converted.dropped {
                            // Each unusable part is one bad-reply error.
                            stats.error(ErrorKind::BadReply);
                            tracing::warn!(subscriber = %remote.name(), error = %bad, "subscriber reply part dropped; the rest of its decision stands");
                        }
                        stats.answered(converted.decision.permission);
                        (converted.decision, CallOutcome::Answered)
                    }
                    Err(failure) => (
                        on_failure(remote, &failure, self.shadow),
                        CallOutcome::Failed(failure.class()),
                    ),
                }
            }
            DeciderKind::Guard(guard, stats) => {
                stats.calls.fetch_add(1, Ordering::Relaxed);
                let started = std::time::Instant::now();
                let decision = guard.decide(event);
                stats.call_took(started.elapsed());
                stats.answered(decision.permission);
                (decision, CallOutcome::Answered)
            }
        }
    }
}

/// The decision a remote's `on_error` gives for `failure`: no opinion
/// (allow) or a deny naming the subscriber (deny).
/// A shadow's failures say so: nothing is denied for real.
fn on_failure(remote: &Remote, failure: &Failure, shadow: bool) -> Decision {
    let stats = remote.stats();
    let name = remote.name();
    let class = match failure.detail() {
        Some(detail) => format!("{}: {detail}", failure.class()),
        None => failure.class().to_owned(),
    };
    // The full error (which may quote the payload) at debug only.
    tracing::debug!(subscriber = %name, error = %failure, "subscriber failed");
    let shadow = if shadow {
        "shadow, not merged: would be "
    } else {
        ""
    };
    match remote.on_error() {
        OnError::Allow => {
            stats.fail_open.fetch_add(1, Ordering::Relaxed);
            warnings::warn(
                Warning::Subscriber,
                format_args!(
                    "subscriber `{name}` failed ({class}); {shadow}no opinion (on_error = allow)"
                ),
            );
            Decision::default()
        }
        OnError::Deny => {
            stats.fail_closed.fetch_add(1, Ordering::Relaxed);
            warnings::warn(
                Warning::Subscriber,
                format_args!(
                    "subscriber `{name}` failed ({class}); {shadow}denying (on_error = deny)"
                ),
            );
            // The agent gets the kind of failure only; the details are in
            // the gateway's log.
            let reason = format!(
                "hookgate: subscriber `{name}` failed ({}); blocked by its on_error = \"deny\" policy",
                failure.class()
            );
            Decision {
                permission: Permission::Deny,
                agent_message: Some(reason.clone()),
                reason: Some(reason),
                ..Decision::default()
            }
        }
    }
}
