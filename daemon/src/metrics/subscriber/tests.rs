//! Tests of one subscriber's counters: errors by kind and in total, which
//! source owns its state, answers by permission.

use super::*;

#[test]
fn errors_count_by_kind_and_in_total() {
    let stats = SubscriberStats::default();
    stats.error(ErrorKind::Connect);
    stats.error(ErrorKind::BadReply);
    stats.error(ErrorKind::BadReply);
    assert_eq!(stats.errors.load(Ordering::Relaxed), 3);
    assert_eq!(stats.errors_connect.load(Ordering::Relaxed), 1);
    assert_eq!(stats.errors_status.load(Ordering::Relaxed), 0);
    assert_eq!(stats.errors_bad_reply.load(Ordering::Relaxed), 2);
}

#[test]
fn health_checks_own_the_state_once_they_answer() {
    let stats = SubscriberStats::default();
    assert_eq!(
        (stats.state(), stats.source()),
        (State::Unknown, StateSource::None)
    );
    stats.call_outcome(false);
    assert_eq!(
        (stats.state(), stats.source()),
        (State::Down, StateSource::LastCall)
    );
    stats.set_state(State::Up, StateSource::Health);
    stats.call_outcome(false);
    assert_eq!(
        (stats.state(), stats.source()),
        (State::Up, StateSource::Health)
    );
}

#[test]
fn answers_count_by_permission() {
    let stats = SubscriberStats::default();
    stats.answered(Permission::Deny);
    stats.answered(Permission::Unspecified);
    assert_eq!(stats.ok.load(Ordering::Relaxed), 2);
    assert_eq!(stats.deny.load(Ordering::Relaxed), 1);
    assert_eq!(stats.allow.load(Ordering::Relaxed), 0);
}
