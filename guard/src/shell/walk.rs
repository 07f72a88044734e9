//! The syntax tree to [`Simple`] commands, statement by statement, with
//! what the line itself makes known (assignments, `cd`, loops, functions,
//! stdin) carried along in a [`Scope`].

use std::borrow::Cow;
use std::rc::Rc;

use tree_sitter::Node;

use super::output::Output;
use super::scope::{Func, Scope};
use super::{Ctx, MAX_COMMANDS, MAX_TREE_DEPTH, Simple, Word};

/// Most values a `for` loop is followed with one by one; a longer list
/// makes its variable unknown.
const MAX_LOOP_VALUES: usize = 32;

/// Walks one tree; `depth` is how deep in nested code it is.
pub(super) struct Walker<'a, 'b> {
    pub(super) src: &'a [u8],
    pub(super) depth: usize,
    pub(super) cx: &'a mut Ctx<'b>,
}

impl Walker<'_, '_> {
    pub(super) fn text(&self, node: Node<'_>) -> Cow<'_, str> {
        String::from_utf8_lossy(self.src.get(node.byte_range()).unwrap_or_default())
    }

    /// Charges one node; `false` once a bound is reached (and says which).
    pub(super) fn enter(&mut self, level: usize) -> bool {
        if level > MAX_TREE_DEPTH {
            self.cx
                .budget
                .fail("the command line is nested too deeply to check");
        }
        self.cx.budget.charge(1)
    }

    /// Walks `node`, updating `scope` as a statement sequence would.
    pub(super) fn statements(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        if !self.enter(level) {
            return;
        }
        match node.kind() {
            "command" => self.command(node, scope, level),
            "variable_assignment" => self.assign(node, scope, level),
            "declaration_command" => self.declaration(node, scope, level),
            "unset_command" => {
                for child in named(node) {
                    let name = self.text(child).into_owned();
                    if !name.starts_with('-') {
                        scope.set(&name, vec![Word::literal("")], self.cx.budget);
                    }
                }
            }
            "pipeline" => self.pipeline(node, scope, None, level),
            "redirected_statement" => self.redirected(node, scope, level),
            "for_statement" | "select_statement" => self.for_loop(node, scope, level),
            "function_definition" => self.define(node, scope),
            // Their own process: nothing inside changes what follows.
            "subshell" | "command_substitution" | "process_substitution" => {
                let mut inner = scope.child();
                self.children(node, &mut inner, level);
            }
            // `$(< file)`: bash's `$(cat file)`, a read with no command.
            "file_redirect" => {
                let mut inner = scope.child();
                self.redirect(node, &mut inner, level);
                self.push(Simple {
                    redirects: inner.redirects,
                    cwd: inner.cwd,
                    ..Simple::default()
                });
            }
            "comment" | "heredoc_body" | "heredoc_start" | "heredoc_end" | "heredoc_content" => {}
            _ => self.children(node, scope, level),
        }
    }

    pub(super) fn children(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            self.statements(child, scope, level + 1);
        }
    }

    /// The names of the commands `f` adds, and of what feeds them.
    pub(super) fn names_added(&mut self, f: impl FnOnce(&mut Self)) -> Vec<String> {
        let before = self.cx.out.commands.len();
        f(self);
        let mut names: Vec<String> = Vec::new();
        for c in self.cx.out.commands.get(before..).unwrap_or_default() {
            for name in std::iter::once(&c.name).chain(&c.stdin) {
                if !name.is_empty() && !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        names
    }

    /// Each stage reads what the stages before it write; `first` is what
    /// feeds the first stage (a heredoc's command, for its `| rest`).
    fn pipeline(
        &mut self,
        node: Node<'_>,
        scope: &Scope,
        first: Option<(Vec<String>, Option<Output>)>,
        level: usize,
    ) {
        let (mut upstream, mut data) = match first {
            Some(feed) => feed,
            None => (scope.stdin.clone(), scope.stdin_data.clone()),
        };
        for stage in named(node) {
            if stage.kind() == "comment" {
                continue;
            }
            let mut inner = scope.child();
            inner.stdin.clone_from(&upstream);
            inner.stdin_data = data.take();
            self.cx.output = None;
            let names = self.names_added(|w| w.statements(stage, &mut inner, level + 1));
            data = self.cx.output.take();
            for name in names {
                if !upstream.contains(&name) {
                    upstream.push(name);
                }
            }
        }
    }

    /// `body > file`, `body < <(cmd)`, `body <<< "$(cmd)"`, `sh <<EOF`.
    fn redirected(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let mut inner = scope.clone();
        let mut writers = Vec::new();
        let mut rest = Vec::new();
        let mut cursor = node.walk();
        for (i, child) in node.children(&mut cursor).enumerate() {
            let field = u32::try_from(i)
                .ok()
                .and_then(|i| node.field_name_for_child(i));
            if field == Some("redirect") {
                writers.extend(self.redirect(child, &mut inner, level));
                if child.kind() == "heredoc_redirect" {
                    rest.extend(named(child).filter(|c| !c.kind().starts_with("heredoc")));
                }
            }
        }
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        self.cx.output = None;
        let names = self.names_added(|w| w.statements(body, &mut inner, level + 1));
        let output = self.cx.output.take();
        // `cat <<EOF | sh`: the rest of the pipeline sits in the heredoc.
        for next in rest {
            match next.kind() {
                "pipeline" => {
                    self.pipeline(next, scope, Some((names.clone(), output.clone())), level)
                }
                _ => {
                    let mut fed = scope.child();
                    fed.stdin.clone_from(&names);
                    fed.stdin_data.clone_from(&output);
                    self.statements(next, &mut fed, level + 1);
                }
            }
        }
        self.fed_by(writers, &names, scope, level);
        inner.redirects.clear();
        scope.absorb(inner);
    }

    /// `for x in WORDS; do BODY; done`: the body once per value, while the
    /// list is short; else once with `x` unknown.
    fn for_loop(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let name = node
            .child_by_field_name("variable")
            .map(|v| self.text(v).into_owned())
            .unwrap_or_default();
        let mut values: Option<Vec<Word>> = None;
        let mut cursor = node.walk();
        for (i, child) in node.children(&mut cursor).enumerate() {
            let field = u32::try_from(i)
                .ok()
                .and_then(|i| node.field_name_for_child(i));
            if field == Some("value") {
                let words = self.fields(child, scope, level + 1);
                values.get_or_insert_with(Vec::new).extend(words);
            }
        }
        let values = match values {
            Some(values) => Some(values),
            None => scope.positional.as_ref().map(|p| p.as_ref().clone()),
        };
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        match values {
            Some(values) if values.len() <= MAX_LOOP_VALUES => {
                for value in values {
                    scope.set(&name, vec![value], self.cx.budget);
                    self.statements(body, scope, level + 1);
                }
            }
            other => {
                let subs = other
                    .iter()
                    .flatten()
                    .flat_map(|w| w.subs.clone())
                    .collect();
                scope.set_unknown(&name, subs, self.cx.budget);
                self.statements(body, scope, level + 1);
            }
        }
    }

    /// `f() { ...; }`: kept, and walked where it is called (or at the end,
    /// if nothing on the line calls it).
    fn define(&mut self, node: Node<'_>, scope: &mut Scope) {
        let (Some(name), Some(body)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("body"),
        ) else {
            return;
        };
        let func = Rc::new(Func {
            body: Rc::from(self.text(body).as_ref()),
            called: std::cell::Cell::new(false),
        });
        self.cx.functions.push(Rc::clone(&func));
        let name = self.text(name).into_owned();
        scope.define(&name, func, self.cx.budget);
    }

    /// One simple command: its words, then what it runs.
    fn command(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let mut env = scope.clone();
        let mut name = None;
        let mut args = Vec::new();
        let mut writers = Vec::new();
        let mut last_end = 0;
        let mut cursor = node.walk();
        for (i, child) in node.children(&mut cursor).enumerate() {
            let field = u32::try_from(i)
                .ok()
                .and_then(|i| node.field_name_for_child(i));
            match (field, child.kind()) {
                (_, "variable_assignment") => {
                    let (var, words) = self.assignment(child, scope, level + 1);
                    env.set(&var, words, self.cx.budget);
                }
                (Some("name"), _) => {
                    name = Some(self.word(child, scope, level + 1));
                    last_end = child.end_byte();
                }
                (_, "file_redirect" | "herestring_redirect" | "heredoc_redirect") => {
                    writers.extend(self.redirect(child, &mut env, level + 1));
                }
                (Some("argument"), _) => {
                    let words = self.fields(child, scope, level + 1);
                    // `r\<newline>m`: tree-sitter splits a word at a line
                    // continuation; bash does not.
                    let gap = self
                        .src
                        .get(last_end..child.start_byte())
                        .unwrap_or_default();
                    let joined = last_end > 0 && (gap.is_empty() || gap == b"\\\n");
                    last_end = child.end_byte();
                    let previous = match args.last_mut() {
                        Some(arg) => Some(arg),
                        None => name.as_mut(),
                    };
                    match (joined, previous, words.as_slice()) {
                        (true, Some(previous), [only]) => {
                            previous.text.push_str(&only.text);
                            previous.subs.extend(only.subs.iter().cloned());
                        }
                        _ => args.extend(words),
                    }
                }
                _ => {}
            }
        }
        let Some(name) = name else {
            // Only assignments: they hold for the rest of the line.
            env.redirects.clear();
            env.stdin = scope.stdin.clone();
            env.stdin_data = scope.stdin_data.clone();
            scope.absorb(env);
            return;
        };
        let simple = in_scope(&name.text, args, &env);
        let mut names = vec![simple.name.clone()];
        names.extend(simple.stdin.iter().cloned());
        self.emit(simple, scope, &env, 0);
        self.fed_by(writers, &names, scope, level);
    }

    /// Adds a command to the output (bounded).
    pub(super) fn push(&mut self, simple: Simple) {
        let cost = 1 + simple.args.iter().map(|a| a.text.len()).sum::<usize>();
        if self.cx.out.commands.len() >= MAX_COMMANDS {
            self.cx
                .budget
                .fail("the command line has too many commands to check");
        } else if self.cx.budget.charge(cost) {
            self.cx.out.commands.push(simple);
        }
    }
}

/// The named children of `node`.
pub(super) fn named(node: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    (0..node.named_child_count()).filter_map(move |i| node.named_child(u32::try_from(i).ok()?))
}

/// The command `name` runs with `args` as `env` sets it up: its
/// redirections, its stdin and its directory.
pub(super) fn in_scope(name: &str, args: Vec<Word>, env: &Scope) -> Simple {
    Simple {
        name: command_name(name),
        args,
        redirects: env.redirects.clone(),
        stdin: env.stdin.clone(),
        stdin_data: env.stdin_data.clone(),
        cwd: env.cwd.clone(),
        maybe: false,
        tree: false,
    }
}

/// The name a command runs as: quotes and escapes are already gone; the
/// directory is dropped (`/bin/rm`, `./rm`: `rm`).
pub(super) fn command_name(text: &str) -> String {
    match text.rsplit_once('/') {
        Some((_, base)) if !base.is_empty() => base.to_owned(),
        _ => text.to_owned(),
    }
}

/// The command a wrapper runs: the first of `words` with the others as its
/// arguments, in `cwd`, with the wrapper's redirections and input; `None`
/// when it runs nothing.
pub(super) fn wrapped(wrapper: Simple, mut words: Vec<Word>, cwd: String) -> Option<Simple> {
    if words.is_empty() {
        return None;
    }
    let first = words.remove(0);
    Some(Simple {
        name: command_name(&first.text),
        args: words,
        cwd,
        ..wrapper
    })
}
