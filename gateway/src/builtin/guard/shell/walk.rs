//! The syntax tree to [`Simple`] commands, statement by statement, with
//! what the line itself makes known (assignments, `cd`) carried along.

use std::borrow::Cow;
use std::collections::HashMap;

use tree_sitter::Node;

use super::{MAX_COMMANDS, MAX_TREE_DEPTH, Parsed, Redirect, Simple, wrappers};

/// What is known at one point of the line.
#[derive(Debug, Clone, Default)]
pub(super) struct Scope {
    /// Variables assigned earlier on the line: `Some(value)` when literal,
    /// `None` when assigned something unknown.
    pub(super) vars: HashMap<String, Option<String>>,
    pub(super) cwd: Option<String>,
    /// Commands feeding stdin (pipeline stages before this one).
    pub(super) stdin: Vec<String>,
    /// Redirections of an enclosing statement (`{ ...; } > file`).
    pub(super) redirects: Vec<Redirect>,
    /// What stdin holds when it is literal text (`echo TEXT |`,
    /// `<<< TEXT`): a shell reading its program from stdin runs it.
    pub(super) stdin_text: Option<String>,
}

impl Scope {
    pub(super) fn new(cwd: Option<&str>) -> Scope {
        Scope {
            cwd: cwd.map(str::to_owned),
            ..Scope::default()
        }
    }

    /// The value of `$name`: assigned on the line, `~` for `HOME`, else
    /// unknown.
    pub(super) fn var(&self, name: &str) -> Option<String> {
        match self.vars.get(name) {
            Some(value) => value.clone(),
            None if name == "HOME" => Some("~".to_owned()),
            None => None,
        }
    }
}

/// Walks one tree; `depth` is the `sh -c` nesting of this line.
pub(super) struct Walker<'a> {
    pub(super) src: &'a [u8],
    pub(super) depth: usize,
    pub(super) out: &'a mut Parsed,
}

impl Walker<'_> {
    pub(super) fn text(&self, node: Node<'_>) -> Cow<'_, str> {
        String::from_utf8_lossy(self.src.get(node.byte_range()).unwrap_or_default())
    }

    /// Stops the walk when a bound is reached (and says which).
    pub(super) fn bounded(&mut self, level: usize) -> bool {
        if level > MAX_TREE_DEPTH {
            self.out.too_complex = Some("the command line is nested too deeply to check");
        } else if self.out.commands.len() >= MAX_COMMANDS {
            self.out.too_complex = Some("the command line has too many commands to check");
        }
        self.out.too_complex.is_some()
    }

    /// Walks `node`, updating `scope` as a statement sequence would.
    pub(super) fn statements(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        if self.bounded(level) {
            return;
        }
        match node.kind() {
            "command" => self.command(node, scope, level),
            "variable_assignment" => self.assign(node, scope, level),
            "declaration_command" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    match child.kind() {
                        "variable_assignment" => self.assign(child, scope, level + 1),
                        _ => self.statements(child, scope, level + 1),
                    }
                }
            }
            "unset_command" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    let name = self.text(child).into_owned();
                    scope.vars.insert(name, None);
                }
            }
            "pipeline" => self.pipeline(node, scope, level),
            "redirected_statement" => self.redirected(node, scope, level),
            "for_statement" => {
                if let Some(var) = node.child_by_field_name("variable") {
                    let name = self.text(var).into_owned();
                    scope.vars.insert(name, None);
                }
                self.children(node, scope, level);
            }
            // Their own scope: nothing inside changes what follows.
            "subshell"
            | "function_definition"
            | "command_substitution"
            | "process_substitution" => {
                let mut inner = scope.clone();
                inner.stdin.clear();
                self.children(node, &mut inner, level);
            }
            // `$(< file)`: bash's `$(cat file)`, a read with no command.
            "file_redirect" => {
                let mut inner = scope.clone();
                self.redirect(node, &mut inner, &mut Vec::new(), level);
                self.push(Simple {
                    redirects: inner.redirects,
                    cwd: inner.cwd,
                    ..Simple::default()
                });
            }
            "comment" | "heredoc_body" | "heredoc_start" | "heredoc_end" => {}
            _ => self.children(node, scope, level),
        }
    }

    pub(super) fn children(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            self.statements(child, scope, level + 1);
        }
    }

    /// The names of the commands `f` adds.
    pub(super) fn names_added(&mut self, f: impl FnOnce(&mut Self)) -> Vec<String> {
        let before = self.out.commands.len();
        f(self);
        let mut names: Vec<String> = self.out.commands[before.min(self.out.commands.len())..]
            .iter()
            .map(|c| c.name.clone())
            .collect();
        names.dedup();
        names
    }

    /// Each stage reads what the stages before it write.
    fn pipeline(&mut self, node: Node<'_>, scope: &Scope, level: usize) {
        let mut upstream = scope.stdin.clone();
        let mut text = None;
        let mut cursor = node.walk();
        for stage in node.named_children(&mut cursor) {
            let mut inner = scope.clone();
            inner.stdin = upstream.clone();
            inner.stdin_text = text.take();
            let before = self.out.commands.len();
            let names = self.names_added(|w| w.statements(stage, &mut inner, level + 1));
            text = match self.out.commands.get(before..) {
                Some([only]) => super::word::printed(only),
                _ => None,
            };
            upstream.extend(names);
        }
    }

    /// `body > file`, `body < <(cmd)`, `body <<< "$(cmd)"`, `sh <<EOF`.
    fn redirected(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let mut inner = scope.clone();
        let mut heredocs = Vec::new();
        let mut cursor = node.walk();
        for (i, child) in node.children(&mut cursor).enumerate() {
            let field = u32::try_from(i)
                .ok()
                .and_then(|i| node.field_name_for_child(i));
            if field == Some("redirect") {
                self.redirect(child, &mut inner, &mut heredocs, level);
            }
        }
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let before = self.out.commands.len();
        self.statements(body, &mut inner, level + 1);
        // A heredoc fed to a shell is a script: parse it as one.
        let to_shell = self.out.commands.get(before..).is_some_and(|added| {
            added
                .iter()
                .any(|c| wrappers::SHELLS.contains(&c.name.as_str()))
        });
        if to_shell {
            for text in heredocs {
                super::parse_into(&text, &inner, self.depth + 1, self.out);
            }
        }
    }

    /// One redirection into `scope` (its redirects and stdin).
    fn redirect(
        &mut self,
        node: Node<'_>,
        scope: &mut Scope,
        heredocs: &mut Vec<String>,
        level: usize,
    ) {
        match node.kind() {
            "file_redirect" => {
                let op = node
                    .children(&mut node.walk())
                    .find(|c| !c.is_named())
                    .map(|c| self.text(c).into_owned())
                    .unwrap_or_default();
                let Some(dest) = node.child_by_field_name("destination") else {
                    return;
                };
                let target = self.word(dest, scope, level + 1);
                if op.starts_with('<') && op != "<&" {
                    scope.stdin.extend(target.subs.iter().cloned());
                }
                if op.contains('>') || op == "<" {
                    scope.redirects.push(Redirect {
                        write: op.contains('>'),
                        target,
                    });
                }
            }
            "herestring_redirect" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    let word = self.word(child, scope, level + 1);
                    scope.stdin_text = word.known().then(|| word.text.clone());
                    scope.stdin.extend(word.subs);
                }
            }
            "heredoc_redirect" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    if child.kind() == "heredoc_body" {
                        heredocs.push(self.text(child).into_owned());
                        // Unquoted heredocs run their substitutions.
                        let mut inner = scope.clone();
                        self.children(child, &mut inner, level + 1);
                    } else {
                        let mut inner = scope.clone();
                        self.statements(child, &mut inner, level + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// `name=value` as a statement: the value is known from here on.
    fn assign(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let (name, value) = self.assignment(node, scope, level);
        scope.vars.insert(name, value);
    }

    /// The name and (when fully known) value of an assignment.
    fn assignment(
        &mut self,
        node: Node<'_>,
        scope: &Scope,
        level: usize,
    ) -> (String, Option<String>) {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n).into_owned())
            .unwrap_or_default();
        let value = match node.child_by_field_name("value") {
            None => Some(String::new()),
            Some(value) => {
                let word = self.word(value, scope, level + 1);
                word.known().then_some(word.text)
            }
        };
        (name, value)
    }

    /// One simple command: its words, then wrappers and `cd`.
    fn command(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let mut env = scope.clone();
        let mut name = None;
        let mut args = Vec::new();
        let mut cursor = node.walk();
        let mut heredocs = Vec::new();
        for (i, child) in node.children(&mut cursor).enumerate() {
            let field = u32::try_from(i)
                .ok()
                .and_then(|i| node.field_name_for_child(i));
            match (field, child.kind()) {
                (_, "variable_assignment") => {
                    let (var, value) = self.assignment(child, scope, level + 1);
                    env.vars.insert(var, value);
                }
                (Some("name"), _) => name = Some(self.word(child, scope, level + 1)),
                (_, "file_redirect" | "herestring_redirect" | "heredoc_redirect") => {
                    self.redirect(child, &mut env, &mut heredocs, level + 1);
                }
                (Some("argument"), _) => args.push(self.word(child, scope, level + 1)),
                _ => {}
            }
        }
        let Some(name) = name else {
            // Only assignments: they hold for the rest of the line.
            scope.vars.extend(env.vars);
            return;
        };
        let simple = Simple {
            name: command_name(&name.text),
            args,
            redirects: env.redirects.clone(),
            stdin: env.stdin.clone(),
            cwd: env.cwd.clone(),
        };
        if matches!(simple.name.as_str(), "cd" | "pushd") {
            scope.cwd = super::word::cd(scope.cwd.as_deref(), simple.args.first());
        }
        wrappers::emit(self, simple, &env, 0);
    }

    /// Adds a command to the output (bounded).
    pub(super) fn push(&mut self, simple: Simple) {
        if self.out.commands.len() < MAX_COMMANDS {
            self.out.commands.push(simple);
        } else {
            self.out.too_complex = Some("the command line has too many commands to check");
        }
    }

    /// Parses `code` as a nested shell line (`sh -c`, `eval`).
    pub(super) fn nested(&mut self, code: &str, scope: &Scope) {
        super::parse_into(code, scope, self.depth + 1, self.out);
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
