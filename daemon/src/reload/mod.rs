//! Config hot reload: SIGHUP, a watch on the config file, or `gateway
//! reload` (the admin API) ask one reloader task to read and validate the
//! config again; only a valid one replaces the subscriber registry, in one
//! atomic swap.
//!
//! Events in flight keep the registry they loaded (the pipeline loads it
//! once per event); new events get the new one. Subscribers whose name and
//! settings are unchanged are taken over as they are (see
//! `subscribers::registry`). An invalid file keeps the running config,
//! logs why and shows it in `gateway status`. `[server]` settings (socket,
//! limits, budget) belong to the running listener: a change there is
//! reported and waits for a restart. A config that weakens hookgate
//! (`weaker`: the guard or the decision log gone or narrowed) is refused,
//! warned about and counted, unless `gateway reload --allow-weaker` asks
//! for it; every registry gets the self-protection built-in again
//! (`crate::protect`), its files resolved for the new config.

pub(crate) mod outcome;
mod watch;
mod weaker;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use arc_swap::ArcSwap;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::metrics::Metrics;
use crate::subscribers::{Builder, Registry};
use hookgate_config::Config;
pub(crate) use outcome::{Origins, Outcome, ReloadSnapshot, ReloadStatus};
pub(crate) use watch::watch;

/// Pending reload requests; more are coalesced (a reload is due anyway).
const QUEUE: usize = 16;
/// Quiet time after a file event before reading the file: editors write a
/// file in several steps (truncate, write, rename).
const SETTLE: Duration = Duration::from_millis(150);

/// What asked for a reload.
#[derive(Debug)]
enum Trigger {
    #[cfg_attr(not(unix), expect(dead_code, reason = "SIGHUP is Unix-only"))]
    Signal,
    Watch,
    /// `gateway reload`: answered with the outcome; `true` with
    /// `--allow-weaker`.
    Admin(oneshot::Sender<Outcome>, bool),
}

impl Trigger {
    fn name(&self) -> &'static str {
        match self {
            Trigger::Signal => "signal",
            Trigger::Watch => "watch",
            Trigger::Admin(..) => "admin",
        }
    }
}

/// Asks the reloader for a reload; cheap to clone.
#[derive(Debug, Clone)]
pub(crate) struct Handle(mpsc::Sender<Trigger>);

/// The receiving end, for [`Reloader::run`].
#[derive(Debug)]
pub(crate) struct Requests(mpsc::Receiver<Trigger>);

/// A connected [`Handle`] and [`Requests`].
pub(crate) fn channel() -> (Handle, Requests) {
    let (tx, rx) = mpsc::channel(QUEUE);
    (Handle(tx), Requests(rx))
}

impl Handle {
    /// Reloads now and says how it went; `None` when the gateway is
    /// shutting down. `allow_weaker` applies a config that weakens hookgate
    /// (`gateway reload --allow-weaker`, from a terminal).
    pub(crate) async fn reload(&self, allow_weaker: bool) -> Option<Outcome> {
        let (tx, rx) = oneshot::channel();
        self.0.send(Trigger::Admin(tx, allow_weaker)).await.ok()?;
        rx.await.ok()
    }

    /// Asks without waiting; a full queue already holds a reload.
    fn nudge(&self, trigger: Trigger) {
        let _ = self.0.try_send(trigger);
    }

    /// Reloads on every SIGHUP (which then no longer ends the process),
    /// until `stop`. Unix only; elsewhere nothing to do.
    pub(crate) fn on_hangup(
        &self,
        tracker: &TaskTracker,
        stop: CancellationToken,
    ) -> std::io::Result<()> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let mut hangups = signal(SignalKind::hangup())?;
            let handle = self.clone();
            tracker.spawn(async move {
                loop {
                    tokio::select! {
                        () = stop.cancelled() => return,
                        got = hangups.recv() => {
                            if got.is_none() {
                                return;
                            }
                            tracing::info!("SIGHUP: reloading the config");
                            handle.nudge(Trigger::Signal);
                        }
                    }
                }
            });
        }
        #[cfg(not(unix))]
        let _ = (tracker, stop);
        Ok(())
    }
}

/// The one task that reloads, so reloads never race each other.
#[derive(Debug)]
pub(crate) struct Reloader {
    /// `--config`, else resolved as at startup (user file, else embedded).
    pub explicit: Option<PathBuf>,
    pub registry: Arc<ArcSwap<Registry>>,
    /// The config in effect.
    pub config: Config,
    pub metrics: Arc<Metrics>,
    pub workers: TaskTracker,
    /// Health checks of new subscribers run here until `stop_health`.
    pub health: TaskTracker,
    pub stop_health: CancellationToken,
    /// Ends [`Reloader::run`].
    pub stop: CancellationToken,
    pub status: Arc<ReloadStatus>,
    /// Where self-protection's files are resolved from.
    pub site: crate::protect::Site,
    /// The gateway's registry of calls held for a person (kept across
    /// reloads).
    pub approvals: Arc<crate::approvals::Approvals>,
}

impl Reloader {
    /// Serves reload requests until `stop` is cancelled, then drops the
    /// registry it shares with the pipeline (an empty one replaces it), so
    /// observe and audit workers can drain and end.
    pub(crate) async fn run(mut self, mut requests: Requests) {
        loop {
            let trigger = tokio::select! {
                () = self.stop.cancelled() => break,
                trigger = requests.0.recv() => trigger,
            };
            let Some(trigger) = trigger else { break };
            let mut waiting = Vec::new();
            let name = trigger.name();
            let mut settle = matches!(trigger, Trigger::Watch);
            let mut allow_weaker = matches!(trigger, Trigger::Admin(_, true));
            waiting.extend(responder(trigger));
            // Coalesce what is already queued into this one reload.
            loop {
                if settle {
                    tokio::time::sleep(SETTLE).await;
                    settle = false;
                }
                match requests.0.try_recv() {
                    Ok(more) => {
                        settle |= matches!(more, Trigger::Watch);
                        allow_weaker |= matches!(more, Trigger::Admin(_, true));
                        waiting.extend(responder(more));
                    }
                    Err(_) => break,
                }
            }
            let outcome = self.reload(allow_weaker).await;
            self.status.record(name, &outcome);
            for tx in waiting {
                let _ = tx.send(outcome.clone());
            }
        }
        self.registry.store(Arc::new(Registry::default()));
    }

    /// One reload attempt; `allow_weaker` applies a weaker config.
    async fn reload(&mut self, allow_weaker: bool) -> Outcome {
        let generation = self.status.generation();
        let explicit = self.explicit.clone();
        let loaded = tokio::task::spawn_blocking(move || Config::load(explicit.as_deref())).await;
        let config = match loaded {
            Ok(Ok(config)) => config,
            Ok(Err(err)) => return self.refused(generation, err.to_string()),
            Err(err) => {
                return self.refused(generation, format!("reading the config failed: {err}"));
            }
        };
        self.metrics.set_config_refused(config.refused.len());
        // Named as in effect only once it is (unchanged or applied), never
        // for a config refused below.
        let origins = Origins {
            config: config.origin.clone(),
            system_config: config.system_origin.clone(),
        };
        if config.server != self.config.server {
            tracing::warn!(
                config = %config.origin,
                "config reload: [server] settings changed; they take effect at the next restart"
            );
        }
        let unchanged = config.identity == self.config.identity
            && config.subscribers.len() == self.config.subscribers.len()
            && config
                .subscribers
                .iter()
                .zip(&self.config.subscribers)
                .all(|(new, old)| new.same_as(old));
        if unchanged {
            tracing::info!(config = %config.origin, generation, "config reload: unchanged");
            self.status.set_origins(origins);
            return Outcome::Unchanged { generation };
        }
        let weaker = weaker::weakened(&self.config, &config).join("; ");
        if !weaker.is_empty() {
            if !allow_weaker {
                tracing::warn!(
                    config = %config.origin,
                    generation,
                    weaker = %weaker,
                    "config reload refused: it weakens hookgate; the running config stays \
                     (apply it from a terminal with `gateway reload --allow-weaker`)"
                );
                return Outcome::Weaker {
                    generation,
                    what: weaker,
                };
            }
            tracing::warn!(config = %config.origin, weaker = %weaker, "applying a config that weakens hookgate (gateway reload --allow-weaker)");
        }
        let protection = {
            let (config, site, metrics) =
                (config.clone(), self.site.clone(), Arc::clone(&self.metrics));
            tokio::task::spawn_blocking(move || crate::protect::decider(&config, &site, &metrics))
                .await
        };
        let protection = match protection {
            Ok(protection) => protection,
            Err(err) => {
                return self.refused(
                    generation,
                    format!("resolving hookgate's parts failed: {err}"),
                );
            }
        };
        let builder = Builder {
            metrics: &self.metrics,
            workers: &self.workers,
            health: Some((&self.health, &self.stop_health)),
            approvals: &self.approvals,
        };
        let current = self.registry.load_full();
        let registry = match builder.build(&config.subscribers, Some(&current)) {
            Ok(registry) => registry
                .with_caller(crate::convert::caller(&config.identity))
                .with_protection(protection),
            Err(err) => return self.refused(generation, format!("{err:#}")),
        };
        let generation = generation + 1;
        tracing::info!(
            config = %config.origin,
            generation,
            subscribers = registry.len(),
            kept = registry.kept(),
            "config reloaded"
        );
        self.registry.store(Arc::new(registry));
        self.status.set_origins(origins);
        self.config.subscribers = config.subscribers;
        self.config.identity = config.identity;
        self.config.origin = config.origin;
        Outcome::Applied { generation }
    }

    fn refused(&self, generation: u64, error: String) -> Outcome {
        tracing::error!(error = %error, generation, "config reload refused; the running config stays");
        Outcome::Invalid { generation, error }
    }
}

fn responder(trigger: Trigger) -> Option<oneshot::Sender<Outcome>> {
    match trigger {
        Trigger::Admin(tx, _) => Some(tx),
        Trigger::Signal | Trigger::Watch => None,
    }
}

#[cfg(test)]
mod tests;
