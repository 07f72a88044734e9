//! The registry: every configured subscriber, ready for the hook path.
//!
//! Built once at startup and again on each config reload. A rebuild keeps
//! every subscriber whose name and settings did not change (the same
//! `Arc`: its connections, queue, worker and health checks go on), and
//! builds the rest anew; counters live in [`Metrics`] by name, so they
//! survive either way. Whatever no registry holds any more stops when the
//! last in-flight event drops the old registry: observe and audit workers
//! drain their queues and end, health checks are cancelled.

use std::collections::HashMap;
use std::sync::Arc;

use anyhow::Context as _;
use hookgate_adapters::HookEvent;
use tokio_util::sync::{CancellationToken, DropGuard};
use tokio_util::task::TaskTracker;

use super::health;
use super::observe::Observer;
use super::remote::Remote;
use super::shadow::Shadow;
use super::{Decider, DeciderKind};
use crate::builtin::audit::Audit;
use crate::config::{Mode, SubscriberConfig, SubscriberKind};
use crate::convert::ProtoEvent;
use crate::filter::Filter;
use crate::metrics::{Metrics, State, StateSource};

/// Every configured subscriber, in config order.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    deciders: Vec<Arc<Decider>>,
    observers: Vec<(Filter, Arc<Observer>)>,
    audits: Vec<(Filter, Arc<Audit>)>,
    shadows: Vec<Arc<Shadow>>,
    /// Each subscriber by name with the config it was built from: what a
    /// rebuild may keep.
    built: HashMap<String, Built>,
    /// How many subscribers this registry took over from the previous one.
    kept: usize,
    /// Who every proto event says it comes from (`[identity]`).
    pub caller: Arc<hookgate_proto::v1::Caller>,
}

/// One subscriber as built, shareable between two registries.
#[derive(Debug, Clone)]
struct Built {
    config: SubscriberConfig,
    part: Part,
    /// Cancels this subscriber's health checks once no registry holds it
    /// (held, never read).
    _health: Option<Arc<DropGuard>>,
}

#[derive(Debug, Clone)]
enum Part {
    Decider(Arc<Decider>),
    Observer(Arc<Observer>),
    Audit(Arc<Audit>),
    Shadow(Arc<Shadow>),
}

/// What building a subscriber needs from the gateway.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Builder<'a> {
    pub metrics: &'a Metrics,
    /// Observe and audit workers run here (shutdown waits for them).
    pub workers: &'a TaskTracker,
    /// Where health checks run and what stops them all; `None` runs none.
    pub health: Option<(&'a TaskTracker, &'a CancellationToken)>,
}

impl Registry {
    /// Builds every subscriber anew, without health checks. Must run
    /// inside the tokio runtime; workers are spawned on `tracker`.
    #[cfg(test)]
    pub(crate) fn build(
        subscribers: &[SubscriberConfig],
        metrics: &Metrics,
        tracker: &TaskTracker,
    ) -> anyhow::Result<Registry> {
        let builder = Builder {
            metrics,
            workers: tracker,
            health: None,
        };
        builder.build(subscribers, None)
    }

    /// Offers `event` to every observer and shadow whose filter matches it:
    /// they are never waited for (a full queue is a counted drop).
    pub(crate) fn offer(&self, event: &Arc<HookEvent>, proto: &Arc<ProtoEvent>) {
        for (filter, observer) in &self.observers {
            if filter.matches(event) {
                observer.offer(Arc::clone(proto));
            }
        }
        for shadow in &self.shadows {
            if shadow.decider().filter.matches(event) {
                shadow.offer(event, proto);
            }
        }
    }

    /// The decide subscribers whose filter matches `event`, in config order.
    pub(crate) fn deciders_for(&self, event: &HookEvent) -> Vec<&Arc<Decider>> {
        self.deciders
            .iter()
            .filter(|d| d.filter.matches(event))
            .collect()
    }

    /// Whether any audit is configured: per-subscriber outcomes are
    /// collected only for them.
    pub(crate) fn audited(&self) -> bool {
        !self.audits.is_empty()
    }

    /// The audits that record `event`; every audit for an event that could
    /// not be understood (`None`), since no filter can judge it.
    pub(crate) fn audits_for<'a>(
        &'a self,
        event: Option<&'a HookEvent>,
    ) -> impl Iterator<Item = &'a Arc<Audit>> + 'a {
        self.audits
            .iter()
            .filter(move |(filter, _)| event.is_none_or(|event| filter.matches(event)))
            .map(|(_, audit)| audit)
    }

    /// This registry, its events sent as coming from `caller`.
    pub(crate) fn with_caller(mut self, caller: hookgate_proto::v1::Caller) -> Registry {
        self.caller = Arc::new(caller);
        self
    }

    /// Who every event this registry sends says it comes from.
    pub(crate) fn caller(&self) -> Arc<hookgate_proto::v1::Caller> {
        Arc::clone(&self.caller)
    }

    /// How many subscribers were taken over from the previous registry.
    pub(crate) fn kept(&self) -> usize {
        self.kept
    }

    /// The number of subscribers.
    pub(crate) fn len(&self) -> usize {
        self.built.len()
    }

    fn add(&mut self, built: Built) {
        let filter = built.config.filter.clone();
        match &built.part {
            Part::Decider(decider) => self.deciders.push(Arc::clone(decider)),
            Part::Observer(observer) => self.observers.push((filter, Arc::clone(observer))),
            Part::Audit(audit) => self.audits.push((filter, Arc::clone(audit))),
            Part::Shadow(shadow) => self.shadows.push(Arc::clone(shadow)),
        }
        self.built.insert(built.config.name.clone(), built);
    }
}

impl Builder<'_> {
    /// The registry for `subscribers`, keeping from `previous` each one
    /// whose name and settings are unchanged. Must run inside the tokio
    /// runtime. Fails on an endpoint that cannot be used; what was built
    /// until then stops again as it is dropped.
    pub(crate) fn build(
        &self,
        subscribers: &[SubscriberConfig],
        previous: Option<&Registry>,
    ) -> anyhow::Result<Registry> {
        let mut registry = Registry::default();
        for sub in subscribers {
            let kept = previous
                .and_then(|p| p.built.get(&sub.name))
                .filter(|b| b.config.same_as(sub));
            let built = match kept {
                Some(kept) => {
                    registry.kept += 1;
                    kept.clone()
                }
                None => self.subscriber(sub)?,
            };
            registry.add(built);
        }
        Ok(registry)
    }

    fn subscriber(&self, sub: &SubscriberConfig) -> anyhow::Result<Built> {
        let stats = self.metrics.subscriber(&sub.name);
        stats.set_layer(sub.layer, sub.locked);
        let shadow = matches!(
            sub.kind,
            SubscriberKind::Remote {
                mode: Mode::Shadow,
                ..
            }
        );
        let decider = |kind| Decider {
            name: sub.name.clone(),
            priority: sub.priority,
            filter: sub.filter.clone(),
            kind,
            shadow,
        };
        let (part, health) = match &sub.kind {
            SubscriberKind::Remote {
                connection,
                mode,
                timeout,
                on_error,
                queue_size,
                breaker,
            } => {
                let remote =
                    Remote::new(&sub.name, connection, *timeout, *on_error, *breaker, stats)
                        .with_context(|| format!("subscriber `{}`", sub.name))?;
                let health = self.check_health(&remote);
                let part = match mode {
                    Mode::Decide => {
                        Part::Decider(Arc::new(decider(DeciderKind::Remote(Box::new(remote)))))
                    }
                    Mode::Shadow => Part::Shadow(Arc::new(Shadow::new(
                        decider(DeciderKind::Remote(Box::new(remote))),
                        self.workers,
                    ))),
                    Mode::Observe => {
                        Part::Observer(Arc::new(Observer::spawn(remote, *queue_size, self.workers)))
                    }
                };
                (part, health)
            }
            SubscriberKind::Guard { guard, .. } => {
                stats.set_state(State::Builtin, StateSource::Builtin);
                let guard = decider(DeciderKind::Guard(guard.clone(), stats));
                (Part::Decider(Arc::new(guard)), None)
            }
            SubscriberKind::Audit {
                path,
                queue_size,
                max_bytes,
                keep,
            } => {
                stats.set_state(State::Builtin, StateSource::Builtin);
                let file = crate::builtin::audit::LogConfig {
                    path: path.clone(),
                    max_bytes: *max_bytes,
                    keep: *keep,
                };
                let audit = Audit::spawn(file, *queue_size, stats, self.workers);
                (Part::Audit(Arc::new(audit)), None)
            }
        };
        Ok(Built {
            config: sub.clone(),
            part,
            _health: health,
        })
    }

    /// Starts `remote`'s health checks, if this builder runs any; they
    /// stop with the gateway or when the returned guard is dropped.
    fn check_health(&self, remote: &Remote) -> Option<Arc<DropGuard>> {
        let (tracker, shutdown) = self.health?;
        let token = shutdown.child_token();
        health::spawn(
            remote.name(),
            remote.backends(),
            remote.token(),
            Arc::clone(remote.stats()),
            tracker,
            token.clone(),
        );
        Some(Arc::new(token.drop_guard()))
    }
}

#[cfg(test)]
mod tests;
