//! Word evaluation: quote removal, the expansions the line makes known
//! (variables, `${x:-y}` and friends, positional parameters, arrays,
//! `$(echo ...)`), field splitting and brace expansion, and the commands
//! run by substitutions inside a word. What cannot be known is
//! `pattern::UNKNOWN`, carrying the names of the commands that feed it.

use tree_sitter::Node;

use super::scope::Scope;
use super::walk::{Walker, named};
use super::{Word, word};
use crate::pattern::{CLASS_CLOSE, CLASS_OPEN, ONE, STAR, UNKNOWN};

/// A word being built: its fields so far (a field is kept if it has text
/// or a quoted part), and the commands feeding it.
#[derive(Debug)]
pub(super) struct Build {
    pub(super) fields: Vec<(String, bool)>,
    pub(super) subs: Vec<String>,
    /// Unquoted expansions split into fields (arguments; not assignments).
    pub(super) split: bool,
}

impl Build {
    pub(super) fn new(split: bool) -> Build {
        Build {
            fields: vec![(String::new(), false)],
            subs: Vec::new(),
            split,
        }
    }

    pub(super) fn text(&mut self) -> &mut String {
        if self.fields.is_empty() {
            self.fields.push((String::new(), false));
        }
        let last = self.fields.len() - 1;
        &mut self.fields[last].0
    }

    pub(super) fn quoted(&mut self) {
        self.text();
        let last = self.fields.len() - 1;
        self.fields[last].1 = true;
    }

    pub(super) fn at_start(&self) -> bool {
        self.fields.len() == 1 && self.fields[0].0.is_empty() && !self.fields[0].1
    }

    pub(super) fn break_field(&mut self) {
        self.fields.push((String::new(), false));
    }

    /// An expansion's value: as is when quoted; unquoted, split at blanks
    /// (when splitting) and globbed.
    pub(super) fn value(&mut self, text: &str, quoted: bool) {
        if quoted {
            self.quoted();
            self.text().push_str(text);
            return;
        }
        let mut first = true;
        for piece in text.split([' ', '\t', '\n']) {
            if !first && self.split {
                self.break_field();
            } else if !first {
                self.text().push(' ');
            }
            first = false;
            let out = self.text();
            for c in piece.chars() {
                out.push(match c {
                    '*' => STAR,
                    '?' => ONE,
                    '[' => CLASS_OPEN,
                    ']' => CLASS_CLOSE,
                    c => c,
                });
            }
        }
    }

    pub(super) fn words(self, braces: bool) -> Vec<Word> {
        let subs = self.subs;
        self.fields
            .into_iter()
            .filter(|(text, real)| *real || !text.is_empty())
            .flat_map(|(text, _)| word::finish(&text, braces))
            .map(|text| Word {
                text,
                subs: subs.clone(),
                fields: false,
            })
            .collect()
    }
}

impl Walker<'_, '_> {
    /// One word, unsplit (a command name, an assignment's value, a
    /// redirection's target).
    pub(super) fn word(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) -> Word {
        let mut build = Build::new(false);
        self.build(node, scope, level, false, &mut build);
        let subs = build.subs.clone();
        let texts: Vec<String> = build.words(false).into_iter().map(|w| w.text).collect();
        Word {
            text: texts.join(" "),
            subs,
            fields: false,
        }
    }

    /// The words an argument becomes: split, brace-expanded, `"$@"`.
    pub(super) fn fields(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) -> Vec<Word> {
        let mut build = Build::new(true);
        self.build(node, scope, level, false, &mut build);
        build.words(true)
    }

    pub(super) fn build(
        &mut self,
        node: Node<'_>,
        scope: &mut Scope,
        level: usize,
        quoted: bool,
        b: &mut Build,
    ) {
        if !self.enter(level) {
            b.text().push(UNKNOWN);
            return;
        }
        match node.kind() {
            "word" if !quoted => {
                let text = self.text(node).into_owned();
                let expanded = match b.at_start() {
                    true => self.tilde(&text, scope),
                    false => None,
                };
                match expanded {
                    Some((head, tail)) => {
                        b.text().push_str(&head);
                        word::unescape(&tail, b.text());
                    }
                    None => word::unescape(&text, b.text()),
                }
            }
            "raw_string" => {
                let text = self.text(node);
                let inner = text.strip_prefix('\'').unwrap_or(&text);
                let inner = inner.strip_suffix('\'').unwrap_or(inner).to_owned();
                b.quoted();
                b.text().push_str(&inner);
            }
            "string" | "translated_string" => {
                b.quoted();
                for child in named(node) {
                    self.build(child, scope, level + 1, true, b);
                }
            }
            "string_content" => {
                let text = self.text(node).into_owned();
                word::unescape_double(&text, b.text());
            }
            "ansi_c_string" => {
                let text = self.text(node).into_owned();
                b.quoted();
                word::ansi_c(&text, b.text());
            }
            "concatenation" | "command_name" => {
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    self.build(child, scope, level + 1, quoted, b);
                }
            }
            "simple_expansion" | "expansion" => self.expansion(node, scope, level, quoted, b),
            "command_substitution" => {
                let (names, output) = self.substitution(node, scope, level);
                b.subs.extend(names);
                match output {
                    Some(out) => {
                        let text = out.text();
                        b.value(text.trim_end_matches('\n'), quoted);
                    }
                    None => b.text().push(UNKNOWN),
                }
            }
            "process_substitution" => {
                let (names, _) = self.substitution(node, scope, level);
                b.subs.extend(names);
                b.text().push_str("/dev/fd/63");
            }
            "arithmetic_expansion" => {
                let mut inner = scope.child();
                self.children(node, &mut inner, level);
                b.text().push(UNKNOWN);
            }
            "brace_expression" => {
                let text = self.text(node).into_owned();
                for c in text.chars() {
                    word::unquoted(c, b.text());
                }
            }
            "\"" | "$\"" | "'" => {}
            _ if !node.is_named() && quoted => {}
            _ => {
                let text = self.text(node).into_owned();
                match quoted {
                    true => b.text().push_str(&text),
                    false => word::unescape(&text, b.text()),
                }
            }
        }
    }

    /// A leading `~` form: the expanded head and the rest of the word.
    fn tilde(&self, text: &str, scope: &Scope) -> Option<(String, String)> {
        if !text.starts_with('~') {
            return None;
        }
        let split = text.find('/').unwrap_or(text.len());
        let (head, tail) = text.split_at(split);
        let home = scope
            .var("HOME")
            .and_then(|w| w.first().map(|w| w.text.clone()));
        let expanded = word::tilde(
            head,
            home.as_deref(),
            &scope.cwd,
            &scope.oldpwd,
            self.cx.user.as_deref(),
        )?;
        Some((expanded, tail.to_owned()))
    }

    /// Walks a `$(...)` or `<(...)` (its stdin is the shell's); the names
    /// of what ran and feeds it, and what it printed when known.
    pub(super) fn substitution(
        &mut self,
        node: Node<'_>,
        scope: &Scope,
        level: usize,
    ) -> (Vec<String>, Option<super::Output>) {
        let mut inner = scope.child();
        self.cx.output = None;
        let statements: Vec<Node<'_>> = named(node).filter(|c| c.kind() != "comment").collect();
        let names = self.names_added(|w| {
            for statement in &statements {
                w.statements(*statement, &mut inner, level + 1);
            }
        });
        let output = match statements.as_slice() {
            [one] if matches!(one.kind(), "command" | "pipeline" | "redirected_statement") => {
                self.cx.output.take()
            }
            _ => None,
        };
        (names, output)
    }

    /// An unquoted heredoc's text, expanded; a quoted one's as written.
    pub(super) fn heredoc(
        &mut self,
        body: Node<'_>,
        quoted: bool,
        scope: &mut Scope,
        level: usize,
    ) -> Word {
        let raw = |w: &Self, from: usize, to: usize| {
            String::from_utf8_lossy(w.src.get(from..to).unwrap_or_default()).into_owned()
        };
        if quoted {
            return Word::literal(self.text(body).into_owned());
        }
        let mut b = Build::new(false);
        let mut at = body.start_byte();
        for child in named(body) {
            let gap = raw(self, at, child.start_byte());
            word::unescape_double(&gap, b.text());
            match child.kind() {
                "heredoc_content" => {
                    let text = self.text(child).into_owned();
                    word::unescape_double(&text, b.text());
                }
                _ => self.build(child, scope, level + 1, true, &mut b),
            }
            at = child.end_byte();
        }
        let tail = raw(self, at, body.end_byte());
        word::unescape_double(&tail, b.text());
        let subs = b.subs.clone();
        let text = b
            .fields
            .into_iter()
            .map(|(t, _)| t)
            .collect::<Vec<_>>()
            .join(" ");
        Word {
            text,
            subs,
            fields: false,
        }
    }
}
