//! The pipeline in-process, without a daemon: what `gateway eval` and
//! `gateway replay` run a config's deciders with.
//!
//! Only the deciders are built (remote subscribers called for real, the
//! guard and `rego` in-process), with self-protection first as the
//! gateway runs it (unless the system config turned it off), so a call
//! the gateway would deny for touching hookgate's own files is not shown
//! allowed; observers, shadows and the audit log are left out, so
//! evaluating or replaying writes no decision log and feeds no analytics. A `rego` subscriber's bundle is awaited (its cache, then
//! one fetch) for up to [`POLICY_WAIT`] before the first event.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use hookgate_adapters::Decision;
use hookgate_policy::input;
use hookgate_wire::{Reply, Request};
use serde_json::{Value, json};
use tokio_util::task::TaskTracker;

use crate::builtin::audit::decision_json;
use crate::metrics::Metrics;
use crate::pipeline::{Explained, Pipeline};
use crate::protect;
use crate::subscribers::Builder;
use hookgate_config::{Config, Mode, SubscriberKind};

/// How long a `rego` subscriber's bundle is waited for.
pub const POLICY_WAIT: Duration = Duration::from_secs(10);

/// A config's deciders, ready to answer events in-process.
#[derive(Debug)]
pub struct Offline {
    pipeline: Pipeline,
    workers: TaskTracker,
}

/// One decider's verdict on one event.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub name: String,
    /// `allow`, `ask`, `deny` or `none`.
    pub permission: &'static str,
    pub latency: Duration,
    /// The policy revision that decided (`rego`).
    pub revision: Option<String>,
}

/// What one event went through.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The canonical event as a policy's `input`; `None` if not understood.
    pub event: Option<Value>,
    pub subscribers: Vec<Verdict>,
    pub decision: Decision,
    pub losses: Vec<&'static str>,
    pub reply: Reply,
}

pub use crate::builtin::audit::permission_name;

impl Offline {
    /// `config` (read from `config_path`, when given)'s deciders, as a
    /// gateway on the default socket would run them. Must run inside a
    /// tokio runtime.
    pub async fn new(config: &Config, config_path: Option<&Path>) -> anyhow::Result<Offline> {
        let deciders: Vec<_> = config
            .subscribers
            .iter()
            .filter(|s| match &s.kind {
                SubscriberKind::Remote { mode, .. } => *mode == Mode::Decide,
                SubscriberKind::Guard { .. } => true,
                SubscriberKind::Rego(rego) => !rego.shadow,
                // Its answer is context from the live database, not a
                // decision a candidate config can be judged by; nobody would
                // answer a hold here.
                SubscriberKind::Audit { .. }
                | SubscriberKind::Memory(_)
                | SubscriberKind::Approval(_) => false,
            })
            .cloned()
            .collect();
        let metrics = Arc::new(Metrics::default());
        let workers = TaskTracker::new();
        let builder = Builder {
            metrics: &metrics,
            workers: &workers,
            health: None,
            approvals: &Arc::default(),
        };
        let site = protect::Site {
            socket: hookgate_transport::default_path(),
            explicit: config_path.map(Path::to_path_buf),
            enabled: config.server.self_protection,
        };
        let protection = {
            let (config, metrics) = (config.clone(), Arc::clone(&metrics));
            tokio::task::spawn_blocking(move || protect::decider(&config, &site, &metrics))
                .await
                .context("resolving hookgate's own parts")?
        };
        let registry = builder
            .build(&deciders, None)?
            .with_caller(crate::convert::caller(&config.identity))
            .with_protection(protection);
        let deadline = tokio::time::Instant::now() + POLICY_WAIT;
        while !registry.policies_loaded() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let pipeline = Pipeline::new(registry, metrics, config.server.on_unparsed)
            .with_max_followups(config.server.max_followups)
            .explaining();
        Ok(Offline { pipeline, workers })
    }

    /// Runs `request` (what the shim would send) through the deciders.
    pub async fn run(&self, request: Request) -> Outcome {
        Outcome::of(self.pipeline.explain(request).await)
    }
}

impl Outcome {
    /// What an explained event went through, as eval shows it.
    pub(crate) fn of(explained: Explained) -> Outcome {
        Outcome {
            event: explained
                .event
                .as_deref()
                .map(|e| input::document(e, &crate::builtin::rego::context(e, None))),
            subscribers: explained
                .subscribers
                .into_iter()
                .map(|s| Verdict {
                    name: s.name,
                    permission: permission_name(s.permission),
                    latency: s.latency,
                    revision: s.revision.map(|r| r.as_ref().clone()),
                })
                .collect(),
            decision: explained.decision,
            losses: explained.losses.iter().map(|l| l.as_str()).collect(),
            reply: explained.reply,
        }
    }

    /// The outcome as `gateway eval --json` prints it (and the admin API's
    /// `Eval` answers it): `event`, `subscribers` (name, permission,
    /// latency_us, revision), `decision`, `losses`, `reply` (exit_code,
    /// stdout, stderr; bytes that are not UTF-8 replaced).
    pub fn document(&self) -> Value {
        let reply = &self.reply;
        json!({
            "event": self.event,
            "subscribers": self.subscribers.iter().map(|s| json!({
                "name": s.name,
                "permission": s.permission,
                "latency_us": u64::try_from(s.latency.as_micros()).unwrap_or(u64::MAX),
                "revision": s.revision,
            })).collect::<Vec<_>>(),
            "decision": decision_json(&self.decision),
            "losses": self.losses,
            "reply": {
                "exit_code": reply.exit_code,
                "stdout": String::from_utf8_lossy(&reply.stdout),
                "stderr": String::from_utf8_lossy(&reply.stderr),
            },
        })
    }
}

impl Drop for Offline {
    fn drop(&mut self) {
        self.workers.close();
    }
}
