//! What a shell command line will run: every simple command, as argv.
//!
//! The line is parsed with tree-sitter-bash, never matched as text: quotes,
//! escapes, paths (`/bin/rm`, `\rm`, `"rm"`), lists, pipelines, subshells,
//! substitutions, functions, loops, wrappers (`sudo`, `env`, `xargs`,
//! `find -exec`, ...) and code run by `sh -c`, `eval`, `trap` and the like
//! all end up as [`Simple`] commands, with what the line makes known
//! expanded (assignments, `cd`, loop values, a function's arguments, what
//! `echo` prints) and the rest marked unknown (`pattern::UNKNOWN`), for the
//! rules to judge as the worst it could be.
//!
//! A line tree-sitter cannot parse cleanly (ERROR or MISSING nodes) is read
//! twice: the commands tree-sitter recovered, and `coarse`'s split of the
//! text at every shell operator. All work draws from the call's budget
//! (`crate::budget`); a line past it, or past the bounds below, is too
//! complex to check and the guard denies it. There is no cheaper reading
//! for long lines: a line is parsed whole or refused.

// `PARSER`'s initializer is `const` already; the clippy of the Windows CI
// (Debian's rustc-web) still asks for it.
#![allow(clippy::missing_const_for_thread_local)]

mod assign;
mod builtins;
mod coarse;
mod expand;
mod feeds;
mod interp;
mod memo;
mod output;
mod params;
mod plain;
mod redirect;
mod run;
mod scope;
mod special;
mod walk;
mod word;
mod wrappers;

pub(crate) use interp::{SHELLS, program_from_stdin, shell_code};
pub(crate) use output::Output;
pub(crate) use word::glob_words;
pub(crate) use wrappers::runs_another;

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::budget::Budget;
use crate::pattern::{self, UNKNOWN};
use scope::{Func, Scope};

/// Longest line looked at at all; past it the line is too complex.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;
/// Syntax tree nesting walked.
pub const MAX_TREE_DEPTH: usize = 128;
/// Code inside code followed: `sh -c`, `eval`, a function's body, `trap`.
pub const MAX_SHELL_DEPTH: usize = 6;
/// Simple commands collected from one line.
pub const MAX_COMMANDS: usize = 2048;
/// A parse taking longer than this is abandoned and the line denied, when
/// the caller gave no earlier deadline.
const PARSE_DEADLINE: Duration = Duration::from_secs(1);

/// One word of a command, expanded as far as the line says.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Word {
    /// The word after quote removal and known expansions, with
    /// `pattern`'s markers for unknown parts and unquoted globs.
    pub(crate) text: String,
    /// The commands whose output is in this word (`$(curl ...)`, a
    /// variable assigned one, `<(curl ...)`).
    pub(crate) subs: Vec<String>,
    /// Any number of words the guard cannot see (the code of an `eval` of
    /// something unknown): flags and operands at once.
    pub(crate) fields: bool,
}

impl Word {
    pub(crate) fn literal(text: impl Into<String>) -> Word {
        Word {
            text: text.into(),
            ..Word::default()
        }
    }

    /// A word whose value is unknown, fed by `subs`.
    pub(crate) fn unknown(subs: Vec<String>) -> Word {
        Word {
            text: UNKNOWN.to_string(),
            subs,
            fields: false,
        }
    }

    /// Fully known: no unknown part (globs allowed).
    pub(crate) fn known(&self) -> bool {
        !pattern::has_unknown(&self.text)
    }

    /// The same provenance, other text (an option's inline value).
    pub(crate) fn with_text(&self, text: &str) -> Word {
        Word {
            text: text.to_owned(),
            subs: self.subs.clone(),
            fields: false,
        }
    }
}

/// A redirection of a simple command to or from a file.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Redirect {
    /// `>`, `>>`, `&>`, `>|`, `<>`: the target is written; `<` read.
    pub(crate) write: bool,
    pub(crate) target: Word,
}

/// One simple command as it will run: the resolved name and its words.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Simple {
    /// The command name: quotes and escapes removed, the directory dropped
    /// (`/usr/bin/git` → `git`), wrappers unwrapped; with markers when the
    /// program is not known (`$CMD`).
    pub(crate) name: String,
    pub(crate) args: Vec<Word>,
    pub(crate) redirects: Vec<Redirect>,
    /// The names of the commands whose output may reach this command's
    /// stdin: earlier stages of its pipeline, `< <(...)`, `<<< "$(...)"`.
    pub(crate) stdin: Vec<String>,
    /// What stdin holds, when the line says.
    pub(crate) stdin_data: Option<Output>,
    /// The working directory (`~` for home), with markers when unknown.
    pub(crate) cwd: String,
    /// It may not run at all: it comes from a program the guard cannot
    /// resolve (`$WRAP rm -rf /`). A rule matches it at most as Maybe.
    pub(crate) maybe: bool,
    /// It runs on whole trees: `find DIR -exec CMD {} +` applies CMD to
    /// everything below DIR, as a recursive flag would.
    pub(crate) tree: bool,
}

impl Simple {
    /// The command as a short line, for reasons.
    pub(crate) fn display(&self) -> String {
        let mut line = pattern::shown(&self.name);
        for arg in &self.args {
            line.push(' ');
            line.push_str(&pattern::shown(&arg.text));
            if line.len() > 120 {
                let mut end = 120;
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                line.truncate(end);
                line.push('…');
                break;
            }
        }
        line
    }
}

/// The commands of one line.
#[derive(Debug, Clone, Default)]
pub(crate) struct Parsed {
    pub(crate) commands: Vec<Simple>,
    /// tree-sitter reported errors, so `coarse` pieces were added.
    pub(crate) unparsed: bool,
}

/// What the parse needs to know of where the line runs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Place<'a> {
    pub(crate) cwd: Option<&'a str>,
    /// The user's home directory (`~user` of this user is `~`).
    pub(crate) home: Option<&'a str>,
    /// Command names compared without case (macOS, Windows).
    pub(crate) fold: bool,
}

/// What every walker of one line shares: the output, the budget, and what
/// the line defines.
struct Ctx<'b> {
    out: Parsed,
    budget: &'b mut Budget,
    /// This user's name, as `~name` may spell the home directory.
    user: Option<String>,
    fold: bool,
    /// Every function defined, to walk those never called at the end.
    functions: Vec<Rc<Func>>,
    /// What the last command emitted prints, when known.
    output: Option<Output>,
    /// Function calls in progress.
    calls: usize,
}

thread_local! {
    /// One parser per worker thread: creating one per call is cheap, but
    /// reusing it is cheaper still.
    static PARSER: RefCell<Option<tree_sitter::Parser>> = const { RefCell::new(None) };
}

/// Every simple command of `line`, run at `place`; the work is drawn from
/// `budget`, which says why when the line was too complex.
pub(crate) fn parse(line: &str, place: Place<'_>, budget: &mut Budget) -> Parsed {
    if tree_only() {
        return parse_afresh(line, place, budget);
    }
    if let Some(parsed) = memo::recall(line, place, budget) {
        return parsed;
    }
    let before = budget.left();
    let parsed = parse_afresh(line, place, budget);
    if budget.ok() {
        memo::keep(line, place, before - budget.left(), &parsed);
    }
    parsed
}

/// [`parse`] without the memo.
fn parse_afresh(line: &str, place: Place<'_>, budget: &mut Budget) -> Parsed {
    let mut cx = Ctx {
        out: Parsed::default(),
        budget,
        user: place
            .home
            .map(crate::paths::basename)
            .filter(|u| !u.is_empty() && u != "/"),
        fold: place.fold,
        functions: Vec::new(),
        output: None,
        calls: 0,
    };
    if line.len() > MAX_LINE_BYTES {
        cx.budget.fail("the command line is too long to check");
        return cx.out;
    }
    let mut scope = Scope::new(place.cwd);
    parse_into(line, &mut scope, 0, &mut cx);
    run::uncalled_functions(&mut cx, &scope);
    cx.out
}

/// Parses `code` (nested `depth` levels) in `scope` into `cx`.
fn parse_into(code: &str, scope: &mut Scope, depth: usize, cx: &mut Ctx<'_>) {
    if depth > MAX_SHELL_DEPTH {
        cx.budget
            .fail("code inside code (`sh -c`, `eval`, functions) is nested too deeply to check");
        return;
    }
    if !cx.budget.charge(code.len() + 1) {
        return;
    }
    if let Some(words) = plain::words(code).filter(|_| !tree_only()) {
        let mut walker = walk::Walker {
            src: code.as_bytes(),
            depth,
            cx,
        };
        walker.plain(&words, scope);
        return;
    }
    let deadline = cx
        .budget
        .deadline()
        .unwrap_or_else(|| Instant::now() + PARSE_DEADLINE);
    match parse_tree(code, deadline) {
        Tree::Parsed(tree) => {
            let root = tree.root_node();
            let mut walker = walk::Walker {
                src: code.as_bytes(),
                depth,
                cx,
            };
            walker.statements(root, scope, 0);
            if root.has_error() {
                walker.cx.out.unparsed = true;
                coarse::split(code, scope, depth, walker.cx);
            }
        }
        Tree::Overran => cx.budget.overran("the command line took too long to parse"),
        Tree::NoParser => {
            cx.out.unparsed = true;
            coarse::split(code, scope, depth, cx);
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Set by tests to read every line through the tree, to hold the
    /// plain reading to it.
    static TREE_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn tree_only() -> bool {
    TREE_ONLY.with(std::cell::Cell::get)
}

#[cfg(not(test))]
const fn tree_only() -> bool {
    false
}

/// What parsing gave.
enum Tree {
    Parsed(tree_sitter::Tree),
    /// Past the deadline.
    Overran,
    /// No parser could be made (the grammar's ABI refused); only split.
    NoParser,
}

/// The syntax tree of `line`, or [`Tree::Overran`] past `deadline`.
fn parse_tree(line: &str, deadline: Instant) -> Tree {
    PARSER.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return Tree::NoParser;
        };
        if slot.is_none() {
            let mut parser = tree_sitter::Parser::new();
            if parser
                .set_language(&tree_sitter_bash::LANGUAGE.into())
                .is_err()
            {
                return Tree::NoParser;
            }
            *slot = Some(parser);
        }
        let Some(parser) = slot.as_mut() else {
            return Tree::NoParser;
        };
        let mut overran = |_: &tree_sitter::ParseState| {
            if Instant::now() > deadline {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut overran);
        let bytes = line.as_bytes();
        let tree = parser.parse_with_options(
            &mut |i, _| bytes.get(i..).unwrap_or_default(),
            None,
            Some(options),
        );
        // A cancelled parse leaves state behind; the next parse starts clean.
        parser.reset();
        match tree {
            Some(tree) => Tree::Parsed(tree),
            None => Tree::Overran,
        }
    })
}
