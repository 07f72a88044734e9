//! What a shell command line will run: every simple command, as argv.
//!
//! The line is parsed with tree-sitter-bash, never matched as text: quotes,
//! escapes, paths (`/bin/rm`, `\rm`, `"rm"`), lists, pipelines, subshells,
//! substitutions, wrappers (`sudo`, `env`, `xargs`, `find -exec`, ...) and
//! `sh -c` strings (recursively) all end up as [`Simple`] commands with
//! what can be known expanded (`~`, `$HOME`, literal assignments made
//! earlier on the same line, a literal `cd`).
//!
//! A line tree-sitter cannot parse cleanly (ERROR or MISSING nodes, a
//! parse cut short) is matched conservatively: the commands tree-sitter
//! recovered are kept, and the line is also split by `fallback` into
//! words at shell operators, each piece checked as a command of its own.
//! Work is bounded: input size, parse time, tree depth, `sh -c` nesting
//! and the number of commands; a line past a bound is reported as
//! [`Parsed::too_complex`] and the guard denies it (a line longer than
//! `MAX_PARSE_BYTES` is only split by `fallback`).

// `PARSER`'s initializer is `const` already; the clippy of the Windows CI
// (Debian's rustc-web) still asks for it.
#![allow(clippy::missing_const_for_thread_local)]

mod expand;
mod fallback;
mod walk;
mod word;
mod wrappers;

pub use wrappers::{SHELLS, program_from_stdin};

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Lines longer than this are not parsed, only split by `fallback`.
pub const MAX_PARSE_BYTES: usize = 128 * 1024;
/// Longest line looked at at all; past it the line is too complex.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;
/// Syntax tree nesting walked.
pub const MAX_TREE_DEPTH: usize = 128;
/// `sh -c "sh -c '...'"` levels followed.
pub const MAX_SHELL_DEPTH: usize = 4;
/// Simple commands collected from one line.
pub const MAX_COMMANDS: usize = 2048;
/// A parse taking longer than this is abandoned and the line denied
/// (tree-sitter is linear, a few ms for 100 KiB; this only stops a
/// pathological input, well within the shim's 5 s).
const PARSE_DEADLINE: Duration = Duration::from_millis(250);

/// Text standing for a value that cannot be known statically (`$x` of an
/// unknown `x`, a command substitution): it matches no path and no flag.
pub const UNKNOWN: char = '\u{FFFD}';

/// One word of a command, expanded as far as possible.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Word {
    /// The word after quote removal and known expansions; unknown parts are
    /// [`UNKNOWN`].
    pub text: String,
    /// The names of the commands run inside substitutions in this word
    /// (`$(curl ...)`, `<(curl ...)`).
    pub subs: Vec<String>,
}

impl Word {
    pub fn literal(text: impl Into<String>) -> Word {
        Word {
            text: text.into(),
            subs: Vec::new(),
        }
    }

    /// Fully known (no unknown expansion in it).
    pub fn known(&self) -> bool {
        !self.text.contains(UNKNOWN)
    }
}

/// A redirection of a simple command to or from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Redirect {
    /// `>`, `>>`, `&>`, `>|`: the target is written; `<` read.
    pub write: bool,
    pub target: Word,
}

/// One simple command as it will run: the resolved name and its words.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Simple {
    /// The command name: quotes and escapes removed, the directory dropped
    /// (`/usr/bin/git` → `git`), wrappers unwrapped.
    pub name: String,
    pub args: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// The names of the commands whose output may reach this command's
    /// stdin: earlier stages of its pipeline, `< <(...)`, `<<< "$(...)"`.
    pub stdin: Vec<String>,
    /// The working directory when known: the event's, then a literal `cd`
    /// earlier on the line. `~` stands for the home directory.
    pub cwd: Option<String>,
}

impl Simple {
    /// The command as a short line, for reasons.
    pub fn display(&self) -> String {
        let mut line = self.name.clone();
        for arg in &self.args {
            line.push(' ');
            line.push_str(&arg.text.replace(UNKNOWN, "?"));
            if line.len() > 120 {
                line.push('…');
                break;
            }
        }
        line
    }
}

/// The commands of one line.
#[derive(Debug, Default)]
pub struct Parsed {
    pub commands: Vec<Simple>,
    /// Some bound was reached: what, for the reason given to the agent.
    pub too_complex: Option<&'static str>,
    /// tree-sitter reported errors, so `fallback` pieces were added.
    pub unparsed: bool,
}

thread_local! {
    /// One parser per worker thread: creating one per call is cheap, but
    /// reusing it is cheaper still on the hook path.
    static PARSER: RefCell<Option<tree_sitter::Parser>> = const { RefCell::new(None) };
}

/// Every simple command of `line`; `cwd` is where it runs (when known).
pub fn parse(line: &str, cwd: Option<&str>) -> Parsed {
    let mut out = Parsed::default();
    if line.len() > MAX_LINE_BYTES {
        out.too_complex = Some("the command line is too long to check");
        return out;
    }
    let scope = walk::Scope::new(cwd);
    parse_into(line, &scope, 0, &mut out);
    out
}

/// Parses `line` (nested `depth` levels of `sh -c`) in `scope` into `out`.
fn parse_into(line: &str, scope: &walk::Scope, depth: usize, out: &mut Parsed) {
    if depth > MAX_SHELL_DEPTH {
        out.too_complex = Some("`sh -c` strings are nested too deeply to check");
        return;
    }
    let tree = if line.len() <= MAX_PARSE_BYTES {
        parse_tree(line)
    } else {
        Tree::TooLong
    };
    match tree {
        Tree::Parsed(tree) => {
            let root = tree.root_node();
            let mut walker = walk::Walker {
                src: line.as_bytes(),
                depth,
                out,
            };
            walker.statements(root, &mut scope.clone(), 0);
            if root.has_error() {
                out.unparsed = true;
                fallback::split(line, scope, depth, out);
            }
        }
        Tree::Overran => {
            out.too_complex = Some("the command line took too long to parse");
        }
        Tree::TooLong | Tree::NoParser => {
            out.unparsed = true;
            fallback::split(line, scope, depth, out);
        }
    }
}

/// What parsing gave.
enum Tree {
    Parsed(tree_sitter::Tree),
    /// Past [`PARSE_DEADLINE`].
    Overran,
    /// Past [`MAX_PARSE_BYTES`]: only split.
    TooLong,
    /// No parser could be made (the grammar's ABI refused); only split.
    NoParser,
}

/// The syntax tree of `line`.
fn parse_tree(line: &str) -> Tree {
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
        let started = Instant::now();
        let mut overran = |_: &tree_sitter::ParseState| {
            if started.elapsed() > PARSE_DEADLINE {
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
