//! Self-protection as a [`Builtin`]: the guard crate's [`Protection`]
//! over hookgate's own parts (resolved by `crate::protect`, which puts it
//! first in every registry), judged again on a rewritten tool input.
//!
//! It runs through `bounded`, as the guard does (the shell parser's work
//! grows with the line): first on the worker that holds the call with a
//! small work budget, and a call that needs more on the blocking pool under
//! the guard's default time limit. A call it cannot check in time is denied
//! and counted as a timeout: a line too complex to check could be one that
//! turns hookgate off.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use hookgate_adapters::{Decision, HookEvent, Permission};
use hookgate_guard::protect::{Protection, REASON_PREFIX};

use super::{Answer, Builtin, Call, Decided, Failed, Role, Ruling, bounded};
use crate::metrics::SubscriberStats;
use crate::warnings::{self, Warning};

/// hookgate's parts, held against every tool call.
#[derive(Debug)]
pub(crate) struct SelfProtection {
    protection: Arc<Protection>,
    stats: Arc<SubscriberStats>,
}

impl SelfProtection {
    pub(crate) fn new(protection: Protection, stats: &Arc<SubscriberStats>) -> SelfProtection {
        SelfProtection {
            protection: Arc::new(protection),
            stats: Arc::clone(stats),
        }
    }

    /// Its decision on `event`: at once when the first attempt answers,
    /// else off the async workers within the limit from `started`.
    fn answer<'a>(&'a self, event: &'a Arc<HookEvent>, started: Instant) -> Answer<'a> {
        let first = bounded::inline(&self.stats.pooled, |work, until| {
            self.protection.try_decide(event, work, Some(until))
        });
        match first {
            Some(decision) => Answer::Now(Ok(Ruling::from(decision))),
            None => Answer::Later(Box::pin(self.rule(event, started))),
        }
    }

    /// Its decision on `event` with the full budget, off the async
    /// workers, within the limit from `started`.
    async fn rule(&self, event: &Arc<HookEvent>, started: Instant) -> Decided {
        let (protection, event) = (Arc::clone(&self.protection), Arc::clone(event));
        let run = bounded::run(
            started,
            hookgate_guard::DEFAULT_TIME_LIMIT,
            move |work, own| match work {
                Some(work) => protection.try_decide(&event, work, Some(own)),
                None => Some(protection.decide(&event)),
            },
        )
        .await;
        run.map(Ruling::from).map_err(|why| {
            self.stats.timeouts.fetch_add(1, Ordering::Relaxed);
            warnings::warn(
                Warning::Subscriber,
                format_args!("self-protection: {why}; denied"),
            );
            let reason = format!(
                "{REASON_PREFIX}: {why}, so hookgate cannot tell whether it touches its own parts"
            );
            Failed {
                class: "timeout",
                instead: Decision {
                    permission: Permission::Deny,
                    agent_message: Some(reason.clone()),
                    reason: Some(reason),
                    ..Decision::default()
                },
            }
        })
    }
}

impl Builtin for SelfProtection {
    fn role(&self) -> Role {
        Role::DECIDES
    }

    fn decide<'a>(&'a self, call: &'a Call<'a>) -> Answer<'a> {
        self.answer(call.event, call.received)
    }

    fn recheck<'a>(&'a self, call: &'a Call<'a>) -> Option<Answer<'a>> {
        Some(self.answer(call.event, Instant::now()))
    }
}
