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
use std::sync::atomic::Ordering;

use anyhow::Context as _;
use hookgate_adapters::HookEvent;
use tokio_util::sync::{CancellationToken, DropGuard};
use tokio_util::task::TaskTracker;

use super::observe::Observer;
use super::remote::Remote;
use super::shadow::Shadow;
use super::{Decider, DeciderKind};
use crate::builtin::audit::AuditRecord;
use crate::builtin::{self, Builtin, Call};
use crate::client::health;
use crate::convert::ProtoEvent;
use crate::metrics::{Metrics, State, StateSource, SubscriberStats};
use hookgate_config::Filter;
use hookgate_config::{Mode, SubscriberConfig, SubscriberKind};

/// Every configured subscriber, in config order.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    deciders: Vec<Arc<Decider>>,
    observers: Vec<(Filter, Arc<Observer>)>,
    /// Built-ins told each event's outcome (the audit log).
    recorders: Vec<Recorder>,
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
    Shadow(Arc<Shadow>),
    /// A built-in: among the deciders if it decides, the recorders if it
    /// records.
    Builtin {
        builtin: Arc<dyn Builtin>,
        decider: Option<Arc<Decider>>,
        stats: Arc<SubscriberStats>,
    },
}

/// A built-in that records, with what selects its events and its counters.
#[derive(Debug)]
struct Recorder {
    filter: Filter,
    builtin: Arc<dyn Builtin>,
    stats: Arc<SubscriberStats>,
}

/// What building a subscriber needs from the gateway.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Builder<'a> {
    pub metrics: &'a Metrics,
    /// Observe and audit workers run here (shutdown waits for them).
    pub workers: &'a TaskTracker,
    /// Where health checks run and what stops them all; `None` runs none.
    pub health: Option<(&'a TaskTracker, &'a CancellationToken)>,
    /// The gateway's registry of calls held for a person.
    pub approvals: &'a Arc<crate::approvals::Approvals>,
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
        let approvals = Arc::default();
        let builder = Builder {
            metrics,
            workers: tracker,
            health: None,
            approvals: &approvals,
        };
        builder.build(subscribers, None)
    }

    /// Offers `call`'s event to every observer and shadow whose filter
    /// matches it: they are never waited for (a full queue is a counted
    /// drop).
    pub(crate) fn offer(&self, call: &Call<'_>, proto: &Arc<ProtoEvent>) {
        for (filter, observer) in &self.observers {
            if filter.matches(call.event) {
                observer.offer(Arc::clone(proto));
            }
        }
        for shadow in &self.shadows {
            if shadow.decider().filter.matches(call.event) {
                shadow.offer(call, proto);
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

    /// Whether every `rego` decider has a policy to decide with (a bundle
    /// may still be on its way).
    pub(crate) fn policies_loaded(&self) -> bool {
        self.built
            .values()
            .all(|b| match (&b.config.kind, &b.part) {
                (SubscriberKind::Rego(_), Part::Builtin { builtin, .. }) => builtin.ready(),
                _ => true,
            })
    }

    /// Whether any built-in records outcomes: per-subscriber outcomes are
    /// collected only for them.
    pub(crate) fn recorded(&self) -> bool {
        !self.recorders.is_empty()
    }

    /// Whether any recorder's filter matches `event` (every recorder for
    /// one that could not be understood): whether [`Registry::record`]
    /// would build a record.
    pub(crate) fn records(&self, event: Option<&HookEvent>) -> bool {
        self.recorders
            .iter()
            .any(|r| event.is_none_or(|event| r.filter.matches(event)))
    }

    /// Gives the record `build` makes to every recorder whose filter
    /// matches `event` (every recorder for an event that could not be
    /// understood, `None`, since no filter can judge it): the last one takes
    /// it, the others a copy. With no recorder nothing is built, so an event
    /// nobody records copies no decision.
    pub(crate) fn record(&self, event: Option<&HookEvent>, build: impl FnOnce() -> AuditRecord) {
        let mut recorders = self
            .recorders
            .iter()
            .filter(|r| event.is_none_or(|event| r.filter.matches(event)))
            .peekable();
        if recorders.peek().is_none() {
            return;
        }
        let record = build();
        while let Some(recorder) = recorders.next() {
            recorder.stats.calls.fetch_add(1, Ordering::Relaxed);
            if recorders.peek().is_some() {
                recorder.builtin.record(record.clone());
            } else {
                recorder.builtin.record(record);
                return;
            }
        }
    }

    /// This registry, its events sent as coming from `caller`.
    pub(crate) fn with_caller(mut self, caller: hookgate_proto::v1::Caller) -> Registry {
        self.caller = Arc::new(caller);
        self
    }

    /// This registry, with self-protection (`crate::protect`) as its first
    /// decider: in every registry, whatever the config says.
    pub(crate) fn with_protection(mut self, protection: Option<Arc<Decider>>) -> Registry {
        if let Some(decider) = protection {
            self.deciders.insert(0, decider);
        }
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
            Part::Shadow(shadow) => self.shadows.push(Arc::clone(shadow)),
            Part::Builtin {
                builtin,
                decider,
                stats,
            } => {
                if let Some(decider) = decider {
                    self.deciders.push(Arc::clone(decider));
                }
                if builtin.role().records {
                    self.recorders.push(Recorder {
                        filter,
                        builtin: Arc::clone(builtin),
                        stats: Arc::clone(stats),
                    });
                }
            }
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
        let shadow = match &sub.kind {
            SubscriberKind::Remote { mode, .. } => *mode == Mode::Shadow,
            SubscriberKind::Rego(rego) => rego.shadow,
            _ => false,
        };
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
            kind => {
                stats.set_state(State::Builtin, StateSource::Builtin);
                let start = builtin::Start {
                    stats: Arc::clone(&stats),
                    workers: self.workers,
                    approvals: self.approvals,
                };
                let builtin = builtin::start(&sub.name, kind, start)
                    .with_context(|| format!("subscriber `{}`: not a built-in", sub.name))?;
                if shadow && builtin.role().decides {
                    let kind = DeciderKind::Builtin(builtin, stats);
                    let part = Part::Shadow(Arc::new(Shadow::new(decider(kind), self.workers)));
                    return Ok(Built {
                        config: sub.clone(),
                        part,
                        _health: None,
                    });
                }
                let decider = builtin.role().decides.then(|| {
                    let kind = DeciderKind::Builtin(Arc::clone(&builtin), Arc::clone(&stats));
                    Arc::new(decider(kind))
                });
                let part = Part::Builtin {
                    builtin,
                    decider,
                    stats,
                };
                (part, None)
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
