//! The built-in `rego` subscriber as a [`Builtin`]: the policy deciding
//! now, its evaluation off the async workers, and its bundle kept current.
//!
//! The policy is an `ArcSwapOption`: each event loads it once, so a new
//! bundle swaps in between events, never under one. Evaluation runs on
//! the blocking pool and the hook path waits at most `timeout_ms` for it
//! (the engine itself stops at the same limit); a failure of any kind is
//! the subscriber's `on_error`. With a bundle, a task (`poll.rs`) loads the
//! cached last good bundle, then polls the URL; until some bundle is good,
//! every event is a failure ("no policy loaded"), so `on_error = "deny"`
//! keeps a fresh machine closed.

mod poll;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use arc_swap::ArcSwapOption;
use hookgate_adapters::{Decision, HookEvent};
use hookgate_config::RegoConfig;
use hookgate_policy::input::{self, Context};
use hookgate_policy::{EvalError, Policy};
use tokio_util::sync::{CancellationToken, DropGuard};
use tokio_util::task::TaskTracker;

use super::{Answer, Builtin, Call, Decided, Failed, Role, Ruling};
use crate::metrics::SubscriberStats;

/// One `rego` subscriber.
#[derive(Debug)]
pub(crate) struct Rego {
    name: String,
    config: RegoConfig,
    policy: ArcSwapOption<Policy>,
    stats: Arc<SubscriberStats>,
    /// Stops the bundle poller when the last registry holding this
    /// subscriber drops it (held, never read).
    _poller: DropGuard,
}

impl Rego {
    /// The subscriber, deciding with its compiled files at once, or
    /// polling its bundle on `workers` until it is dropped.
    pub(crate) fn start(
        name: &str,
        config: &RegoConfig,
        stats: Arc<SubscriberStats>,
        workers: &TaskTracker,
    ) -> Arc<Rego> {
        let stop = CancellationToken::new();
        let rego = Arc::new(Rego {
            name: name.to_owned(),
            config: config.clone(),
            policy: ArcSwapOption::empty(),
            stats,
            _poller: stop.clone().drop_guard(),
        });
        if let Some(policy) = &config.compiled {
            rego.install(Arc::clone(policy));
        }
        if let Some(bundle) = &config.bundle {
            workers.spawn(poll::run(Arc::downgrade(&rego), bundle.clone(), stop));
        }
        rego
    }

    fn install(&self, policy: Arc<Policy>) {
        self.stats.policy.set_revision(policy.revision());
        self.policy.store(Some(policy));
    }

    /// The policy deciding now.
    pub(crate) fn current(&self) -> Option<Arc<Policy>> {
        self.policy.load_full()
    }

    /// The decision on `call`'s event and the revision that made it; a
    /// failure stands by `on_error`'s decision.
    async fn rule(&self, call: &Call<'_>) -> Decided {
        // Loaded once: a bundle swapped in meanwhile decides the next event.
        let policy = self.current();
        let revision = policy.as_ref().map(|p| Arc::new(p.revision().to_owned()));
        let caller = crate::convert::caller_json(call.caller);
        match self.evaluate(policy, call.event, caller).await {
            Ok(decision) => Ok(Ruling {
                decision,
                rule: None,
                revision,
                held: None,
            }),
            Err(failure) => Err(self.failed(&failure)),
        }
    }

    /// `failure` counted by its kind (the registry counts the error) and
    /// logged; the decision `on_error` stands by.
    fn failed(&self, failure: &Failure) -> Failed {
        let class = failure.class();
        let counter = match failure {
            Failure::Eval(EvalError::TimeLimit { .. }) | Failure::Late => &self.stats.timeouts,
            Failure::Eval(EvalError::Decision(_)) => &self.stats.errors_bad_reply,
            _ => &self.stats.errors_status,
        };
        counter.fetch_add(1, Ordering::Relaxed);
        // The engine's message names the policy file and line; it may
        // quote input, so the gateway's log has it at debug.
        tracing::debug!(subscriber = %self.name, error = %failure, "policy failed");
        let logged = match failure {
            Failure::Eval(EvalError::Rego(message)) => {
                format!("{class}: {}", first_location(message))
            }
            _ => failure.to_string(),
        };
        let instead = crate::builtin::on_error::decision(
            &self.name,
            self.config.on_error,
            &logged,
            class,
            self.config.shadow,
        );
        Failed { class, instead }
    }

    async fn evaluate(
        &self,
        policy: Option<Arc<Policy>>,
        event: &HookEvent,
        caller: serde_json::Value,
    ) -> Result<Decision, Failure> {
        let policy = policy.ok_or(Failure::NoPolicy)?;
        let document = input::document(event, &context(event, Some(caller)));
        let task = tokio::task::spawn_blocking(move || policy.evaluate(document));
        match tokio::time::timeout(self.config.timeout, task).await {
            Ok(Ok(result)) => result.map_err(Failure::Eval),
            Ok(Err(_)) => Err(Failure::Panicked),
            Err(_) => Err(Failure::Late),
        }
    }
}

impl Builtin for Rego {
    fn role(&self) -> Role {
        Role::DECIDES
    }

    /// Later: evaluation runs on the blocking pool, bounded by
    /// `timeout_ms`.
    fn decide<'a>(&'a self, call: &'a Call<'a>) -> Answer<'a> {
        Answer::Later(Box::pin(self.rule(call)))
    }

    /// A policy judges a rewritten tool input too, so a subscriber cannot
    /// launder a call past it.
    fn recheck<'a>(&'a self, call: &'a Call<'a>) -> Option<Answer<'a>> {
        Some(self.decide(call))
    }

    fn ready(&self) -> bool {
        self.current().is_some()
    }
}

/// What a policy's `input` holds besides the event: who it comes from and
/// a shell line's commands as the guard parses them.
pub(crate) fn context(event: &HookEvent, caller: Option<serde_json::Value>) -> Context {
    let (commands, commands_resolved) = match crate::convert::shell_json(event) {
        Some((commands, resolved)) => (Some(commands), resolved),
        None => (None, false),
    };
    Context {
        caller,
        commands,
        commands_resolved,
    }
}

/// Why a `rego` subscriber gave no decision.
#[derive(Debug, thiserror::Error)]
enum Failure {
    #[error("no policy loaded (the bundle has not been fetched yet)")]
    NoPolicy,
    #[error("{0}")]
    Eval(EvalError),
    #[error("evaluation did not finish in time")]
    Late,
    #[error("evaluation panicked")]
    Panicked,
}

impl Failure {
    fn class(&self) -> &'static str {
        match self {
            Failure::NoPolicy => "no policy loaded",
            Failure::Eval(err) => err.class(),
            Failure::Late => "time limit",
            Failure::Panicked => "evaluation error",
        }
    }
}

/// The `file:line:col` an engine message points at, without the quoted
/// source line (which may hold input).
fn first_location(message: &str) -> &str {
    message
        .lines()
        .find_map(|line| line.trim().strip_prefix("--> "))
        .unwrap_or("see the debug log")
}
