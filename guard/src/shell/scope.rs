//! What is known at one point of a line: variables, functions, positional
//! parameters, the working directory, and what feeds stdin.
//!
//! Copying a scope is cheap (reference counts): every command, subshell
//! and pipeline stage takes a copy, and only a write (an assignment, a
//! `cd`, a function definition) copies a table, once, charged to the
//! budget. So a line with many variables and many nested subshells costs
//! in proportion to what it writes, not to its nesting times its
//! variables.

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

use super::output::Output;
use super::{Redirect, Word};
use crate::budget::Budget;
use crate::pattern::UNKNOWN;

/// A shell function: its body, and whether the line calls it.
#[derive(Debug)]
pub(super) struct Func {
    pub(super) body: Rc<str>,
    pub(super) called: Cell<bool>,
}

#[derive(Debug, Clone)]
pub(super) struct Scope {
    /// Variables set on the line: a scalar is one word, an array several.
    /// A name not here comes from the environment: unknown.
    vars: Rc<HashMap<String, Rc<Vec<Word>>>>,
    funcs: Rc<HashMap<String, Rc<Func>>>,
    /// `$1`, `$@`...: `None` when unknown (the line's own arguments).
    pub(super) positional: Option<Rc<Vec<Word>>>,
    /// The working directory (`~` for home); [`UNKNOWN`] when unknown.
    pub(super) cwd: String,
    pub(super) oldpwd: String,
    /// `pushd`'s stack.
    pub(super) dirs: Rc<Vec<String>>,
    /// The names of the commands whose output may reach stdin.
    pub(super) stdin: Vec<String>,
    /// What stdin holds, when the line says (`echo TEXT |`, `<<< TEXT`).
    pub(super) stdin_data: Option<Output>,
    /// Redirections of an enclosing statement (`{ ...; } > file`).
    pub(super) redirects: Vec<Redirect>,
}

impl Scope {
    pub(super) fn new(cwd: Option<&str>) -> Scope {
        let cwd = cwd.map_or_else(|| UNKNOWN.to_string(), str::to_owned);
        Scope {
            vars: Rc::default(),
            funcs: Rc::default(),
            positional: None,
            oldpwd: UNKNOWN.to_string(),
            cwd,
            dirs: Rc::default(),
            stdin: Vec::new(),
            stdin_data: None,
            redirects: Vec::new(),
        }
    }

    /// `$name` as words: `None` when the line does not say.
    pub(super) fn var(&self, name: &str) -> Option<Rc<Vec<Word>>> {
        self.vars.get(name).cloned()
    }

    pub(super) fn set(&mut self, name: &str, words: Vec<Word>, budget: &mut Budget) {
        if Rc::strong_count(&self.vars) > 1 {
            budget.charge(self.vars.len());
        }
        budget.charge(words.iter().map(|w| w.text.len()).sum::<usize>() + 1);
        Rc::make_mut(&mut self.vars).insert(name.to_owned(), Rc::new(words));
    }

    /// `name` holds a value the guard cannot know (read from stdin, ...),
    /// fed by `subs`.
    pub(super) fn set_unknown(&mut self, name: &str, subs: Vec<String>, budget: &mut Budget) {
        self.set(name, vec![Word::unknown(subs)], budget);
    }

    pub(super) fn func(&self, name: &str) -> Option<Rc<Func>> {
        self.funcs.get(name).cloned()
    }

    pub(super) fn define(&mut self, name: &str, func: Rc<Func>, budget: &mut Budget) {
        if Rc::strong_count(&self.funcs) > 1 {
            budget.charge(self.funcs.len());
        }
        Rc::make_mut(&mut self.funcs).insert(name.to_owned(), func);
    }

    /// Takes the shell state (not the I/O) of `inner`, which ran in this
    /// same shell (a redirected statement, a group).
    pub(super) fn absorb(&mut self, inner: Scope) {
        self.vars = inner.vars;
        self.funcs = inner.funcs;
        self.positional = inner.positional;
        self.cwd = inner.cwd;
        self.oldpwd = inner.oldpwd;
        self.dirs = inner.dirs;
    }

    /// Moves to `dir` (`cd`), remembering where it was.
    pub(super) fn chdir(&mut self, dir: String) {
        self.oldpwd = std::mem::replace(&mut self.cwd, dir);
    }

    pub(super) fn push_dir(&mut self, dir: String) {
        let old = std::mem::replace(&mut self.cwd, dir);
        Rc::make_mut(&mut self.dirs).push(old.clone());
        self.oldpwd = old;
    }

    pub(super) fn pop_dir(&mut self) {
        let back = Rc::make_mut(&mut self.dirs)
            .pop()
            .unwrap_or_else(|| UNKNOWN.to_string());
        self.chdir(back);
    }

    /// A scope for a child process: the same variables and directory, its
    /// own I/O.
    pub(super) fn child(&self) -> Scope {
        let mut child = self.clone();
        child.redirects.clear();
        child
    }
}
