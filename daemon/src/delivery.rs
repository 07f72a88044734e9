//! What became of a reply: did the agent get the decision, or the shim's
//! own fail-mode answer instead?
//!
//! A reply can miss the agent two ways: the shim's deadline passes first
//! (it answers by its fail mode and exits), or the agent kills the shim
//! (its own hook timeout). The decision log must say which calls the agent
//! really got (issue #25: it said `deny` for calls that ran), so the
//! gateway learns each reply's fate from the shim: the shim sends its
//! deadline with the request (`hookgate_wire::DEADLINE_VAR`) and, once it
//! has written the reply for the agent, an acknowledgement frame
//! (`FrameKind::Ack`). A failed write, or the connection closing without
//! the acknowledgement, means the shim never passed the reply on.
//! `classify` turns those facts into a [`Delivery`].

use std::time::Instant;

/// What became of a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// The shim acknowledged it wrote the reply for the agent.
    Delivered,
    /// Handed over, but nothing confirms the agent got it: an HTTP hook's
    /// response, or a shim too old to acknowledge.
    Unconfirmed,
    /// Ready only after the shim's deadline: the shim had already answered
    /// by its fail mode (the record's `fail_mode`).
    Late,
    /// The shim was gone before the reply reached it (the agent killed it,
    /// or it died): the agent did not get this decision.
    Gone,
}

impl Delivery {
    pub fn as_str(self) -> &'static str {
        match self {
            Delivery::Delivered => "delivered",
            Delivery::Unconfirmed => "unconfirmed",
            Delivery::Late => "late",
            Delivery::Gone => "gone",
        }
    }

    /// Did the agent get the decision (as far as anyone can tell)?
    pub fn reached_agent(self) -> bool {
        matches!(self, Delivery::Delivered | Delivery::Unconfirmed)
    }
}

/// What the shim said of itself and what happened to the reply.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Handover {
    /// When the shim answers by itself, if it said.
    pub(crate) deadline: Option<Instant>,
    /// The reply was ready (the decision made) at this instant.
    pub(crate) ready: Instant,
    /// The reply frame was written whole.
    pub(crate) written: bool,
    /// The shim acknowledged it (`None`: it is not one that does).
    pub(crate) acknowledged: Option<bool>,
    /// When the shim's end closed without an acknowledgement, if it did.
    pub(crate) closed_at: Option<Instant>,
}

/// How close to its deadline a shim that closed is taken to have given up
/// at the deadline rather than been killed: the clocks of two processes and
/// the poll's wake-up differ by a few milliseconds.
const AT_THE_DEADLINE: std::time::Duration = std::time::Duration::from_millis(20);

/// The reply's fate from what the gateway saw.
pub(crate) fn classify(handover: &Handover) -> Delivery {
    if handover.written {
        match handover.acknowledged {
            Some(true) => return Delivery::Delivered,
            None => return Delivery::Unconfirmed,
            Some(false) => {}
        }
    }
    let Some(deadline) = handover.deadline else {
        // An old shim that could not take the reply: it is gone.
        return Delivery::Gone;
    };
    let gave_up_at_deadline = handover.ready >= deadline
        || handover
            .closed_at
            .is_some_and(|closed| closed + AT_THE_DEADLINE >= deadline);
    if gave_up_at_deadline {
        Delivery::Late
    } else {
        Delivery::Gone
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_fate_follows_from_what_was_seen() {
        let now = Instant::now();
        let deadline = now + Duration::from_secs(5);
        let base = Handover {
            deadline: Some(deadline),
            ready: now,
            written: true,
            acknowledged: Some(true),
            closed_at: None,
        };
        let cases = [
            (base, Delivery::Delivered),
            (
                Handover {
                    deadline: None,
                    acknowledged: None,
                    ..base
                },
                Delivery::Unconfirmed,
            ),
            // Ready in time, then no acknowledgement: killed by the agent.
            (
                Handover {
                    acknowledged: Some(false),
                    closed_at: Some(now + Duration::from_millis(3)),
                    ..base
                },
                Delivery::Gone,
            ),
            // The shim closed at its deadline: it answered by itself.
            (
                Handover {
                    acknowledged: Some(false),
                    closed_at: Some(deadline),
                    ..base
                },
                Delivery::Late,
            ),
            // Ready after the deadline, the write failed.
            (
                Handover {
                    ready: deadline + Duration::from_millis(1),
                    written: false,
                    acknowledged: Some(false),
                    ..base
                },
                Delivery::Late,
            ),
            // Written, and acknowledged although late by our clock.
            (
                Handover {
                    ready: deadline + Duration::from_millis(1),
                    ..base
                },
                Delivery::Delivered,
            ),
            // An old shim whose connection broke.
            (
                Handover {
                    deadline: None,
                    written: false,
                    acknowledged: None,
                    ..base
                },
                Delivery::Gone,
            ),
        ];
        for (handover, want) in cases {
            assert_eq!(classify(&handover), want, "{handover:?}");
        }
        assert!(Delivery::Delivered.reached_agent() && Delivery::Unconfirmed.reached_agent());
        assert!(!Delivery::Late.reached_agent() && !Delivery::Gone.reached_agent());
    }
}
