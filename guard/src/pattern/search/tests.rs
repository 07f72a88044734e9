//! The search's charges: the states the lazy DFAs build are work the
//! budget runs out of, as much as the steps.

use super::*;
use crate::pattern::{glob, items};

/// Each part of `automata` searched for `items` on one budget: the
/// answers, and the bytes the parts' caches grew by in all.
fn search_all(
    automata: &Automata,
    items: &[Item],
    budget: &mut Budget,
) -> (Option<Vec<(bool, bool)>>, usize) {
    let mut grown = 0;
    let mut answers = Vec::new();
    for part in &automata.parts {
        let mut caches = Caches::new(&part.regex, automata.unless.as_ref());
        let search = Search {
            part,
            unless: automata.unless.as_ref(),
        };
        let found = search.run(items, &mut caches, budget);
        grown += caches.charged;
        match found {
            Some(found) => answers.push(found),
            None => return (None, grown),
        }
    }
    (Some(answers), grown)
}

#[test]
fn the_states_a_glob_has_built_are_charged_and_stop_a_small_budget() {
    let automata = Automata::build(
        r"(^|/)(\.env(\.[^/]*)?|id_(rsa|ed25519)|\.aws/credentials|[^/]*\.(pem|key))$",
        Some(r"(^|/)\.env\.example$"),
        false,
    )
    .expect("the rule compiles");
    let word = items(&glob("src/**/.[!.]*.[kK][eE][yY]"), false);
    let mut full = Budget::unlimited();
    let (answer, grown) = search_all(&automata, &word, &mut full);
    let answer = answer.expect("answered in full");
    assert!(answer.iter().any(|(some, _)| *some), "a `.key` file");
    let used = u64::MAX - full.left();
    // What the states cost is most of the work: each charge rounds up,
    // so they were charged at least this many units.
    let built = u64::try_from(grown / BYTES_PER_UNIT).expect("fits");
    assert!(built > used / 2, "{built} of {used} units");
    // A budget with room for every step but not for the states stops
    // the search, as run out of work; the units it needs answer it.
    let mut small = Budget::new(used - built, None);
    assert_eq!(search_all(&automata, &word, &mut small).0, None);
    assert!(small.spent());
    let mut enough = Budget::new(used, None);
    assert_eq!(search_all(&automata, &word, &mut enough).0, Some(answer));
}
