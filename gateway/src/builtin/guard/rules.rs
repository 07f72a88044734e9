//! The rule kinds over canonical facts: a command (its name, subcommand,
//! flags, operands), a path touched (read or written) by any tool, a
//! download fed to an interpreter. Each match says what it matched.

use regex::Regex;

use super::argv::{self, Flag};
use super::facts::{Access, Facts, TouchedPath};
use super::shell::{Simple, Word};

/// `name` against a rule's name: exact, or a prefix when the rule's name
/// ends with `*` (`python*` for `python3.12`).
pub fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

fn any_name(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| name_matches(p, name))
}

/// Options git takes before its subcommand, with a value.
const GIT_VALUE_OPTIONS: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
];

/// The subcommand of `simple` (its first operand; for git, after git's own
/// options) and the words after it.
pub fn subcommand(simple: &Simple) -> Option<(&str, &[Word])> {
    let mut i = 0;
    while let Some(arg) = simple.args.get(i) {
        let text = arg.text.as_str();
        if !text.starts_with('-') {
            return Some((text, simple.args.get(i + 1..).unwrap_or_default()));
        }
        i += if simple.name == "git" && GIT_VALUE_OPTIONS.contains(&text) {
            2
        } else {
            1
        };
    }
    None
}

/// A command rule: every condition given must hold.
#[derive(Debug, Clone)]
pub struct CommandRule {
    pub names: Vec<String>,
    /// The subcommand is one of these (`push`).
    pub subcommands: Vec<String>,
    /// Any of these flags is present.
    pub flags: Vec<Flag>,
    /// Some operand matches, as written or resolved to a path.
    pub operand: Option<Regex>,
}

impl CommandRule {
    /// The first command of `facts` this rule matches, shown.
    pub fn find(&self, facts: &Facts, home: Option<&str>) -> Option<String> {
        facts
            .commands
            .iter()
            .find(|c| self.matches(c, home))
            .map(|c| format!("`{}`", c.display()))
    }

    fn matches(&self, simple: &Simple, home: Option<&str>) -> bool {
        if !any_name(&self.names, &simple.name) {
            return false;
        }
        let args = if self.subcommands.is_empty() {
            simple.args.as_slice()
        } else {
            match subcommand(simple) {
                Some((sub, rest)) if self.subcommands.iter().any(|s| s == sub) => rest,
                _ => return false,
            }
        };
        let split = argv::split(args);
        if !self.flags.is_empty() && !split.has_any(&self.flags) {
            return false;
        }
        match &self.operand {
            None => true,
            Some(pattern) => split.operands.iter().any(|word| {
                word.known()
                    && (pattern.is_match(&word.text)
                        || pattern.is_match(&argv::resolve(
                            simple.cwd.as_deref(),
                            &word.text,
                            home,
                        )))
            }),
        }
    }
}

/// A path rule: a path touched for `access` that matches `pattern` and not
/// `unless`.
#[derive(Debug, Clone)]
pub struct PathRule {
    pub pattern: Regex,
    pub unless: Option<Regex>,
    pub access: Access,
}

impl PathRule {
    pub fn find(&self, facts: &Facts) -> Option<String> {
        facts
            .paths
            .iter()
            .find(|p| self.matches(p))
            .map(|p| format!("`{}` ({})", p.written, p.access.as_str()))
    }

    fn matches(&self, path: &TouchedPath) -> bool {
        let hit = |re: &Regex| re.is_match(&path.written) || re.is_match(&path.resolved);
        self.access.covers(path.access)
            && hit(&self.pattern)
            && !self.unless.as_ref().is_some_and(hit)
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
    pub fn find(&self, facts: &Facts) -> Option<String> {
        facts.commands.iter().find_map(|c| {
            if !any_name(&self.interpreters, &c.name) {
                return None;
            }
            let piped = super::shell::program_from_stdin(c)
                .then(|| c.stdin.iter().find(|n| any_name(&self.fetchers, n)))
                .flatten();
            let substituted = || {
                c.args
                    .iter()
                    .flat_map(|a| &a.subs)
                    .find(|n| any_name(&self.fetchers, n))
            };
            piped
                .or_else(substituted)
                .map(|fetcher| format!("`{fetcher}` output run by `{}`", c.name))
        })
    }
}
