//! The conservative reading of a line tree-sitter could not parse: split
//! at every shell operator, each piece is a command of plain words.
//!
//! It cannot see substitutions or quoting structure, so it over-splits
//! (`$(`, `<(`, backquotes and braces all separate pieces) and strips
//! quote characters and backslashes from words. Pipes are kept: a piece
//! reads from the pieces before it in its pipeline; redirection operators separate words too.
//! The pieces go through
//! the same wrappers (`sudo`, `sh -c` of a plain word, ...) as parsed
//! commands.

use super::walk::{Scope, Walker, command_name};
use super::{Parsed, Simple, Word, wrappers};

const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case",
    "esac", "!", "function", "select",
];

/// Adds the pieces of `line` to `out`.
pub(super) fn split(line: &str, scope: &Scope, depth: usize, out: &mut Parsed) {
    let mut walker = Walker {
        src: line.as_bytes(),
        depth,
        out,
    };
    for statement in line.split([';', '&', '\n', '(', ')', '`', '{', '}']) {
        let mut upstream: Vec<String> = scope.stdin.clone();
        for stage in statement.split('|') {
            // Redirection targets stay as words: `cat<.env` reads `.env`.
            let mut words = stage
                .split(|c: char| c.is_whitespace() || c == '<' || c == '>')
                .map(|w| w.replace(['\'', '"', '\\'], ""))
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
            wrappers::emit(&mut walker, simple, scope, 0);
            if walker.out.too_complex.is_some() {
                return;
            }
        }
    }
}
