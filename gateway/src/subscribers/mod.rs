//! The configured subscribers, ready for the hook path: decide subscribers
//! (remote and built-in guard) awaited in parallel, observe subscribers and
//! the audit log fed through bounded queues.

pub mod filter;
pub mod health;
pub mod observe;
pub mod remote;
pub mod unary;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use anyhow::Context as _;
use hookgate_adapters::{Decision, HookEvent, Permission};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::builtin::audit::Audit;
use crate::builtin::guard::Guard;
use crate::config::{Mode, OnError, SubscriberConfig, SubscriberKind};
use crate::convert::{self, ProtoEvent};
use crate::metrics::{ErrorKind, Metrics, State, StateSource, SubscriberStats};
use crate::warnings::{self, Warning};
use filter::Filter;
use observe::Observer;
use remote::{Failure, Remote};

/// A subscriber the hook path waits for.
#[derive(Debug)]
pub struct Decider {
    pub name: String,
    pub priority: i32,
    pub filter: Filter,
    pub kind: DeciderKind,
}

/// Who answers for a [`Decider`].
#[derive(Debug)]
pub enum DeciderKind {
    /// Boxed: a tonic client is large, and deciders live in one `Vec`.
    Remote(Box<Remote>),
    /// The built-in guard and its counters (a remote keeps its own).
    Guard(Guard, Arc<SubscriberStats>),
}

impl Decider {
    /// This subscriber's decision on `event` (`proto` is the same event as
    /// sent over gRPC, encoded once, when a remote subscriber first asks).
    /// Never fails: failures become the on_error decision.
    pub async fn decide(&self, event: &HookEvent, proto: Arc<ProtoEvent>) -> Decision {
        match &self.kind {
            DeciderKind::Remote(remote) => {
                remote.stats().calls.fetch_add(1, Ordering::Relaxed);
                let reply = remote.call(proto.encoded()).await;
                match convert::decision_from_reply(reply) {
                    Ok(converted) => {
                        let stats = remote.stats();
                        for bad in &converted.dropped {
                            // Each unusable part is one bad-reply error.
                            stats.error(ErrorKind::BadReply);
                            tracing::warn!(subscriber = %remote.name(), error = %bad, "subscriber reply part dropped; the rest of its decision stands");
                        }
                        stats.answered(converted.decision.permission);
                        converted.decision
                    }
                    Err(failure) => on_failure(remote, &failure),
                }
            }
            DeciderKind::Guard(guard, stats) => {
                stats.calls.fetch_add(1, Ordering::Relaxed);
                let started = std::time::Instant::now();
                let decision = guard.decide(event);
                stats.call_took(started.elapsed());
                stats.answered(decision.permission);
                decision
            }
        }
    }
}

/// The decision a remote's `on_error` gives for `failure`: no opinion
/// (allow) or a deny naming the subscriber (deny).
fn on_failure(remote: &Remote, failure: &Failure) -> Decision {
    let stats = remote.stats();
    let name = remote.name();
    let class = failure.class();
    // The full error (which may quote the payload) at debug only.
    tracing::debug!(subscriber = %name, error = %failure, "subscriber failed");
    match remote.on_error() {
        OnError::Allow => {
            stats.fail_open.fetch_add(1, Ordering::Relaxed);
            warnings::warn(
                Warning::Subscriber,
                format_args!("subscriber `{name}` failed ({class}); no opinion (on_error = allow)"),
            );
            Decision::default()
        }
        OnError::Deny => {
            stats.fail_closed.fetch_add(1, Ordering::Relaxed);
            warnings::warn(
                Warning::Subscriber,
                format_args!("subscriber `{name}` failed ({class}); denying (on_error = deny)"),
            );
            let reason = format!(
                "hookgate: subscriber `{name}` failed ({class}); blocked by its on_error = \"deny\" policy"
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

impl Registry {
    /// Starts the health checks of every remote subscriber.
    pub fn check_health(&self, tracker: &TaskTracker, shutdown: &CancellationToken) {
        let remotes = self
            .deciders
            .iter()
            .filter_map(|d| match &d.kind {
                DeciderKind::Remote(remote) => Some(&**remote),
                DeciderKind::Guard(..) => None,
            })
            .chain(self.observers.iter().map(|(_, o)| o.remote()));
        for remote in remotes {
            health::spawn(
                remote.name(),
                remote.channel(),
                Arc::clone(remote.stats()),
                tracker,
                shutdown.clone(),
            );
        }
    }
}

/// Every configured subscriber, in config order.
#[derive(Debug, Default)]
pub struct Registry {
    pub deciders: Vec<Decider>,
    pub observers: Vec<(Filter, Observer)>,
    pub audits: Vec<(Filter, Audit)>,
}

impl Registry {
    /// Connects (lazily) and starts the workers of every subscriber. Must
    /// run inside the tokio runtime; workers are spawned on `tracker`.
    pub fn build(
        subscribers: &[SubscriberConfig],
        metrics: &Metrics,
        tracker: &TaskTracker,
    ) -> anyhow::Result<Registry> {
        let mut registry = Registry::default();
        for sub in subscribers {
            let stats = metrics.subscriber(&sub.name);
            if !matches!(sub.kind, SubscriberKind::Remote { .. }) {
                stats.set_state(State::Builtin, StateSource::Builtin);
            }
            match &sub.kind {
                SubscriberKind::Remote {
                    endpoint,
                    mode,
                    timeout,
                    on_error,
                    queue_size,
                } => {
                    let remote = Remote::new(&sub.name, endpoint, *timeout, *on_error, stats)
                        .with_context(|| {
                            format!("subscriber `{}`: endpoint `{endpoint}`", sub.name)
                        })?;
                    match mode {
                        Mode::Decide => registry.deciders.push(Decider {
                            name: sub.name.clone(),
                            priority: sub.priority,
                            filter: sub.filter.clone(),
                            kind: DeciderKind::Remote(Box::new(remote)),
                        }),
                        Mode::Observe => registry.observers.push((
                            sub.filter.clone(),
                            Observer::spawn(remote, *queue_size, tracker),
                        )),
                    }
                }
                SubscriberKind::Guard { guard } => registry.deciders.push(Decider {
                    name: sub.name.clone(),
                    priority: sub.priority,
                    filter: sub.filter.clone(),
                    kind: DeciderKind::Guard(guard.clone(), stats),
                }),
                SubscriberKind::Audit { path, queue_size } => registry.audits.push((
                    sub.filter.clone(),
                    Audit::spawn(path.clone(), *queue_size, Arc::clone(&stats), tracker),
                )),
            }
        }
        Ok(registry)
    }
}
