//! The guard's work is bounded: lines built to make it slow (strings that
//! double, loops over loops, code that evals itself, nested subshells over
//! many variables) run out of the budget or a bound and are denied as too
//! complex to check, as is a call past its deadline. A first attempt on a
//! smaller budget (`try_within`) gives up on exactly those that need more
//! than it has, and otherwise answers as the full call does.

use std::time::Instant;

use hookgate_adapters::Permission;
use regex::Regex;

use super::shell;
use crate::facts::Access;
use crate::rules::PathRule;
use crate::{Action, Guard, INLINE_WORK, MAX_LINE_BYTES, MAX_WORK, Matcher, Rule};

/// Variables that each hold the one before twice: `v39` would be
/// 2^39 bytes. The line is under a kilobyte.
pub(crate) fn doubling(levels: usize) -> String {
    let mut line = String::from("v0=xxxxxxxx; ");
    for i in 1..levels {
        line.push_str(&format!("v{i}=\"$v{}$v{}\"; ", i - 1, i - 1));
    }
    line.push_str(&format!("( ( ( eval \"echo $v{}\" ) ) )", levels - 1));
    line
}

/// Many variables, then subshells nested inside each other, each with an
/// `eval` of all of them: the shape that made the old walk cubic.
pub(crate) fn nested_evals(vars: usize, depth: usize) -> String {
    let mut line = String::new();
    for i in 0..vars {
        line.push_str(&format!("v{i}=/tmp/{i}; "));
    }
    let all: String = (0..vars).map(|i| format!("$v{i} ")).collect();
    for _ in 0..depth {
        line.push_str(&format!("( eval \"ls {all}\"; "));
    }
    line.push_str(&")".repeat(depth));
    line
}

#[test]
fn hostile_lines_are_denied_as_too_complex() {
    let guard = Guard::new(Vec::new());
    let loops = {
        let values: String = (0..30).map(|i| format!("{i} ")).collect();
        let mut line = String::from("true");
        for var in ["a", "b", "c", "d"] {
            line = format!("for {var} in {values}; do {line}; done");
        }
        line
    };
    for line in [
        doubling(40),
        format!("{} {}", doubling(30), nested_evals(100, 20)),
        loops,
        "s='eval \"$s\"'; eval \"$s\"".to_owned(),
        "f() { f; }; f".to_owned(),
    ] {
        let started = Instant::now();
        let verdict = guard.decide_within(&shell(&line), None);
        let reason = verdict.decision.reason.clone().unwrap_or_default();
        assert!(verdict.too_complex, "{line:.80}: {reason}");
        assert_eq!(verdict.decision.permission, Permission::Deny, "{line:.80}");
        assert!(reason.contains("cannot check"), "{reason}");
        // Not a timing assertion: shows the cost in `--nocapture` runs.
        eprintln!("{:?} {line:.60}", started.elapsed());
    }
}

#[test]
fn a_call_past_its_deadline_is_denied() {
    let guard = Guard::new(Vec::new());
    let verdict = guard.decide_within(&shell(&nested_evals(50, 5)), Some(Instant::now()));
    assert!(verdict.too_complex);
    assert!(
        verdict
            .decision
            .reason
            .unwrap_or_default()
            .contains("deadline"),
        "the reason says which bound"
    );
}

#[test]
fn ordinary_lines_fit_with_room_to_spare() {
    let guard = Guard::new(Vec::new());
    let heredoc = format!(
        "cat > notes.txt <<'EOF'\n{}EOF",
        "some text line\n".repeat(60_000)
    );
    let long_comment = format!("ls # {}", "x".repeat(900_000));
    // The shape that made the old walk cubic is linear now: checked in
    // full, not refused.
    for line in [heredoc, long_comment, nested_evals(200, 40)] {
        let verdict = guard.decide_within(&shell(&line), None);
        assert!(
            !verdict.too_complex,
            "{:.60}: {:?}",
            line, verdict.decision.reason
        );
    }
}

/// The fewest units with which a first attempt at `line` answers (it gives
/// up with any fewer), found by bisection; `None` past [`MAX_WORK`].
fn units_needed(guard: &Guard, line: &str) -> Option<u64> {
    let event = shell(line);
    guard.try_within(&event, MAX_WORK - 1, None)?;
    let (mut low, mut high) = (0, MAX_WORK - 1);
    while low + 1 < high {
        let mid = low + (high - low) / 2;
        match guard.try_within(&event, mid, None) {
            Some(_) => high = mid,
            None => low = mid,
        }
    }
    Some(high)
}

#[test]
fn a_small_attempt_gives_up_exactly_when_its_units_run_out() {
    let guard = Guard::new(Vec::new());
    for line in [
        "ls -la src",
        "cd web && npm ci && npm test -- --watch=false",
        "for f in *.rs; do rustfmt \"$f\"; done",
        "x=$(git rev-parse HEAD); git log -1 \"$x\" | head -5",
        "sh -c 'eval \"echo hi\"'",
    ] {
        let full = guard.decide_within(&shell(line), None);
        let needed = units_needed(&guard, line).expect("an ordinary line fits the full budget");
        assert!(needed <= INLINE_WORK, "{line}: {needed} units");
        // With the units it needs, the attempt answers as the full call;
        // with one fewer (or far fewer) it does not answer at all.
        let answer = guard
            .try_within(&shell(line), needed, None)
            .expect("answered");
        assert_eq!(
            (answer.decision, answer.hit, answer.too_complex),
            (full.decision, full.hit, full.too_complex),
            "{line}"
        );
        for fewer in [needed - 1, needed / 2, 1] {
            assert!(
                guard.try_within(&shell(line), fewer, None).is_none(),
                "{line}: {fewer}"
            );
        }
    }
}

#[test]
fn lines_past_the_small_budget_are_answered_in_full() {
    let guard = Guard::new(Vec::new());
    let comment = format!(
        "ls # {}",
        "x".repeat(usize::try_from(INLINE_WORK).unwrap_or(0))
    );
    for (line, too_complex) in [
        (doubling(40), true),
        (nested_evals(200, 40), false),
        (comment, false),
    ] {
        assert!(
            guard.try_within(&shell(&line), INLINE_WORK, None).is_none(),
            "{line:.60}"
        );
        let full = guard.decide_within(&shell(&line), None);
        assert_eq!(full.too_complex, too_complex, "{line:.60}");
    }
}

#[test]
fn a_bound_that_is_not_the_small_budget_is_final() {
    let guard = Guard::new(Vec::new());
    // Too long to look at: refused before any work, whatever the budget.
    let long = shell(&"a".repeat(MAX_LINE_BYTES + 1));
    let first = guard.try_within(&long, INLINE_WORK, None).expect("final");
    let full = guard.decide_within(&long, None);
    assert!(first.too_complex);
    assert_eq!(first.decision, full.decision);
    // Subshells nested past the tree's bound, in a short line.
    let deep = shell(&format!("{}ls{}", "( ".repeat(140), " )".repeat(140)));
    let first = guard.try_within(&deep, INLINE_WORK, None).expect("final");
    let full = guard.decide_within(&deep, None);
    assert!(first.too_complex, "{:?}", first.decision.reason);
    assert_eq!(first.decision, full.decision);
    // Code that evals itself stops at the nesting bound, not the budget.
    let selfish = shell("s='eval \"$s\"'; eval \"$s\"");
    let first = guard
        .try_within(&selfish, INLINE_WORK, None)
        .expect("final");
    assert!(first.too_complex);
    assert_eq!(first.decision, guard.decide_within(&selfish, None).decision);
    // A first attempt whose time is up gives up too, without an answer.
    let ordinary = shell("ls -la src");
    assert!(
        guard
            .try_within(&ordinary, INLINE_WORK, Some(Instant::now()))
            .is_none()
    );
    assert!(guard.try_within(&ordinary, INLINE_WORK, None).is_some());
    // With the whole budget, running out is the full call's own answer.
    let hostile = shell(&doubling(40));
    let whole = guard
        .try_within(&hostile, MAX_WORK, None)
        .expect("never gives up");
    assert!(whole.too_complex);
}

#[test]
fn a_glob_whose_states_use_up_the_small_budget_is_answered_in_full() {
    let key_read = PathRule {
        pattern: Regex::new(r"(^|/)(id_(rsa|ed25519)|[^/]*\.(pem|key|p12))$").expect("compiles"),
        unless: None,
        access: Access::Read,
    };
    let guard = Guard::new(vec![Rule {
        id: "keys".into(),
        matcher: Matcher::Path(key_read),
        action: Action::Deny,
        reason: "keys".into(),
    }]);
    // Each word has the lazy DFAs build their states afresh: it is their
    // building, charged as work, that the small budget runs out of.
    let line = format!("cat {}", "src/**/.[!.]*[kK][eE][yY]* ".repeat(40));
    let needed = units_needed(&guard, &line).expect("fits the full budget");
    assert!(needed > INLINE_WORK, "{needed} units");
    assert!(guard.try_within(&shell(&line), INLINE_WORK, None).is_none());
    // In full: no spelling of a word ends in a key's name (what a glob
    // fills in holds no `.`), so the read is allowed.
    let full = guard.decide_within(&shell(&line), None);
    assert!(!full.too_complex, "{:?}", full.decision.reason);
    assert!(full.hit.is_none(), "{:?}", full.decision.reason);
    assert!(full.decision.is_neutral());
}
