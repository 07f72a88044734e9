//! The conservative reading of a line tree-sitter could not parse: split
//! at every shell operator, each piece is a command of plain words.
//!
//! It cannot see substitutions or quoting structure, so it over-splits
//! (`$(`, `<(`, backquotes and braces all separate pieces) and strips
//! quote characters and backslashes from words; a word with a `$` in it
//! is unknown. Pipes are kept: a piece reads from the pieces before it in
//! its pipeline; redirection operators separate words too. The pieces go
//! through the same wrappers (`sudo`, `sh -c` of a plain word, ...) as
//! parsed commands. This reading is added to what tree-sitter recovered,
//! never used instead of it.

use super::scope::Scope;
use super::walk::{Walker, command_name};
use super::{Ctx, Simple, Word};
use crate::pattern::UNKNOWN;

const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case",
    "esac", "!", "function", "select",
];

/// Adds the pieces of `line` to `cx`.
pub(super) fn split(line: &str, scope: &Scope, depth: usize, cx: &mut Ctx<'_>) {
    let mut walker = Walker {
        src: line.as_bytes(),
        depth,
        cx,
    };
    for statement in line.split([';', '&', '\n', '(', ')', '`', '{', '}']) {
        let mut upstream: Vec<String> = scope.stdin.clone();
        for stage in statement.split('|') {
            // Redirection targets stay as words: `cat<.env` reads `.env`.
            let mut words = stage
                .split(|c: char| c.is_whitespace() || c == '<' || c == '>')
                .map(plain)
                .filter(|w| !w.is_empty() && w != "$");
            // Reserved words open a compound command; the command follows.
            let Some(name) = words.find(|w| !RESERVED.contains(&w.as_str())) else {
                continue;
            };
            let simple = Simple {
                name: command_name(&name),
                args: words.map(Word::literal).collect(),
                stdin: upstream.clone(),
                cwd: scope.cwd.clone(),
                ..Simple::default()
            };
            upstream.push(simple.name.clone());
            let mut shell = scope.child();
            walker.emit(simple, &mut shell, scope, 0);
            if !walker.cx.budget.ok() {
                return;
            }
        }
    }
}

/// A word without quotes and backslashes; `$...` unknown.
fn plain(word: &str) -> String {
    let stripped = word.replace(['\'', '"', '\\'], "");
    match stripped.find('$') {
        Some(at) if stripped.len() > at + 1 => {
            let mut out = stripped.get(..at).unwrap_or_default().to_owned();
            out.push(UNKNOWN);
            out
        }
        _ => stripped,
    }
}
