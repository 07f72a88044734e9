//! One work budget per guard call: every parse (nested ones too), tree
//! node, command, scope copy, expansion and pattern search draws from it,
//! and a deadline, when the caller gives one, is checked as it is drawn.
//! A call that runs out is "too complex to check", which the guard denies.
//!
//! Units are roughly "a byte or a node looked at": a megabyte-long
//! ordinary line costs about a million, a typical command line a few
//! hundred. The budget makes the guard's cost per call a constant, whatever
//! the input does (nested `eval`s of growing strings, loops over loops).
//!
//! A caller may first try a call with a smaller budget and a short
//! deadline (the gateway's inline attempt on its async worker) and retry
//! with the full ones only when those ran out: [`Budget::spent`] tells
//! that apart from every other stop (a bound), which is final whatever the
//! budget. The clock is read often enough that a short deadline holds
//! within a few tens of microseconds of work.

use std::time::Instant;

/// Work units one call may use.
pub const MAX_WORK: u64 = 4_000_000;

/// Work units of a first attempt on the caller's own thread
/// ([`crate::Guard::try_within`], [`crate::protect::Protection::try_decide`]):
/// a typical line uses a few hundred; a line whose globs or unknown
/// directories have the secret rules' lazy DFAs build thousands of states
/// (`wc -l src/**/*.ts`: about two hundred thousand, over ten
/// milliseconds in full) goes to the full budget elsewhere. Units are not
/// all alike in time (a byte the parser recovers from an error costs far
/// more than a pattern step), so the caller bounds the attempt's time with
/// its deadline too, which binds first on this many units (the gateway's
/// `builtin::bounded` states the measured times).
pub const INLINE_WORK: u64 = 131_072;

/// How often (in units) the clock is read against the deadline: a few
/// tens of microseconds of the costliest units.
const CLOCK_EVERY: u64 = 256;

/// A call tried with `work` units (at most [`MAX_WORK`]) until `until`:
/// `call` walks with the units it is given and says whether they (or the
/// time) ran out first. Its answer, unless they did: every answer given
/// is the full call's, and with all of [`MAX_WORK`] and no deadline every
/// answer is final.
pub(crate) fn attempt<T>(
    work: u64,
    until: Option<Instant>,
    call: impl FnOnce(u64) -> (T, bool),
) -> Option<T> {
    let work = work.min(MAX_WORK);
    let (answer, spent) = call(work);
    let full = work == MAX_WORK && until.is_none();
    (!spent || full).then_some(answer)
}

/// What stopped a call: the text given to the agent.
pub(crate) type Exceeded = &'static str;

/// The work and time one call may still use.
#[derive(Debug)]
pub(crate) struct Budget {
    left: u64,
    deadline: Option<Instant>,
    until_clock: u64,
    exceeded: Option<Exceeded>,
    /// The first stop was the work or the time running out (not a bound).
    spent: bool,
}

impl Budget {
    pub(crate) fn new(work: u64, deadline: Option<Instant>) -> Budget {
        Budget {
            left: work,
            deadline,
            // The first charge reads the clock: a call that starts late stops.
            until_clock: 0,
            exceeded: None,
            spent: false,
        }
    }

    #[cfg(test)]
    pub(crate) fn unlimited() -> Budget {
        Budget::new(u64::MAX, None)
    }

    /// The units not drawn yet.
    pub(crate) fn left(&self) -> u64 {
        self.left
    }

    /// Draws `units`; `false` (and from then on) once the work or the time
    /// is used up.
    pub(crate) fn charge(&mut self, units: usize) -> bool {
        if self.exceeded.is_some() {
            return false;
        }
        let units = u64::try_from(units).unwrap_or(u64::MAX);
        match self.left.checked_sub(units) {
            Some(left) => self.left = left,
            None => {
                self.spent = true;
                self.fail(
                    "the command line is too complex to check (over the guard's work budget)",
                );
                return false;
            }
        }
        if units >= self.until_clock {
            self.until_clock = CLOCK_EVERY;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.spent = true;
                self.fail("the command line took longer than the guard's deadline to check");
                return false;
            }
        } else {
            self.until_clock -= units;
        }
        true
    }

    /// Stops the call for another bound (nesting, length, ...).
    pub(crate) fn fail(&mut self, why: Exceeded) {
        self.exceeded.get_or_insert(why);
    }

    pub(crate) fn ok(&self) -> bool {
        self.exceeded.is_none()
    }

    /// Why the call was stopped, if it was.
    pub(crate) fn exceeded(&self) -> Option<Exceeded> {
        self.exceeded
    }

    /// Stops the call for its time: a parse past the deadline.
    pub(crate) fn overran(&mut self, why: Exceeded) {
        self.spent |= self.exceeded.is_none();
        self.fail(why);
    }

    /// Whether the call stopped because its work or its time ran out, and
    /// for no other reason first: a larger budget could have answered it.
    pub(crate) fn spent(&self) -> bool {
        self.spent
    }

    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_out_stops_for_good() {
        let mut budget = Budget::new(10, None);
        assert!(budget.charge(6));
        assert!(!budget.charge(6));
        assert!(!budget.charge(0));
        assert!(budget.exceeded().unwrap().contains("work budget"));
        assert!(budget.spent());
        let mut late = Budget::new(u64::MAX, Some(Instant::now()));
        assert!(!late.charge(usize::MAX));
        assert!(late.exceeded().unwrap().contains("deadline"));
        assert!(late.spent());
        // Another bound first: running out afterwards does not change why.
        let mut bound = Budget::new(10, None);
        bound.fail("the command line is too long to check");
        assert!(!bound.charge(20));
        assert!(!bound.spent());
    }
}
