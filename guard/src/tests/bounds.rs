//! The guard's work is bounded: lines built to make it slow (strings that
//! double, loops over loops, code that evals itself, nested subshells over
//! many variables) run out of the budget or a bound and are denied as too
//! complex to check, as is a call past its deadline.

use std::time::Instant;

use hookgate_adapters::Permission;

use super::shell;
use crate::Guard;

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
