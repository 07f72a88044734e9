//! The rule kinds over canonical facts: a command (its name, subcommand,
//! flags, operands), a path touched (read or written) by any tool, a
//! download fed to an interpreter. Each match says what it matched and how
//! surely (`Judged`): a word the guard cannot know makes a match Maybe.

use regex::Regex;

use super::argv::{self, Flag, subcommand};
use super::budget::Budget;
use super::facts::{Access, Facts, TouchedPath};
use super::paths;
use super::pattern::{self, Judge, Judged};
use super::shell::{Place, Simple};

/// `name` against a rule's name: exact, or a prefix when the rule's name
/// ends with `*` (`python*` for `python3.12`).
pub(crate) fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

fn any_name(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| name_matches(p, name))
}

/// What a rule matched, shown, and how surely.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub(crate) detail: String,
    pub(crate) judged: Judged,
}

/// The first certain match of `candidates`, else the first possible one.
fn best(candidates: impl Iterator<Item = Found>) -> Option<Found> {
    let mut maybe = None;
    for found in candidates {
        match found.judged {
            Judged::Yes => return Some(found),
            Judged::Maybe => {
                maybe.get_or_insert(found);
            }
            Judged::No => {}
        }
    }
    maybe
}

/// A command rule: every condition given must hold.
#[derive(Debug, Clone)]
pub struct CommandRule {
    pub names: Vec<String>,
    /// The subcommand is one of these (`push`).
    pub subcommands: Vec<String>,
    /// Any of these flags is present.
    pub flags: Vec<Flag>,
    /// None of these flags is present (`fdisk` without `-l`).
    pub without_flags: Vec<Flag>,
    /// Some operand matches, as written or resolved to a path.
    pub operand: Option<Regex>,
}

/// A command rule's names, subcommands and operand as judges.
#[derive(Debug, Clone)]
pub(crate) struct CommandJudges {
    names: Judge,
    subcommands: Option<Judge>,
    operand: Option<Judge>,
}

/// `^(a|b.*)$` for the names `a`, `b*`.
fn names_regex(names: &[String]) -> String {
    let alternatives: Vec<String> = names
        .iter()
        .map(|n| match n.strip_suffix('*') {
            Some(prefix) => format!("{}.*", regex::escape(prefix)),
            None => regex::escape(n),
        })
        .collect();
    format!("^(?:{})$", alternatives.join("|"))
}

impl CommandRule {
    pub(crate) fn judges(&self, fold: bool) -> Option<CommandJudges> {
        Some(CommandJudges {
            names: Judge::new(&names_regex(&self.names), None, fold)?,
            subcommands: match self.subcommands.is_empty() {
                true => None,
                false => Some(Judge::new(&names_regex(&self.subcommands), None, fold)?),
            },
            operand: match &self.operand {
                Some(re) => Some(Judge::of(re, None, fold)?),
                None => None,
            },
        })
    }

    /// The command of `facts` this rule matches most surely, shown.
    pub(crate) fn find(
        &self,
        judges: &CommandJudges,
        facts: &Facts,
        place: Place<'_>,
        budget: &mut Budget,
    ) -> Option<Found> {
        best(facts.commands.iter().map(|c| Found {
            judged: self.judge(judges, c, place, budget),
            // A program the guard cannot name: its words are not echoed
            // (whatever the line was, it was not read as a command).
            detail: match pattern::is_literal(&c.name) {
                true => format!("`{}`", c.display()),
                false => format!(
                    "`{} …` (a program hookgate cannot name)",
                    pattern::shown(&c.name)
                ),
            },
        }))
    }

    fn judge(
        &self,
        judges: &CommandJudges,
        simple: &Simple,
        place: Place<'_>,
        budget: &mut Budget,
    ) -> Judged {
        let mut judged = judges.names.judge(&simple.name, budget);
        if judged == Judged::No {
            return Judged::No;
        }
        let mut spec_name = simple.name.clone();
        let args = match &judges.subcommands {
            None => simple.args.as_slice(),
            Some(subs) => match subcommand(simple) {
                Some((sub, rest)) => {
                    judged = judged.min(subs.judge(&sub.text, budget));
                    spec_name = format!("{} {}", simple.name, sub.text);
                    rest
                }
                None => return Judged::No,
            },
        };
        if judged == Judged::No {
            return Judged::No;
        }
        let split = argv::split(&spec_name, args);
        if !self.without_flags.is_empty() && split.has_any(&self.without_flags).0 == Judged::Yes {
            return Judged::No;
        }
        let mut flag_words = Vec::new();
        if !self.flags.is_empty() {
            let (mut has, words) = split.has_any(&self.flags);
            if simple.tree && self.flags.iter().any(Flag::recursive) {
                has = Judged::Yes;
            }
            if has == Judged::Maybe {
                flag_words = words;
            }
            judged = judged.min(has);
        }
        if let Some(operand) = &judges.operand {
            let mut found = Judged::No;
            let mut from = Vec::new();
            for (i, word) in &split.operands {
                let resolved = paths::resolve(&simple.cwd, &word.text, place.home, place.fold);
                let here =
                    written(operand, &word.text, budget).max(operand.judge(&resolved, budget));
                if here > found {
                    from.clear();
                }
                if here >= found && here != Judged::No {
                    found = here;
                    from.push(*i);
                }
            }
            // One unknown word may be the flag or the operand, not both.
            let one_word = |i: &usize| simple.args.get(*i).is_some_and(|w| !w.fields);
            if found == Judged::Maybe
                && flag_words.len() == 1
                && from == flag_words
                && flag_words.iter().all(one_word)
                && args.len() == simple.args.len()
            {
                found = Judged::No;
            }
            judged = judged.min(found);
        }
        if simple.maybe {
            judged = judged.min(Judged::Maybe);
        }
        judged
    }
}

/// A path rule: a path touched for `access` that matches `pattern` and not
/// `unless`.
///
/// The rules' regexes (here and [`CommandRule::operand`]) are built with
/// no builder options, their flags inline (`(?i)`), as the config builds
/// them: the guard matches plain words with them as they are and builds
/// its automata for other words from their text.
#[derive(Debug, Clone)]
pub struct PathRule {
    pub pattern: Regex,
    pub unless: Option<Regex>,
    pub access: Access,
}

impl PathRule {
    pub(crate) fn judge_with(&self, fold: bool) -> Option<Judge> {
        Judge::of(&self.pattern, self.unless.as_ref(), fold)
    }

    pub(crate) fn find(&self, judge: &Judge, facts: &Facts, budget: &mut Budget) -> Option<Found> {
        best(
            facts
                .paths
                .iter()
                .filter(|p| self.access.covers(p.access))
                .map(|p| Found {
                    judged: judged_path(judge, p, budget),
                    detail: format!("`{}` ({})", pattern::shown(&p.written), p.access.as_str()),
                }),
        )
    }
}

fn judged_path(judge: &Judge, path: &TouchedPath, budget: &mut Budget) -> Judged {
    let judged = written(judge, &path.written, budget).max(judge.judge(&path.resolved, budget));
    match path.maybe {
        true => judged.min(Judged::Maybe),
        false => judged,
    }
}

/// A path as written, judged: a relative glob (`*`, `*.o`) is a name in
/// the working directory, which its resolved form already says; as
/// written it would also spell `~` or `/etc`.
fn written(judge: &Judge, text: &str, budget: &mut Budget) -> Judged {
    match text.starts_with([pattern::STAR, pattern::ONE, pattern::CLASS_OPEN]) {
        true => Judged::No,
        false => judge.judge(text, budget),
    }
}

/// A download run as a program: a fetcher's output piped into an
/// interpreter that reads its program from stdin, or a fetcher inside a
/// substitution given to an interpreter (`bash <(curl ...)`,
/// `sh -c "$(curl ...)"`, `eval "$(wget -O- ...)"`).
#[derive(Debug, Clone)]
pub struct FetchRule {
    pub fetchers: Vec<String>,
    pub interpreters: Vec<String>,
}

impl FetchRule {
    pub(crate) fn find(&self, facts: &Facts, fold: bool) -> Option<Found> {
        let name = |c: &Simple| match fold {
            true => c.name.to_lowercase(),
            false => c.name.clone(),
        };
        best(facts.commands.iter().filter_map(|c| {
            let interpreter = name(c);
            let unknown = !pattern::is_literal(&interpreter);
            if !unknown && !any_name(&self.interpreters, &interpreter) {
                return None;
            }
            let fetched = |n: &String| any_name(&self.fetchers, &n.to_lowercase());
            let piped = super::shell::program_from_stdin(c)
                .then(|| c.stdin.iter().find(|n| fetched(n)))
                .flatten();
            let substituted = || c.args.iter().flat_map(|a| &a.subs).find(|n| fetched(n));
            let fetcher = piped.or_else(substituted)?;
            Some(Found {
                detail: format!("`{fetcher}` output run by `{}`", pattern::shown(&c.name)),
                judged: match c.maybe || unknown {
                    true => Judged::Maybe,
                    false => Judged::Yes,
                },
            })
        }))
    }
}
