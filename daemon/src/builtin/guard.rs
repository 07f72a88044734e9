//! The built-in `guard` as a [`Builtin`]: the `hookgate-guard` crate's
//! rules, judged again on a tool input another subscriber rewrote. Each
//! decision names its rule and counts a hit on it.
//!
//! Each call runs through `bounded`: a first attempt on a small work budget
//! where the call is (an ordinary line is answered there), and a line that
//! needs more on the blocking pool (a slot, the guard's `timeout_ms`),
//! never at length on an async worker. The guard stops itself
//! a little before that limit (its own deadline and work budget: a line
//! too complex to check is denied by the guard, with its reason, counted
//! as an error of kind `too_complex` and a `fail_closed`); if it still has
//! not answered at the limit, or no slot came free, the call is denied
//! here, counted as a timeout (and by the registry as an error and a
//! `fail_closed`). Both count on the rule counter `unchecked`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use hookgate_adapters::{Decision, HookEvent, Permission};
use hookgate_guard::{Action, Guard, Hit, Verdict};

use super::{Answer, Builtin, Call, Decided, Failed, Role, Ruling, bounded};
use crate::metrics::rules::{RuleHits, UNCHECKED};
use crate::metrics::{ErrorKind, SubscriberStats};
use crate::warnings::{self, Warning};

/// A `[[subscriber]]` with `builtin = "guard"`: its compiled rules and a
/// hit counter per rule, in the rules' order.
#[derive(Debug)]
pub(super) struct GuardRules {
    guard: Arc<Guard>,
    stats: Arc<SubscriberStats>,
    hits: Vec<Arc<RuleHits>>,
    /// Calls denied for no rule: past a bound, so not checked.
    unchecked: Arc<RuleHits>,
}

impl GuardRules {
    pub(super) fn new(guard: Guard, stats: &Arc<SubscriberStats>) -> GuardRules {
        let hits = guard
            .rules()
            .iter()
            .map(|rule| stats.rules.counter(&rule.id, rule.action))
            .collect();
        let unchecked = stats.rules.counter(UNCHECKED, Action::Deny);
        GuardRules {
            guard: Arc::new(guard),
            stats: Arc::clone(stats),
            hits,
            unchecked,
        }
    }

    /// The guard's decision on `event`: at once when the first attempt
    /// answers, else checked off the async workers within the guard's time
    /// limit from `started`. One place for the first call and the recheck.
    fn answer<'a>(&'a self, event: &'a Arc<HookEvent>, started: Instant) -> Answer<'a> {
        match bounded::inline(&self.stats.pooled, |work, until| {
            self.guard.try_within(event, work, Some(until))
        }) {
            Some(verdict) => Answer::Now(Ok(self.ruling(verdict))),
            None => Answer::Later(Box::pin(self.rule(event, started))),
        }
    }

    /// The guard's decision on `event` with the full budget, off the async
    /// workers.
    async fn rule(&self, event: &Arc<HookEvent>, started: Instant) -> Decided {
        let check = pooled(Arc::clone(&self.guard), Arc::clone(event));
        let run = bounded::run(started, self.guard.time_limit(), check).await;
        match run {
            Ok(verdict) => Ok(self.ruling(verdict)),
            Err(why) => {
                self.stats.timeouts.fetch_add(1, Ordering::Relaxed);
                self.unchecked.hit();
                warnings::warn(Warning::Subscriber, format_args!("guard: {why}; denied"));
                let reason =
                    format!("hookgate guard: {why}; the guard denies what it cannot check");
                Err(Failed {
                    class: "timeout",
                    instead: Decision {
                        permission: Permission::Deny,
                        agent_message: Some(reason.clone()),
                        reason: Some(reason),
                        ..Decision::default()
                    },
                })
            }
        }
    }

    /// What `verdict` says, counted: a call too complex to check as a
    /// fail-closed error, a hit against its rule.
    fn ruling(&self, verdict: Verdict) -> Ruling {
        if verdict.too_complex {
            self.stats.error(ErrorKind::TooComplex);
            self.stats.fail_closed.fetch_add(1, Ordering::Relaxed);
            warnings::warn(
                Warning::Subscriber,
                format_args!("the guard found a call too complex to check; denied"),
            );
        }
        let rule = verdict.hit.as_ref().map(|hit| self.count(hit));
        Ruling {
            decision: verdict.decision,
            rule,
            revision: None,
            held: None,
        }
    }

    /// Counts `hit` against its rule (or `unchecked`); its id.
    fn count(&self, hit: &Hit) -> String {
        let rule = hit
            .rule
            .and_then(|i| Some((self.guard.rules().get(i)?, self.hits.get(i)?)));
        match rule {
            Some((rule, hits)) => {
                hits.hit();
                rule.id.clone()
            }
            None => {
                self.unchecked.hit();
                UNCHECKED.to_owned()
            }
        }
    }
}

impl Builtin for GuardRules {
    fn role(&self) -> Role {
        Role::DECIDES
    }

    /// Bounded from when the gateway received the call, as the shim's
    /// deadline is.
    fn decide<'a>(&'a self, call: &'a Call<'a>) -> Answer<'a> {
        self.answer(call.event, call.received)
    }

    /// Bounded from now: a rewrite comes after the first round, and the
    /// guard's limit is well under half the shim's deadline.
    fn recheck<'a>(&'a self, call: &'a Call<'a>) -> Option<Answer<'a>> {
        Some(self.answer(call.event, Instant::now()))
    }
}

/// `guard`'s check of `event` as `bounded::run` runs it: with `Some` units
/// a try that may give up, with `None` the full check, which answers.
pub(super) fn pooled(
    guard: Arc<Guard>,
    event: Arc<HookEvent>,
) -> impl Fn(Option<u64>, Instant) -> Option<Verdict> + Send + Sync + 'static {
    move |work, own| match work {
        Some(work) => guard.try_within(&event, work, Some(own)),
        None => Some(guard.decide_within(&event, Some(own))),
    }
}
