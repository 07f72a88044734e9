//! Shadow subscribers (`mode = "shadow"`): asked like deciders, under
//! their deadline, but off the hook path and never merged. What each would
//! have decided is counted (`would_allow`, `would_ask`, `would_deny`), so
//! a new policy can be watched on real traffic before it is enforced.
//!
//! Each event's call runs as its own task, started as the real deciders
//! are, so a shadow never delays a reply. Calls in flight per subscriber
//! are bounded: past the bound an event is a counted drop, never a wait.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use tokio::sync::Semaphore;
use tokio_util::task::TaskTracker;

use super::Decider;
use crate::builtin::Call;
use crate::convert::ProtoEvent;
use crate::hold::HoldLine;

/// Calls one shadow subscriber may have in flight.
const IN_FLIGHT: usize = 64;

/// The hook path's handle on one shadow subscriber.
#[derive(Debug)]
pub(crate) struct Shadow {
    decider: Arc<Decider>,
    slots: Arc<Semaphore>,
    /// Shutdown waits for calls in flight (each bounded by its deadline).
    tracker: TaskTracker,
}

impl Shadow {
    pub(crate) fn new(decider: Decider, tracker: &TaskTracker) -> Shadow {
        Shadow {
            decider: Arc::new(decider),
            slots: Arc::new(Semaphore::new(IN_FLIGHT)),
            tracker: tracker.clone(),
        }
    }

    pub(crate) fn decider(&self) -> &Decider {
        &self.decider
    }

    /// Starts the call for `call`'s event; never waits.
    pub(crate) fn offer(&self, call: &Call<'_>, proto: &Arc<ProtoEvent>) {
        let stats = self.decider.stats();
        let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() else {
            stats.drops.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let (decider, proto) = (Arc::clone(&self.decider), Arc::clone(proto));
        let (event, id, payload, received, caller) = (
            Arc::clone(call.event),
            call.id.to_owned(),
            Arc::clone(call.payload),
            call.received,
            Arc::clone(call.caller),
        );
        self.tracker.spawn(async move {
            let hold = HoldLine::none();
            let call = Call {
                event: &event,
                id: &id,
                payload: &payload,
                received,
                caller: &caller,
                // Never waited for: only its own deadline bounds it.
                deadline: None,
                hold: &hold,
            };
            let decision = decider.decide(&call, proto).await;
            decider.stats().would(decision.permission);
            tracing::debug!(
                subscriber = %decider.name,
                would = ?decision.permission,
                "shadow decision (not merged)"
            );
            drop(permit);
        });
    }
}
