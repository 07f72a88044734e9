//! Tests of the circuit breaker: opening after consecutive failures, one
//! probe while half-open, closing again, and turned off.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::{Attempt, Breaker};
use crate::metrics::{BreakerState, SubscriberStats};
use hookgate_config::BreakerConfig;

const COOLDOWN: Duration = Duration::from_secs(60);

fn breaker(failures: u32) -> (Arc<Breaker>, Arc<SubscriberStats>) {
    let stats = Arc::new(SubscriberStats::default());
    let config = BreakerConfig {
        failures,
        cooldown: COOLDOWN,
    };
    (Breaker::new("s", config, Arc::clone(&stats)), stats)
}

/// Admits at `at` and finishes the call with `ok`; false when skipped.
fn call(breaker: &Arc<Breaker>, at: Instant, ok: bool) -> bool {
    match breaker.admit_at(at) {
        Attempt::Call(permit) => {
            permit.finish(ok);
            true
        }
        Attempt::Skip => false,
    }
}

#[test]
fn opens_after_consecutive_failures_probes_once_and_closes() {
    let (breaker, stats) = breaker(3);
    let later = || Instant::now() + COOLDOWN + Duration::from_secs(1);
    // (call at: cooled down?, outcome, called?, state after)
    let steps = [
        (false, false, true, BreakerState::Closed),
        (false, false, true, BreakerState::Closed),
        // A success resets the count.
        (false, true, true, BreakerState::Closed),
        (false, false, true, BreakerState::Closed),
        (false, false, true, BreakerState::Closed),
        (false, false, true, BreakerState::Open),
        // Open: skipped until the cool-down is over.
        (false, true, false, BreakerState::Open),
        // The probe fails: open for another cool-down.
        (true, false, true, BreakerState::Open),
        (false, true, false, BreakerState::Open),
        // The probe succeeds: closed.
        (true, true, true, BreakerState::Closed),
        (false, true, true, BreakerState::Closed),
    ];
    for (i, (cooled, ok, called, state)) in steps.into_iter().enumerate() {
        let at = if cooled { later() } else { Instant::now() };
        assert_eq!(call(&breaker, at, ok), called, "step {i}");
        assert_eq!(stats.breaker(), state, "step {i}");
    }
    assert_eq!(stats.breaker_open.load(Ordering::Relaxed), 2);
    assert_eq!(stats.breaker_opened.load(Ordering::Relaxed), 2);
    assert_eq!(stats.breaker_closed.load(Ordering::Relaxed), 1);
}

#[test]
fn half_open_lets_exactly_one_probe_through() {
    let (breaker, stats) = breaker(1);
    assert!(call(&breaker, Instant::now(), false));
    assert_eq!(stats.breaker(), BreakerState::Open);
    let later = Instant::now() + COOLDOWN;
    let probe = breaker.admit_at(later);
    assert!(matches!(probe, Attempt::Call(_)));
    assert_eq!(stats.breaker(), BreakerState::HalfOpen);
    for _ in 0..10 {
        assert!(matches!(breaker.admit_at(later), Attempt::Skip));
    }
    // An abandoned probe (its call dropped) counts as failed.
    drop(probe);
    assert_eq!(stats.breaker(), BreakerState::Open);
    assert_eq!(stats.breaker_open.load(Ordering::Relaxed), 10);
}

#[test]
fn zero_failures_turns_it_off() {
    let (breaker, stats) = breaker(0);
    for _ in 0..100 {
        assert!(call(&breaker, Instant::now(), false));
    }
    assert_eq!(stats.breaker(), BreakerState::Off);
    assert_eq!(stats.breaker_opened.load(Ordering::Relaxed), 0);
}
