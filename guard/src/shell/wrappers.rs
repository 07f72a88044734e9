//! Commands that run other commands: `sudo rm`, `env X=1 rm`, `timeout 5
//! rm`, `flock FILE rm`, `su -c CODE`, `busybox rm`, `git rebase --exec
//! CODE`, `watch CMD`, ... Each wrapper is a row of [`WRAPPERS`]: its
//! options that take a value, the operands before the command, the options
//! whose value is shell code, the options after which nothing runs. The
//! wrapper stays a command of its own; what it runs is added after it with
//! its stdin, redirections and working directory.

use super::scope::Scope;
use super::walk::{Walker, wrapped};
use super::{Simple, Word};
use crate::paths;

mod table;

pub(crate) use table::runs_another;
use table::{WRAPPERS, Wrap};

impl Walker<'_, '_> {
    /// Adds what the wrapper `name` runs, if it is one.
    pub(super) fn wrapper(
        &mut self,
        name: &str,
        simple: Simple,
        shell: &mut Scope,
        env: &Scope,
        hops: usize,
    ) {
        match name {
            "env" => return self.env(simple, shell, env, hops),
            "git" => return self.git(simple, env),
            "watch" => {
                let words = super::special::watch_command(&simple.args);
                let code = super::run::joined(&words);
                let mut child = env.child();
                return self.code(&code, &mut child, simple.stdin.clone());
            }
            _ => {}
        }
        let Some(w) = WRAPPERS.iter().find(|w| w.names.contains(&name)) else {
            return;
        };
        let mut cwd = simple.cwd.clone();
        let mut lead = w.lead;
        let mut words = simple.args.iter().peekable();
        let mut options = true;
        while let Some(word) = words.peek() {
            let text = word.text.as_str();
            if options && text == "--" {
                options = false;
                words.next();
                continue;
            }
            if options && text.starts_with('-') && text.len() > 1 {
                words.next();
                let (option, value) = option_value(w, text, &mut words);
                if w.none.contains(&option.as_str()) {
                    return;
                }
                if w.code.contains(&option.as_str()) {
                    if let Some(code) = value {
                        let mut child = env.child();
                        self.code(&code, &mut child, simple.stdin.clone());
                    }
                    return;
                }
                if w.chdir.contains(&option.as_str())
                    && let Some(dir) = value
                {
                    cwd = paths::join(&cwd, &dir.text);
                }
                continue;
            }
            if lead > 0 {
                lead -= 1;
                words.next();
                continue;
            }
            break;
        }
        // `time { rm -rf /; }`, `time ! cmd`: the group's first command.
        let rest: Vec<Word> = words
            .skip_while(|w| matches!(w.text.as_str(), "{" | "!" | "("))
            .cloned()
            .collect();
        let Some(inner) = wrapped(simple, rest, cwd) else {
            return;
        };
        match w.same_shell {
            true => self.emit(inner, shell, env, hops + 1),
            false => {
                let mut child = shell.child();
                self.emit(inner, &mut child, env, hops + 1);
            }
        }
    }
}

/// An option word of `w` (its letters or long name) and its value (the
/// rest of the group, after `=`, or the next word).
fn option_value<'a>(
    w: &Wrap,
    text: &str,
    words: &mut std::iter::Peekable<impl Iterator<Item = &'a Word>>,
) -> (String, Option<Word>) {
    if let Some(long) = text.strip_prefix("--") {
        let (name, inline) = match long.split_once('=') {
            Some((name, value)) => (name, Some(Word::literal(value))),
            None => (long, None),
        };
        let value = match inline {
            Some(v) => Some(v),
            None if w.long.contains(&name) => words.next().cloned(),
            None => None,
        };
        return (format!("--{name}"), value);
    }
    // `arch -arch NAME`: a long option with one dash.
    if w.long.contains(&text.trim_start_matches('-')) {
        return (
            format!("--{}", text.trim_start_matches('-')),
            words.next().cloned(),
        );
    }
    // `-qc CODE`, `-n5`: the first letter that takes a value ends the group.
    let letters: Vec<char> = text.chars().skip(1).collect();
    for (k, c) in letters.iter().enumerate() {
        let option = format!("-{c}");
        let takes = w.short.contains(*c) || w.code.contains(&option.as_str());
        let stops = w.none.contains(&option.as_str());
        if takes {
            let rest: String = letters.get(k + 1..).unwrap_or_default().iter().collect();
            let value = match rest.is_empty() {
                true => words.next().cloned(),
                false => Some(Word::literal(rest)),
            };
            return (option, value);
        }
        if stops || w.code.contains(&option.as_str()) {
            return (option, None);
        }
    }
    // `arch -arm64`: a single-dash word taken as a plain flag.
    (text.to_owned(), None)
}
