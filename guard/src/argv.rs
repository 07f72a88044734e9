//! Reading an argv the way commands do: flags in any order and spelling
//! (`-rf`, `-r -f`, `--recursive`, `--rec` as getopt reads it), option
//! values, operands after `--`, leading operands that are not paths, and
//! the subcommand (`git -C repo push`). A word the guard cannot know may
//! be a flag or an operand (one word, never both).

use super::options::{Spec, spec_of};
use super::pattern::{self, Judged, UNKNOWN};
use super::shell::{Simple, Word};

/// One flag as written: a letter of a short-flag group, or a long name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flag {
    Short(char),
    Long(String),
}

impl Flag {
    /// Parses a rule's spelling: `-r` or `--recursive`.
    pub fn parse(spelling: &str) -> Option<Flag> {
        if let Some(long) = spelling.strip_prefix("--") {
            return (!long.is_empty()).then(|| Flag::Long(long.to_owned()));
        }
        let mut chars = spelling.strip_prefix('-')?.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c != '-' => Some(Flag::Short(c)),
            _ => None,
        }
    }

    /// A flag that asks for recursion (`-r`, `-R`, `--recursive`).
    pub(crate) fn recursive(&self) -> bool {
        match self {
            Flag::Short(c) => *c == 'r' || *c == 'R',
            Flag::Long(name) => name == "recursive",
        }
    }
}

/// An argv split into flags, option values and operands.
#[derive(Debug, Default)]
pub(crate) struct Split<'a> {
    /// Flags as written (long names possibly abbreviated).
    pub(crate) flags: Vec<Flag>,
    /// Words that may be flags: an unknown word, a flag group with an
    /// unknown part (their index in the argv).
    pub(crate) maybe_flags: Vec<usize>,
    /// Option values: the option as written (`-o`, `--output`) and its value.
    pub(crate) values: Vec<(String, Word)>,
    /// The operands that may be paths, with their index.
    pub(crate) operands: Vec<(usize, &'a Word)>,
    spec: Option<&'static Spec>,
}

impl Split<'_> {
    /// How surely one of `wanted` is among the flags, and which unknown
    /// words it depends on (empty when it does not).
    pub(crate) fn has_any(&self, wanted: &[Flag]) -> (Judged, Vec<usize>) {
        let mut best = Judged::No;
        for flag in &self.flags {
            for want in wanted {
                best = best.max(self.means(flag, want));
            }
        }
        if best == Judged::Yes || self.maybe_flags.is_empty() {
            return (best, Vec::new());
        }
        (Judged::Maybe, self.maybe_flags.clone())
    }

    fn means(&self, written: &Flag, wanted: &Flag) -> Judged {
        match (written, wanted) {
            (Flag::Short(a), Flag::Short(b)) if a == b => Judged::Yes,
            (Flag::Long(arg), Flag::Long(rule)) => match self.spec {
                Some(spec) => spec.long_means(arg, rule),
                None if rule.starts_with(arg.as_str()) && !arg.is_empty() => Judged::Yes,
                None => Judged::No,
            },
            _ => Judged::No,
        }
    }

    /// Was the option `name` (`-f`, `--file`) given?
    pub(crate) fn given(&self, names: &[&str]) -> bool {
        self.values
            .iter()
            .any(|(option, _)| names.contains(&option.as_str()))
            || self.flags.iter().any(|f| match f {
                Flag::Short(c) => names
                    .iter()
                    .any(|n| n.strip_prefix('-') == Some(&c.to_string())),
                Flag::Long(long) => names.iter().any(|n| n.strip_prefix("--") == Some(long)),
            })
    }
}

/// Splits `args` of the command `name` (`git push` for git's subcommand).
pub(crate) fn split<'a>(name: &str, args: &'a [Word]) -> Split<'a> {
    let spec = spec_of(name);
    let mut out = Split {
        spec,
        ..Split::default()
    };
    let mut operands = Vec::new();
    let mut flags_done = false;
    let mut words = args.iter().enumerate();
    while let Some((i, arg)) = words.next() {
        let text = arg.text.as_str();
        if flags_done || !text.starts_with('-') || text == "-" {
            if text.starts_with(UNKNOWN) && !flags_done {
                out.maybe_flags.push(i);
            }
            operands.push((i, arg));
        } else if text == "--" {
            flags_done = true;
        } else if let Some(long) = text.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, _)) => (name, true),
                None => (long, false),
            };
            if name.contains(UNKNOWN) {
                out.maybe_flags.push(i);
            }
            out.flags.push(Flag::Long(name.to_owned()));
            let takes = spec.is_some_and(|s| s.long_takes_value(name));
            if inline {
                if let Some((_, value)) = long.split_once('=') {
                    out.values.push((format!("--{name}"), arg.with_text(value)));
                }
            } else if takes && let Some((_, value)) = words.next() {
                out.values.push((format!("--{name}"), value.clone()));
            }
        } else {
            let group: Vec<char> = text.chars().skip(1).collect();
            for (k, c) in group.iter().enumerate() {
                if *c == UNKNOWN {
                    out.maybe_flags.push(i);
                    continue;
                }
                out.flags.push(Flag::Short(*c));
                if spec.is_some_and(|s| s.short_values.contains(*c)) {
                    let option = format!("-{c}");
                    if k + 1 < group.len() {
                        let rest: String = group.get(k + 1..).unwrap_or_default().iter().collect();
                        out.values.push((option, arg.with_text(&rest)));
                    } else if let Some((_, value)) = words.next() {
                        out.values.push((option, value.clone()));
                    }
                    break;
                }
            }
        }
    }
    let lead = match spec {
        Some(s) if !out.given(s.lead_given_by) => s.lead,
        _ => 0,
    };
    out.operands = operands.into_iter().skip(lead).collect();
    out
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
    "--exec-path",
];

/// The subcommand of `simple` (its first operand; for git, after git's own
/// options) and the words after it.
pub(crate) fn subcommand(simple: &Simple) -> Option<(&Word, &[Word])> {
    let value_options = if simple.name == "git" {
        GIT_VALUE_OPTIONS
    } else {
        &[]
    };
    first_operand(&simple.args, value_options)
}

/// The first operand of `args` and the words after it, skipping options
/// and the value of each of `value_options` written as the next word
/// (`git -C dir status`, `gateway --log-level warn uninstall`).
pub(crate) fn first_operand<'a>(
    args: &'a [Word],
    value_options: &[&str],
) -> Option<(&'a Word, &'a [Word])> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let text = arg.text.as_str();
        if !text.starts_with('-') {
            return Some((arg, args.get(i + 1..).unwrap_or_default()));
        }
        i += if value_options.contains(&text) { 2 } else { 1 };
    }
    None
}

/// The subcommand's text, when known.
pub(crate) fn subcommand_name(simple: &Simple) -> Option<&str> {
    subcommand(simple)
        .map(|(sub, _)| sub.text.as_str())
        .filter(|s| pattern::is_literal(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<Word> {
        list.iter().map(|w| Word::literal(*w)).collect()
    }

    #[test]
    fn flags_in_any_spelling() {
        let args = words(&["-rf", "--force=yes", "x", "--", "-y"]);
        let split = split("tool", &args);
        let has = |flag: &str| split.has_any(&[Flag::parse(flag).unwrap()]).0;
        assert_eq!(has("-r"), Judged::Yes);
        assert_eq!(has("-f"), Judged::Yes);
        assert_eq!(has("--force"), Judged::Yes);
        assert_eq!(has("-y"), Judged::No, "after --: an operand");
        assert_eq!(split.operands.len(), 2);
    }

    #[test]
    fn getopt_abbreviations_and_values() {
        let has = |name: &str, list: &[&str], flag: &str| {
            let args = words(list);
            split(name, &args).has_any(&[Flag::parse(flag).unwrap()]).0
        };
        assert_eq!(has("rm", &["--r", "/"], "--recursive"), Judged::Yes);
        assert_eq!(
            has("git push", &["--force-with-lease"], "--force"),
            Judged::No
        );
        assert_eq!(has("git push", &["--fo"], "--force"), Judged::Maybe);
        let args = words(&["-n", "-e", "x", "-f", "pat.txt", "file"]);
        let grep = split("grep", &args);
        let operands: Vec<&str> = grep.operands.iter().map(|(_, w)| w.text.as_str()).collect();
        assert_eq!(operands, ["file"], "-e gives the pattern");
        let args = words(&["-R", "u:g", "/etc"]);
        let chown = split("chown", &args);
        assert_eq!(chown.operands.len(), 1, "the owner is not a path");
    }

    #[test]
    fn an_unknown_word_may_be_a_flag() {
        let args = vec![Word::literal(UNKNOWN.to_string()), Word::literal("/")];
        let split = split("rm", &args);
        assert_eq!(split.has_any(&[Flag::Short('r')]), (Judged::Maybe, vec![0]));
        assert_eq!(split.operands.len(), 2);
    }
}
