//! The configured subscribers, ready for the hook path: decide subscribers
//! (remote ones and built-ins) awaited in parallel, observe subscribers fed
//! through bounded queues, recording built-ins (the audit log) told each
//! outcome.

pub(crate) mod observe;
mod registry;
pub(crate) mod remote;
pub(crate) mod shadow;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use hookgate_adapters::{Decision, Permission};

use crate::builtin::{Answer, Builtin, Call, Decided, Ruling};
use crate::convert::{self, ProtoEvent};
use crate::metrics::{ErrorKind, SubscriberStats};
use crate::otel::CallOutcome;
use hookgate_config::Filter;
use hookgate_config::OnError;
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
    /// A built-in and its counters (a remote keeps its own).
    Builtin(Arc<dyn Builtin>, Arc<SubscriberStats>),
}

impl Decider {
    /// This subscriber's counters.
    pub(crate) fn stats(&self) -> &Arc<SubscriberStats> {
        match &self.kind {
            DeciderKind::Remote(remote) => remote.stats(),
            DeciderKind::Builtin(_, stats) => stats,
        }
    }

    /// A built-in's decision on a tool input another subscriber rewrote
    /// (`call.event`); `None` for a remote (asked once per event), a shadow
    /// (never merged) and a built-in that does not judge rewrites.
    pub(crate) async fn recheck(&self, call: &Call<'_>) -> Option<Decision> {
        match &self.kind {
            DeciderKind::Builtin(builtin, stats) if !self.shadow => {
                let started = Instant::now();
                let answer = builtin.recheck(call)?;
                Some(counted(stats, started, answer).await.0.decision)
            }
            _ => None,
        }
    }

    /// This subscriber's decision on `call` (`proto` is the same event as
    /// sent over gRPC, encoded once, when a remote subscriber first asks).
    /// Never fails: failures become the on_error decision.
    pub(crate) async fn decide(&self, call: &Call<'_>, proto: Arc<ProtoEvent>) -> Decision {
        self.decide_traced(call, proto).await.0.decision
    }

    /// [`Decider::decide`], also saying which rule decided (for the
    /// decision log) and whether the call answered or failed (for its
    /// trace span).
    pub(crate) async fn decide_traced(
        &self,
        call: &Call<'_>,
        proto: Arc<ProtoEvent>,
    ) -> (Ruling, CallOutcome) {
        match &self.kind {
            DeciderKind::Remote(remote) => {
                remote.stats().calls.fetch_add(1, Ordering::Relaxed);
                // Cut at the shim's deadline when that comes first.
                let left = call
                    .deadline
                    .map(|d| d.saturating_duration_since(Instant::now()));
                let reply = remote.call(proto.encoded(), left).await;
                match reply.map(convert::decision_from_proto) {
                    Ok(converted) => {
                        let stats = remote.stats();
                        for bad in &converted.dropped {
                            // Each unusable part is one bad-reply error.
                            stats.error(ErrorKind::BadReply);
                            tracing::warn!(subscriber = %remote.name(), error = %bad, "subscriber reply part dropped; the rest of its decision stands");
                        }
                        stats.answered(converted.decision.permission);
                        (converted.decision.into(), CallOutcome::Answered)
                    }
                    Err(failure) => (
                        on_failure(remote, &failure, self.shadow).into(),
                        CallOutcome::Failed(failure.class()),
                    ),
                }
            }
            DeciderKind::Builtin(builtin, stats) => {
                let started = Instant::now();
                counted(stats, started, builtin.decide(call)).await
            }
        }
    }
}

/// A built-in's answer, asked for at `started`, counted in its stats: one
/// place for the first call and the recheck of a rewritten input (its time
/// includes what the built-in did before answering, an answer given at
/// once too). A built-in that failed stands by the decision it gave
/// instead, counted as its fail-open or fail-closed answer.
async fn counted(
    stats: &SubscriberStats,
    started: Instant,
    answer: Answer<'_>,
) -> (Ruling, CallOutcome) {
    stats.calls.fetch_add(1, Ordering::Relaxed);
    let decided: Decided = answer.resolve().await;
    stats.call_took(started.elapsed());
    match decided {
        Ok(ruling) => {
            stats.answered(ruling.decision.permission);
            (ruling, CallOutcome::Answered)
        }
        Err(failed) => {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            let fell_back = match failed.instead.permission {
                Permission::Deny => &stats.fail_closed,
                _ => &stats.fail_open,
            };
            fell_back.fetch_add(1, Ordering::Relaxed);
            (failed.instead.into(), CallOutcome::Failed(failed.class))
        }
    }
}

/// The decision a remote's `on_error` gives for `failure`, counted.
fn on_failure(remote: &Remote, failure: &Failure, shadow: bool) -> Decision {
    let stats = remote.stats();
    let logged = match failure.detail() {
        Some(detail) => format!("{}: {detail}", failure.class()),
        None => failure.class().to_owned(),
    };
    // The full error (which may quote the payload) at debug only.
    tracing::debug!(subscriber = %remote.name(), error = %failure, "subscriber failed");
    let counter = match remote.on_error() {
        OnError::Allow => &stats.fail_open,
        OnError::Deny => &stats.fail_closed,
    };
    counter.fetch_add(1, Ordering::Relaxed);
    crate::builtin::on_error::decision(
        remote.name(),
        remote.on_error(),
        &logged,
        failure.class(),
        shadow,
    )
}
