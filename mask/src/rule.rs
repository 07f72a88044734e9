//! One rule of the pattern pass: a secret's shape, what a match becomes,
//! and an optional check; `patterns` lists them, `rules` compiles them
//! into one set.

use regex::Captures;

/// One secret shape: a pattern, what a match becomes (`${1}` keeps a
/// non-secret prefix so the log still says what kind of value was there),
/// and an optional test a match must pass to be masked (entropy, a name).
pub(super) struct Rule {
    pub pattern: &'static str,
    pub replacement: &'static str,
    pub check: Option<fn(&Captures<'_>) -> bool>,
}

/// A rule that masks every match.
pub(super) const fn always(pattern: &'static str, replacement: &'static str) -> Rule {
    Rule {
        pattern,
        replacement,
        check: None,
    }
}

/// A rule that masks a match only when `check` holds for it.
pub(super) const fn checked(
    pattern: &'static str,
    replacement: &'static str,
    check: fn(&Captures<'_>) -> bool,
) -> Rule {
    Rule {
        pattern,
        replacement,
        check: Some(check),
    }
}

/// `pattern` with its word boundaries made ASCII (`\b` → `(?-u:\b)`). A
/// secret's edge is an ASCII character either way, and a Unicode `\b`
/// makes the DFA give up on the first non-ASCII byte, falling back to an
/// NFA simulation of every rule: a hundred times slower on accented text.
pub(super) fn ascii_boundaries(pattern: &str) -> String {
    pattern.replace(r"\b", r"(?-u:\b)")
}
