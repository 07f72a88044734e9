//! The simple commands of a shell line as the guard parses them, for code
//! outside the guard (the gateway sends them to remote subscribers as
//! `HookEvent.shell`), so that no policy parses shell a second time, and
//! none differently from the guard.
//!
//! This is a view over the parser the guard's rules use (`shell`, `argv`):
//! the same bounds, the same unwrapping of wrappers and `sh -c`, the same
//! expansions. It adds nothing to what the guard decides.

use crate::argv::{self, Flag};
use crate::budget::Budget;
use crate::pattern;
use crate::shell::{self, Place};

/// One simple command of a line, as it will run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellCommand {
    /// The program: quotes and escapes removed, its directory dropped
    /// (`/usr/bin/git` is `git`), wrappers unwrapped (`sudo rm` is `rm`,
    /// `sh -c 'rm'` is `rm`).
    pub name: String,
    /// The words after the name, expanded as far as the line itself tells
    /// (`~` and `$HOME` as the home directory when known, variables
    /// assigned literally earlier on the line). A part that cannot be known
    /// statically (`$UNSET`, `$(date)`) is U+FFFD.
    pub args: Vec<String>,
    /// The flags among `args`, one per flag as getopt reads them: `-rf` is
    /// `-r` and `-f` (and `-auto-approve` its letters), `--force=yes` is
    /// `--force`. Flags end at `--`.
    pub flags: Vec<String>,
    /// The other words of `args` (values of flags included: which flag
    /// takes a value is each program's business).
    pub operands: Vec<String>,
    /// Where it runs when known: the event's working directory, or the
    /// target of a literal `cd` earlier on the line.
    pub cwd: Option<String>,
}

/// The commands of one line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellCommands {
    /// Every simple command, in the order the line names them
    /// (substitutions before the command that uses their output).
    pub commands: Vec<ShellCommand>,
    /// The guard read the whole line: it parsed cleanly, within the
    /// parser's bounds, and every word is fully known. When `false`, the
    /// line may run more than `commands` says.
    pub resolved: bool,
}

/// The simple commands of the shell `line`, run in `cwd`; `home` (an
/// absolute path) stands for `~`. Bounded as the guard is: a line past
/// [`crate::MAX_LINE_BYTES`] or the parser's other bounds gives what was
/// read before the bound and `resolved: false`.
pub fn commands(line: &str, cwd: Option<&str>, home: Option<&str>) -> ShellCommands {
    let home = home
        .map(|h| h.trim_end_matches('/'))
        .filter(|h| h.starts_with('/'));
    let mut budget = Budget::new(crate::MAX_WORK, None);
    let place = Place {
        cwd,
        home,
        fold: false,
    };
    let parsed = shell::parse(line, place, &mut budget);
    let mut resolved = budget.exceeded().is_none() && !parsed.unparsed;
    let commands = parsed
        .commands
        .iter()
        .map(|simple| {
            let with_home = |text: &str, home| with_home(&plain(text), home);
            let known = |text: &str| !pattern::has_unknown(text);
            resolved &= !simple.maybe
                && known(&simple.name)
                && simple.args.iter().all(|w| known(&w.text) && !w.fields);
            let split = argv::split(&simple.name, &simple.args);
            ShellCommand {
                name: plain(&simple.name),
                args: simple
                    .args
                    .iter()
                    .map(|w| with_home(&w.text, home))
                    .collect(),
                flags: split.flags.iter().filter_map(spelled).collect(),
                operands: split
                    .operands
                    .iter()
                    .map(|(_, w)| with_home(&w.text, home))
                    .collect(),
                cwd: (!pattern::has_unknown(&simple.cwd)).then(|| with_home(&simple.cwd, home)),
            }
        })
        .collect();
    ShellCommands { commands, resolved }
}

/// `-r` or `--force`; the `-` inside a single-dash word (`-auto-approve`)
/// is no flag.
fn spelled(flag: &Flag) -> Option<String> {
    match flag {
        Flag::Short('-') => None,
        Flag::Short(c) => Some(format!("-{c}")),
        Flag::Long(name) => Some(format!("--{name}")),
    }
}

/// `text` with a leading `~` (alone or before `/`) as `home`, when known.
fn with_home(text: &str, home: Option<&str>) -> String {
    match (home, text.strip_prefix('~')) {
        (Some(home), Some(rest)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{home}{rest}")
        }
        _ => text.to_owned(),
    }
}

/// `text` with the guard's glob markers as the glob characters written;
/// an unknown part stays U+FFFD.
fn plain(text: &str) -> String {
    pattern::written(text, pattern::UNKNOWN.encode_utf8(&mut [0; 4]))
}
