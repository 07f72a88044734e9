//! The circuit breaker of one remote subscriber: a dead subscriber must
//! not cost every event a connect attempt (or a whole deadline) before its
//! `on_error` applies.
//!
//! Closed: every call goes through; `failures` consecutive failed calls
//! open it. Open: no call is made, the caller applies `on_error` at once
//! (counted `breaker_open`). Once `cooldown` has passed, exactly one call
//! goes through as a probe (half-open): success closes the breaker, failure
//! opens it for another cool-down. Lock-free: a few atomics per call.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use crate::metrics::{BreakerState, SubscriberStats};
use hookgate_config::BreakerConfig;

/// What the breaker lets a caller do.
#[derive(Debug)]
#[must_use = "a call's outcome must be recorded on its permit"]
pub(crate) enum Attempt {
    /// Call, and report the outcome on the permit.
    Call(Permit),
    /// Do not call: apply `on_error` now.
    Skip,
}

/// One admitted call. Dropped without an outcome (the call was abandoned),
/// a probe counts as failed, so the breaker cannot stay half-open.
#[derive(Debug)]
pub(crate) struct Permit {
    breaker: Arc<Breaker>,
    probe: bool,
    done: bool,
}

impl Permit {
    /// Records how the call went.
    pub(crate) fn finish(mut self, ok: bool) {
        self.done = true;
        self.breaker.record(self.probe, ok, Instant::now());
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        if !self.done && self.probe {
            self.breaker.record(true, false, Instant::now());
        }
    }
}

/// The breaker's state; the state itself lives in the subscriber's stats,
/// so reports read it where they read everything else.
#[derive(Debug)]
pub(crate) struct Breaker {
    name: Arc<str>,
    config: BreakerConfig,
    stats: Arc<SubscriberStats>,
    /// Consecutive failures while closed.
    failures: AtomicU32,
    /// When it last opened, in µs since `epoch`.
    opened_at_us: AtomicU64,
    epoch: Instant,
}

impl Breaker {
    /// A closed breaker (or none at all when `config.failures` is 0).
    pub(crate) fn new(
        name: &str,
        config: BreakerConfig,
        stats: Arc<SubscriberStats>,
    ) -> Arc<Breaker> {
        let state = if config.failures == 0 {
            BreakerState::Off
        } else {
            BreakerState::Closed
        };
        stats.set_breaker(state);
        Arc::new(Breaker {
            name: name.into(),
            config,
            stats,
            failures: AtomicU32::new(0),
            opened_at_us: AtomicU64::new(0),
            epoch: Instant::now(),
        })
    }

    /// May a call be made now?
    pub(crate) fn admit(self: &Arc<Self>) -> Attempt {
        self.admit_at(Instant::now())
    }

    fn admit_at(self: &Arc<Self>, now: Instant) -> Attempt {
        let permit = |probe| {
            Attempt::Call(Permit {
                breaker: Arc::clone(self),
                probe,
                done: false,
            })
        };
        match self.stats.breaker() {
            BreakerState::Off | BreakerState::Closed => permit(false),
            BreakerState::Open => {
                let opened = self.opened_at_us.load(Ordering::Acquire);
                let cooled = self.micros(now).saturating_sub(opened)
                    >= u64::try_from(self.config.cooldown.as_micros()).unwrap_or(u64::MAX);
                // One probe: only the caller that moves it to half-open.
                if cooled
                    && self
                        .stats
                        .swap_breaker(BreakerState::Open, BreakerState::HalfOpen)
                {
                    permit(true)
                } else {
                    self.skipped()
                }
            }
            BreakerState::HalfOpen => self.skipped(),
        }
    }

    fn skipped(&self) -> Attempt {
        self.stats.breaker_open.fetch_add(1, Ordering::Relaxed);
        Attempt::Skip
    }

    fn micros(&self, now: Instant) -> u64 {
        u64::try_from(now.saturating_duration_since(self.epoch).as_micros()).unwrap_or(u64::MAX)
    }

    fn record(&self, probe: bool, ok: bool, now: Instant) {
        if self.stats.breaker() == BreakerState::Off {
            return;
        }
        if ok {
            self.failures.store(0, Ordering::Relaxed);
            let before = self.stats.breaker();
            if before != BreakerState::Closed
                && self.stats.swap_breaker(before, BreakerState::Closed)
            {
                self.stats.breaker_closed.fetch_add(1, Ordering::Relaxed);
                tracing::info!(subscriber = %self.name(), "circuit breaker closed: the subscriber answers again");
            }
            return;
        }
        if probe {
            self.open(BreakerState::HalfOpen, now);
            return;
        }
        let failures = self
            .failures
            .fetch_add(1, Ordering::Relaxed)
            .saturating_add(1);
        if failures >= self.config.failures {
            self.open(BreakerState::Closed, now);
        }
    }

    /// Opens the breaker if it is still `from`.
    fn open(&self, from: BreakerState, now: Instant) {
        if self.stats.breaker() != from {
            return;
        }
        self.opened_at_us.store(self.micros(now), Ordering::Release);
        if self.stats.swap_breaker(from, BreakerState::Open) {
            self.failures.store(0, Ordering::Relaxed);
            self.stats.breaker_opened.fetch_add(1, Ordering::Relaxed);
            if from == BreakerState::Closed {
                tracing::warn!(
                    subscriber = %self.name(),
                    failures = self.config.failures,
                    cooldown_ms = self.config.cooldown.as_millis(),
                    "circuit breaker open: consecutive failures; on_error applies without calling until a probe succeeds"
                );
            }
        }
    }

    fn name(&self) -> &str {
        &self.name
    }
}

#[cfg(test)]
mod tests;
