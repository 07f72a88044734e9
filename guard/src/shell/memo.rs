//! The last line parsed on this thread, for the next check of the same
//! call: the guard and self-protection each parse a shell call's command,
//! one after the other on the worker that holds the call
//! (`builtin::bounded` in the daemon), and the parse was the largest part
//! of either (issue #33). A parse depends only on the line and its
//! [`Place`], so the second check is given a copy of the first's result
//! and charged the units the parse drew: its budget ends where a parse of
//! its own would have, and a budget too small for them parses afresh, to
//! stop exactly where that parse stops.
//!
//! Only a parse that finished within its budget is kept, and only of a
//! line of at most [`MAX_KEPT_LINE`] bytes: a thread holds one short line
//! and its commands, whatever the calls.

use std::cell::RefCell;

use super::{Parsed, Place};
use crate::budget::Budget;

/// The longest line kept (ordinary command lines are far shorter).
const MAX_KEPT_LINE: usize = 8 * 1024;

struct Kept {
    line: String,
    cwd: Option<String>,
    home: Option<String>,
    fold: bool,
    units: u64,
    parsed: Parsed,
}

impl Kept {
    fn is_for(&self, line: &str, place: Place<'_>) -> bool {
        self.line == line
            && self.cwd.as_deref() == place.cwd
            && self.home.as_deref() == place.home
            && self.fold == place.fold
    }
}

thread_local! {
    static LAST: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// The kept parse of `line` at `place`, its units drawn from `budget`,
/// if one is kept and `budget` has them.
pub(super) fn recall(line: &str, place: Place<'_>, budget: &mut Budget) -> Option<Parsed> {
    let (parsed, units) = LAST.with_borrow(|last| {
        let kept = last.as_ref().filter(|k| k.is_for(line, place))?;
        (budget.left() >= kept.units).then(|| (kept.parsed.clone(), kept.units))
    })?;
    // Within the units, so only the deadline can stop it, as it would
    // have stopped the parse.
    budget.charge(usize::try_from(units).unwrap_or(usize::MAX));
    Some(parsed)
}

/// Keeps `parsed`, the parse of `line` at `place` that drew `units`.
pub(super) fn keep(line: &str, place: Place<'_>, units: u64, parsed: &Parsed) {
    if line.len() > MAX_KEPT_LINE {
        return;
    }
    LAST.with_borrow_mut(|last| {
        *last = Some(Kept {
            line: line.to_owned(),
            cwd: place.cwd.map(str::to_owned),
            home: place.home.map(str::to_owned),
            fold: place.fold,
            units,
            parsed: parsed.clone(),
        });
    });
}

#[cfg(test)]
mod tests {
    use super::super::{parse, parse_afresh};
    use super::*;

    fn place(cwd: &str) -> Place<'_> {
        Place {
            cwd: Some(cwd),
            home: Some("/home/dev"),
            fold: false,
        }
    }

    #[test]
    fn a_second_parse_of_a_line_is_the_first_and_costs_as_much() {
        let line = "cd src && rm -rf build ~/.cache/x | tee log";
        let (mut first, mut second) = (Budget::unlimited(), Budget::unlimited());
        let fresh = parse(line, place("/p"), &mut first);
        // Kept: a recall gives it, charged what the parse drew.
        let mut probe = Budget::unlimited();
        let kept = recall(line, place("/p"), &mut probe).expect("the parse was kept");
        assert_eq!(kept.commands, fresh.commands);
        assert_eq!(probe.left(), first.left());
        let recalled = parse(line, place("/p"), &mut second);
        assert_eq!(recalled.commands, fresh.commands);
        assert_eq!(recalled.unparsed, fresh.unparsed);
        assert_eq!(second.left(), first.left());
        assert!(first.left() < u64::MAX);
        // Elsewhere, the line is another line.
        let mut third = Budget::unlimited();
        let moved = parse(line, place("/q"), &mut third);
        assert_eq!(moved.commands[1].cwd, "/q/src");
        assert_eq!(fresh.commands[1].cwd, "/p/src");
    }

    #[test]
    fn a_budget_short_of_the_kept_units_stops_where_a_parse_would() {
        let line = "for f in a b c; do echo \"$f\" > \"out/$f\"; done; git status";
        let mut full = Budget::unlimited();
        parse(line, place("/p"), &mut full);
        let used = u64::MAX - full.left();
        let mut short = Budget::new(used - 1, None);
        let mut alone = Budget::new(used - 1, None);
        parse(line, place("/p"), &mut short);
        parse_afresh(line, place("/p"), &mut alone);
        assert!(short.spent() && alone.spent());
        assert_eq!(short.exceeded(), alone.exceeded());
        assert_eq!(short.left(), alone.left());
    }
}
