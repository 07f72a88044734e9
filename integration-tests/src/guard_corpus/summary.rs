//! Rates per category of a run: how many dangerous commands passed, how
//! many ordinary ones were stopped, and the guard's slowest time.

use std::collections::BTreeMap;
use std::time::Duration;

use super::corpus::Kind;
use super::run::{Outcome, Verdict};

/// One category's figures (or a total's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub commands: usize,
    /// Results the guard got wrong: passed (dangerous) or stopped (ordinary).
    pub wrong: usize,
    /// Of the stopped ordinary ones, how many were asks rather than denies.
    pub asked: usize,
    pub slowest: Duration,
}

impl Tally {
    fn add(&mut self, outcome: &Outcome) {
        self.commands += 1;
        if outcome.wrong() {
            self.wrong += 1;
            if outcome.verdict == Verdict::Ask {
                self.asked += 1;
            }
        }
        self.slowest = self.slowest.max(outcome.guard_time);
    }

    /// `wrong` of `commands`, in percent.
    pub fn rate(&self) -> f64 {
        if self.commands == 0 {
            0.0
        } else {
            self.wrong as f64 * 100.0 / self.commands as f64
        }
    }
}

/// A run's figures.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Dangerous categories, in scope first then `out-of-scope:*`, by name.
    pub dangerous: BTreeMap<(bool, String), Tally>,
    pub ordinary: BTreeMap<String, Tally>,
    /// Every in-scope dangerous row.
    pub dangerous_total: Tally,
    pub ordinary_total: Tally,
    pub out_of_scope_total: Tally,
}

impl Summary {
    pub fn of(outcomes: &[Outcome]) -> Summary {
        let mut summary = Summary::default();
        for outcome in outcomes {
            let row = &outcome.row;
            match row.kind {
                Kind::Dangerous => {
                    summary
                        .dangerous
                        .entry((!row.counted(), row.category.clone()))
                        .or_default()
                        .add(outcome);
                    if row.counted() {
                        summary.dangerous_total.add(outcome);
                    } else {
                        summary.out_of_scope_total.add(outcome);
                    }
                }
                Kind::Ordinary => {
                    summary
                        .ordinary
                        .entry(row.category.clone())
                        .or_default()
                        .add(outcome);
                    summary.ordinary_total.add(outcome);
                }
            }
        }
        summary
    }
}
