//! The rule engine behind the pattern pass: every rule of `patterns` in one
//! `RegexSet`, so a string is scanned once to learn which rules can apply
//! and only those run. Most strings match none, so masking costs about one
//! linear pass however many shapes the set knows.
//!
//! A rule's own regex (to find and replace its matches) is compiled the
//! first time the set says it applies: most rules never match in a
//! gateway's life, and each compiled regex is memory held for good. That
//! first match pays the compilation once (under 5 ms for the costliest
//! rule in a release build), the order of masking a large record.

use std::borrow::Cow;
use std::sync::{LazyLock, OnceLock};

use regex::{Captures, Regex, RegexSet, RegexSetBuilder};

use super::rule::{Rule, ascii_boundaries};

/// Room for the compiled set: large counted repetitions over Unicode
/// classes add up past the crate's 10 MiB default; still a fixed bound.
const SIZE_LIMIT: usize = 64 << 20;

struct Compiled {
    set: RegexSet,
    rules: Vec<(&'static Rule, OnceLock<Regex>)>,
}

impl Compiled {
    /// The rule at `index` (as the set numbers them), its regex compiled.
    fn rule(&self, index: usize) -> (&'static Rule, &Regex) {
        let (rule, regex) = &self.rules[index];
        (rule, regex.get_or_init(|| compile(rule.pattern)))
    }
}

pub(super) fn compile(pattern: &str) -> Regex {
    regex::RegexBuilder::new(&ascii_boundaries(pattern))
        .size_limit(SIZE_LIMIT)
        .build()
        .expect("constant mask regex is valid")
}

static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let rules = super::patterns::rules();
    let set = RegexSetBuilder::new(rules.iter().map(|r| ascii_boundaries(r.pattern)))
        .size_limit(SIZE_LIMIT)
        .build()
        .expect("constant mask regexes are valid");
    let rules = rules
        .into_iter()
        .map(|rule| (rule, OnceLock::new()))
        .collect();
    Compiled { set, rules }
});

/// Compiles the set now (about 0.3 s in a debug build) rather than on the
/// first string masked.
pub(super) fn prepare() {
    LazyLock::force(&COMPILED);
}

/// `text` with every rule that matches it applied, in the rules' order.
/// Which rules apply is decided on `text` as given: a rule that finds no
/// secret there has none to mask after the others ran either.
pub(super) fn apply(text: &str) -> Cow<'_, str> {
    let compiled = &*COMPILED;
    let hits = compiled.set.matches(text);
    let mut out = Cow::Borrowed(text);
    for index in hits.iter() {
        let (rule, regex) = compiled.rule(index);
        let replaced = regex.replace_all(&out, |caps: &Captures<'_>| {
            if rule.check.is_some_and(|check| !check(caps)) {
                return caps[0].to_owned();
            }
            let mut dst = String::new();
            caps.expand(rule.replacement, &mut dst);
            dst
        });
        if let Cow::Owned(replaced) = replaced {
            out = Cow::Owned(replaced);
        }
    }
    out
}

/// Which rules match `text` (their indexes), for the corpus tests.
#[cfg(test)]
pub(super) fn matching(text: &str) -> Vec<usize> {
    COMPILED.set.matches(text).into_iter().collect()
}

/// Every rule's pattern, in order, for the corpus tests.
#[cfg(test)]
pub(super) fn patterns() -> Vec<&'static str> {
    COMPILED
        .rules
        .iter()
        .map(|(rule, _)| rule.pattern)
        .collect()
}
