//! The short way through a plain line: one simple command whose words are
//! all literal (`npm test -- --runInBand`, what agents run most).
//!
//! A line made only of ASCII letters, digits, `_ . / : , + @ % = -` and
//! blanks holds no quoting, expansion, glob, operator, redirection or
//! comment: bash splits it at the blanks and runs the first word with the
//! rest as its arguments. Such a line skips the syntax tree (its parse
//! is most of a cheap call's cost, and its tables are what an idle gateway
//! has out of cache) and each word goes through the same word
//! finishing and the same [`Walker::emit`] as the tree walk's, so what
//! follows (wrappers, `sh -c`, `eval`, `find -exec`, builtins) is read
//! the same way. A line with a keyword or a declaration anywhere, or an
//! assignment first, takes the tree: there the grammar decides. The
//! tests hold both readings equal over generated lines, but for one kind
//! of line tree-sitter misreads: a first word ending in `%` or `@` (`a%
//! rm -rf /`), whose recovery kept only the rest of the line. Bash runs
//! that first word as the command (`a%: command not found`), as the plain
//! reading says.

use super::expand::Build;
use super::scope::Scope;
use super::walk::{Walker, in_scope};
use super::{Word, word};

/// Words that tree-sitter-bash reads as syntax, not as a command's name or
/// argument, in some position (its grammar's keywords and declaration
/// commands).
const SYNTAX: &[&str] = &[
    "case", "declare", "do", "done", "elif", "else", "esac", "export", "fi", "for", "function",
    "if", "in", "local", "readonly", "select", "then", "typeset", "unset", "unsetenv", "until",
    "while",
];

/// The bytes a plain word may hold.
fn plain_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"_./:,+@%=-".contains(&byte)
}

/// The words of `code` when it is one plain simple command, else `None`.
pub(super) fn words(code: &str) -> Option<Vec<&str>> {
    if !code
        .bytes()
        .all(|b| plain_byte(b) || b == b' ' || b == b'\t')
    {
        return None;
    }
    let words: Vec<&str> = code.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    let first = words.first()?;
    if first.contains('=') || words.iter().any(|w| SYNTAX.contains(w)) {
        return None;
    }
    Some(words)
}

impl Walker<'_, '_> {
    /// Emits the plain command `words` (from [`words`]) run in `scope`, as
    /// the tree walk emits a `command` node of literal words.
    pub(super) fn plain(&mut self, words: &[&str], scope: &mut Scope) {
        // What the walk charges for the nodes: the program, the command,
        // and each word's node and its text.
        if !self.cx.budget.charge(2 + 2 * words.len()) {
            return;
        }
        let Some((first, rest)) = words.split_first() else {
            return;
        };
        let name = finished(first, false)
            .into_iter()
            .map(|w| w.text)
            .collect::<Vec<_>>()
            .join(" ");
        let args = rest.iter().flat_map(|w| finished(w, true)).collect();
        let env = scope.clone();
        let simple = in_scope(&name, args, &env);
        self.emit(simple, scope, &env, 0);
    }
}

/// One literal word as the walk finishes it: the name unsplit, an
/// argument as fields.
fn finished(text: &str, split: bool) -> Vec<Word> {
    let mut build = Build::new(split);
    word::unescape(text, build.text());
    build.words(split)
}

#[cfg(test)]
mod tests;
