//! One budget for the bytes the gateway holds in flight, so memory is
//! bounded by bytes, not by counts.
//!
//! Every request reserves, before its body is even allocated, what it will
//! cost while it lives: the frame itself and everything derived from it
//! (the parsed event, the encoded proto event, the audit line), as
//! [`COST_FACTOR`] times the body plus [`COST_FIXED`]. The reservation
//! travels with the payload ([`Payload`]), so bytes queued for observers or
//! the audit log stay charged until the last of them lets go. A request
//! that does not fit is refused at once (the shim applies its fail mode),
//! never queued.

use std::ops::Deref;
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// What one request costs per byte of its body: the body, the parsed
/// event (tool input and strings), the proto event (`raw_json` plus the
/// tool's `input_json`) and the audit line, each about the payload's size.
pub(crate) const COST_FACTOR: usize = 4;
/// What one request costs besides: buffers, the event's fixed fields.
pub(crate) const COST_FIXED: usize = 16 * 1024;
/// Reservations are counted in units of this many bytes (a semaphore's
/// permits are `u32` per acquisition).
const UNIT: usize = 1024;

/// The shared budget. Cloning shares it.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    units: Arc<Semaphore>,
}

/// Bytes reserved from a [`Budget`], returned when dropped.
#[derive(Debug)]
pub struct Reservation {
    _permit: OwnedSemaphorePermit,
}

impl Budget {
    /// A budget of `bytes` (at least one request's worth).
    pub(crate) fn new(bytes: usize) -> Budget {
        let units = (bytes / UNIT).clamp(1, Semaphore::MAX_PERMITS);
        Budget {
            units: Arc::new(Semaphore::new(units)),
        }
    }

    /// Reserves what a request with a body of `body_len` bytes costs, or
    /// `None` when that does not fit now.
    pub(crate) fn try_reserve_request(&self, body_len: usize) -> Option<Reservation> {
        self.try_reserve(
            body_len
                .saturating_mul(COST_FACTOR)
                .saturating_add(COST_FIXED),
        )
    }

    /// Reserves `bytes`, or `None` when they do not fit now.
    pub(crate) fn try_reserve(&self, bytes: usize) -> Option<Reservation> {
        let units = u32::try_from(bytes.div_ceil(UNIT)).ok()?;
        let permit = Arc::clone(&self.units).try_acquire_many_owned(units).ok()?;
        Some(Reservation { _permit: permit })
    }
}

/// A hook payload and the budget it holds: shared by everything derived
/// from one request, so the bytes are charged until the last user is done.
#[derive(Debug)]
pub struct Payload {
    bytes: Vec<u8>,
    _reservation: Option<Reservation>,
}

impl Payload {
    pub fn new(bytes: Vec<u8>, reservation: Option<Reservation>) -> Payload {
        Payload {
            bytes,
            _reservation: reservation,
        }
    }
}

impl From<Vec<u8>> for Payload {
    /// A payload charged to no budget (tests, in-process callers).
    fn from(bytes: Vec<u8>) -> Payload {
        Payload::new(bytes, None)
    }
}

impl Deref for Payload {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Budget {
        /// Bytes reserved right now, from a budget of `total` bytes.
        fn in_use(&self, total: usize) -> usize {
            total - self.units.available_permits() * UNIT
        }
    }

    #[test]
    fn reservations_are_bounded_and_returned() {
        let budget = Budget::new(100 * UNIT);
        let a = budget.try_reserve(60 * UNIT).unwrap();
        assert!(budget.try_reserve(50 * UNIT).is_none(), "over the budget");
        let b = budget.try_reserve(40 * UNIT).unwrap();
        assert_eq!(budget.in_use(100 * UNIT), 100 * UNIT);
        drop(a);
        assert_eq!(budget.in_use(100 * UNIT), 40 * UNIT);
        let payload = Arc::new(Payload::new(vec![1, 2], Some(b)));
        let shared = Arc::clone(&payload);
        drop(payload);
        assert_eq!(budget.in_use(100 * UNIT), 40 * UNIT, "held while shared");
        assert_eq!(&shared[..], [1, 2]);
        drop(shared);
        assert_eq!(budget.in_use(100 * UNIT), 0);
    }

    #[test]
    fn a_request_costs_a_multiple_of_its_body() {
        let budget = Budget::new(COST_FACTOR * 1024 * UNIT + COST_FIXED);
        let reserved = budget.try_reserve_request(1024 * UNIT).unwrap();
        assert!(budget.try_reserve_request(0).is_none());
        drop(reserved);
        assert!(
            budget.try_reserve_request(usize::MAX).is_none(),
            "never wraps"
        );
    }
}
