//! Commands that run code or commands in ways of their own: `env` (its
//! assignments, `-S STRING`, `-C DIR`), `git` (`rebase --exec`,
//! `submodule foreach`, `bisect run`, `filter-branch`, aliases defined
//! with `-c`) and `watch`.

use super::scope::Scope;
use super::walk::Walker;
use super::{Simple, Word};
use crate::paths;

impl Walker<'_, '_> {
    /// `env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=VALUE]... CMD`.
    pub(super) fn env(&mut self, simple: Simple, shell: &mut Scope, env: &Scope, hops: usize) {
        let mut scope = env.child();
        let mut cwd = simple.cwd.clone();
        let mut words: Vec<Word> = simple.args.clone();
        let mut i = 0;
        while let Some(word) = words.get(i).cloned() {
            let text = word.text.as_str();
            i += 1;
            match text {
                "--" => break,
                "-u" | "--unset" => i += 1,
                "-C" | "--chdir" => {
                    if let Some(dir) = words.get(i) {
                        cwd = paths::join(&cwd, &dir.text);
                    }
                    i += 1;
                }
                "-S" | "--split-string" => {
                    // `env -S 'rm -rf /'`: the string is split into words.
                    let split: Vec<Word> = words
                        .get(i)
                        .map(|s| s.text.split_whitespace().map(|w| s.with_text(w)).collect())
                        .unwrap_or_default();
                    let tail: Vec<Word> = words.get(i + 1..).unwrap_or_default().to_vec();
                    words = split.into_iter().chain(tail).collect();
                    i = 0;
                }
                _ if text.starts_with("--chdir=") => {
                    cwd = paths::join(&cwd, text.trim_start_matches("--chdir="));
                }
                _ if text.starts_with('-') && text.len() > 1 => {}
                _ if text.contains('=') => {
                    if let Some((name, value)) = text.split_once('=') {
                        scope.set(name, vec![word.with_text(value)], self.cx.budget);
                    }
                }
                _ => {
                    i -= 1;
                    break;
                }
            }
        }
        let rest: Vec<Word> = words.get(i..).unwrap_or_default().to_vec();
        let Some(inner) = super::walk::wrapped(simple, rest, cwd) else {
            return;
        };
        let mut child = shell.child();
        self.emit(inner, &mut child, &scope, hops + 1);
    }

    /// Code git runs: `rebase --exec`, `submodule foreach`, `bisect run`,
    /// `filter-branch --*-filter`, and aliases defined with `-c`.
    pub(super) fn git(&mut self, simple: Simple, env: &Scope) {
        let args = &simple.args;
        let mut aliases: Vec<(String, String)> = Vec::new();
        let mut i = 0;
        while let Some(arg) = args.get(i) {
            let text = arg.text.as_str();
            if !text.starts_with('-') {
                break;
            }
            if text == "-c"
                && let Some(value) = args.get(i + 1)
                && let Some((key, alias)) = value.text.split_once('=')
                && let Some(name) = key.strip_prefix("alias.")
            {
                aliases.push((name.to_owned(), alias.to_owned()));
            }
            i += if matches!(
                text,
                "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace"
            ) {
                2
            } else {
                1
            };
        }
        let Some(sub) = args.get(i) else {
            return;
        };
        let rest = args.get(i + 1..).unwrap_or_default();
        let mut child = env.child();
        if let Some((_, alias)) = aliases.iter().find(|(name, _)| *name == sub.text) {
            let code = match alias.strip_prefix('!') {
                Some(shell_code) => shell_code.to_owned(),
                None => format!("git {alias}"),
            };
            let line = std::iter::once(code)
                .chain(rest.iter().map(|w| w.text.clone()))
                .collect::<Vec<_>>()
                .join(" ");
            return self.code(&Word::literal(line), &mut child, simple.stdin.clone());
        }
        let code_options: &[&str] = match sub.text.as_str() {
            "rebase" => &["-x", "--exec"],
            "filter-branch" => &[
                "--env-filter",
                "--tree-filter",
                "--index-filter",
                "--parent-filter",
                "--msg-filter",
                "--commit-filter",
                "--tag-name-filter",
            ],
            "submodule" => {
                if let Some(at) = rest.iter().position(|w| w.text == "foreach") {
                    let words: Vec<Word> = rest
                        .get(at + 1..)
                        .unwrap_or_default()
                        .iter()
                        .skip_while(|w| w.text.starts_with('-'))
                        .cloned()
                        .collect();
                    self.code(
                        &super::run::joined(&words),
                        &mut child,
                        simple.stdin.clone(),
                    );
                }
                return;
            }
            "bisect" if rest.first().is_some_and(|w| w.text == "run") => {
                let words: Vec<Word> = rest.get(1..).unwrap_or_default().to_vec();
                self.code(
                    &super::run::joined(&words),
                    &mut child,
                    simple.stdin.clone(),
                );
                return;
            }
            _ => return,
        };
        let mut words = rest.iter();
        while let Some(word) = words.next() {
            let (option, inline) = match word.text.split_once('=') {
                Some((option, value)) => (option, Some(word.with_text(value))),
                None => (word.text.as_str(), None),
            };
            if code_options.contains(&option)
                && let Some(code) = inline.or_else(|| words.next().cloned())
            {
                let mut scope = child.child();
                self.code(&code, &mut scope, simple.stdin.clone());
            }
        }
    }
}

/// `watch [-n SECS] [-x] CMD ARGS`: the command's words.
pub(super) fn watch_command(args: &[Word]) -> Vec<Word> {
    let mut words = args.iter();
    let mut out = Vec::new();
    while let Some(word) = words.next() {
        match word.text.as_str() {
            _ if !out.is_empty() => out.push(word.clone()),
            "-n" | "--interval" | "-q" | "--equexit" => {
                words.next();
            }
            flag if flag.starts_with('-') => {}
            _ => out.push(word.clone()),
        }
    }
    out
}
