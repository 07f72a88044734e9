//! A rule's regex (and its `unless` regex) judging a word with unknown or
//! glob parts: both compiled to lazy DFAs (regex-automata's hybrid DFA,
//! which builds only the states a search visits), and every way the word
//! could be spelled followed through both at once.
//!
//! The search explores pairs of DFA states, one per regex. A literal byte
//! moves each; an unknown part moves them along every byte, any number of
//! times (a closure); a glob's `*` the same within a name. A regex that
//! has matched stays matched (an unanchored `is_match`), so a pair records
//! that instead of a state. At the end of the word each pair says whether
//! that spelling is a hit (the rule's regex matched, its `unless` did not).
//! The word is judged by the set of final pairs: no hit, some hits (Maybe,
//! or Yes for a glob), or only hits (Yes). The work is the number of
//! pairs times the number of byte classes, and the states the lazy DFAs
//! build on the way (by the memory they take, see `search`), charged to
//! the call's budget.

use std::sync::Arc;

use regex::Regex;

use super::automata::Automata;
use super::{Item, Judged, has_unknown, is_literal, items};
use crate::budget::Budget;

/// A rule's regex, with its `unless`, ready to judge words.
#[derive(Debug, Clone)]
pub(crate) struct Judge {
    regex: Regex,
    unless: Option<Regex>,
    automata: Option<Arc<Automata>>,
}

impl Judge {
    /// `pattern` (and `unless`), case-insensitive when `fold`; `None` when
    /// a regex does not compile (the config has compiled them already).
    pub(crate) fn new(pattern: &str, unless: Option<&str>, fold: bool) -> Option<Judge> {
        let regex = compile(pattern, fold)?;
        let unless = match unless {
            Some(u) => Some(compile(u, fold)?),
            None => None,
        };
        Some(Judge::with(regex, unless, fold))
    }

    /// The judge of a rule's compiled `regex` (and `unless`): unfolded,
    /// they are the ones to match plain text with (a clone shares the
    /// compiled program), so only the automata are built.
    pub(crate) fn of(regex: &Regex, unless: Option<&Regex>, fold: bool) -> Option<Judge> {
        match fold {
            true => Judge::new(regex.as_str(), unless.map(Regex::as_str), fold),
            false => Some(Judge::with(regex.clone(), unless.cloned(), fold)),
        }
    }

    /// The judge of `regex` and `unless` as compiled, with their automata.
    fn with(regex: Regex, unless: Option<Regex>, fold: bool) -> Judge {
        let automata = Automata::build(regex.as_str(), unless.as_ref().map(Regex::as_str), fold);
        Judge {
            regex,
            unless,
            automata: automata.map(Arc::new),
        }
    }

    /// How surely `text` (with markers) is a hit.
    pub(crate) fn judge(&self, text: &str, budget: &mut Budget) -> Judged {
        if is_literal(text) {
            let hit = self.regex.is_match(text)
                && !self.unless.as_ref().is_some_and(|u| u.is_match(text));
            return if hit { Judged::Yes } else { Judged::No };
        }
        let Some(automata) = &self.automata else {
            return Judged::Maybe;
        };
        let Some(found) = automata.judge(&items(text, false), budget) else {
            return Judged::Maybe;
        };
        let (mut hit, mut every) = found.iter().fold((false, false), |(h, e), (some, all)| {
            (h || *some, e || *all)
        });
        // A last name that is only a glob fills in three characters at
        // most, unless its directory is what an alternative of the rule
        // names (`~/.aws/*`: `credentials`); one that names a file in any
        // directory (`id_rsa`) does not make `src/*` a key.
        if !hit && let Some(neutral) = neutral_directory(text) {
            let long = automata.judge(&items(text, true), budget);
            let anywhere = automata.judge(&items(&neutral, true), budget);
            let (Some(long), Some(anywhere)) = (long, anywhere) else {
                return Judged::Maybe;
            };
            for ((some, all), (elsewhere, _)) in long.into_iter().zip(anywhere) {
                if some && !elsewhere {
                    hit = true;
                    every |= all;
                }
            }
        }
        match (hit, every) {
            (false, _) => Judged::No,
            (true, true) => Judged::Yes,
            (true, false) if has_unknown(text) => Judged::Maybe,
            // Only globs: each names every file it matches, so one hit is
            // a certain one.
            (true, false) => Judged::Yes,
        }
    }
}

/// `text` with its directory replaced by one no rule names, when its last
/// name is only a glob.
fn neutral_directory(text: &str) -> Option<String> {
    let (_, last) = text.rsplit_once('/')?;
    let bare = !last.is_empty()
        && items(last, false)
            .iter()
            .all(|i| !matches!(i, Item::Byte(_)));
    bare.then(|| format!("/\u{1}/{last}"))
}

fn compile(pattern: &str, fold: bool) -> Option<Regex> {
    regex::RegexBuilder::new(pattern)
        .case_insensitive(fold)
        .size_limit(1 << 22)
        .build()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::{STAR, UNKNOWN, glob};

    fn judged(pattern: &str, unless: Option<&str>, text: &str) -> Judged {
        let judge = Judge::new(pattern, unless, false).unwrap();
        judge.judge(text, &mut Budget::unlimited())
    }

    #[test]
    fn unknown_parts_match_maybe_or_surely() {
        let root = r"^(/|~|/etc)$";
        assert_eq!(judged(root, None, "/"), Judged::Yes);
        assert_eq!(judged(root, None, "/tmp"), Judged::No);
        assert_eq!(judged(root, None, &UNKNOWN.to_string()), Judged::Maybe);
        assert_eq!(judged(root, None, &format!("{UNKNOWN}/out")), Judged::No);
        assert_eq!(judged(root, None, &format!("/e{UNKNOWN}")), Judged::Maybe);
        assert_eq!(judged(r"^\+", None, &format!("+{UNKNOWN}")), Judged::Yes);
    }

    #[test]
    fn globs_match_surely_and_respect_dotfiles() {
        let env = r"(^|/)\.env(\.[^/]*)?$";
        let unless = Some(r"(^|/)\.env\.example$");
        assert_eq!(judged(env, unless, &glob(".e*")), Judged::Yes);
        assert_eq!(judged(env, unless, &glob("*")), Judged::No, "no dotfile");
        assert_eq!(judged(env, unless, &glob("src/*.ts")), Judged::No);
        assert_eq!(judged(env, unless, &glob("**/.env")), Judged::Yes);
        assert_eq!(judged(env, unless, &glob(".env.exampl[e]")), Judged::No);
        assert_eq!(
            judged(env, unless, &glob(".env.exampl?")),
            Judged::Yes,
            "`.env.examplx`"
        );
        assert_eq!(
            judged(env, unless, &glob("/tmp/acme-*")),
            Judged::No,
            "no `acme-x.env`"
        );
        let key = r"(^|/)(id_rsa|\.aws/credentials)$";
        assert_eq!(judged(key, None, &glob("*")), Judged::No, "a bare `*`");
        assert_eq!(judged(key, None, &glob("~/.ssh/id_*")), Judged::Yes);
        assert_eq!(judged(key, None, &glob("~/.aws/cred*")), Judged::Yes);
        assert_eq!(judged(env, unless, &glob(".env.*")), Judged::Yes);
        assert_eq!(
            judged(env, unless, &format!(".env.{UNKNOWN}")),
            Judged::Maybe
        );
        assert_eq!(
            judged(r"^/(etc|usr)$", None, &format!("/{STAR}")),
            Judged::Yes
        );
    }
}
