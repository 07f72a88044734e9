//! Assignments: `name=value`, arrays, `x+=y`, `a[i]=y`, and the
//! declaration builtins (`export`, `local`, `declare`, `readonly`,
//! `typeset`).

use tree_sitter::Node;

use super::Word;
use super::scope::Scope;
use super::walk::{Walker, named};

impl Walker<'_, '_> {
    /// `name=value` as a statement: the value is known from here on.
    pub(super) fn assign(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let (name, words) = self.assignment(node, scope, level);
        scope.set(&name, words, self.cx.budget);
    }

    /// The name and value (one word, or an array's words) of an
    /// assignment. `x+=y` appends; `a[i]=y` makes `a` unknown.
    pub(super) fn assignment(
        &mut self,
        node: Node<'_>,
        scope: &mut Scope,
        level: usize,
    ) -> (String, Vec<Word>) {
        let name_node = node.child_by_field_name("name");
        let subscript = name_node.is_some_and(|n| n.kind() == "subscript");
        let name = name_node
            .map(|n| match n.child_by_field_name("name") {
                Some(inner) => self.text(inner).into_owned(),
                None => self.text(n).into_owned(),
            })
            .unwrap_or_default();
        let appends = named(node).count() > 0
            && self
                .text(node)
                .get(name.len()..)
                .is_some_and(|t| t.starts_with("+="));
        let mut words = match node.child_by_field_name("value") {
            None => vec![Word::literal("")],
            Some(value) if value.kind() == "array" => {
                let mut items = Vec::new();
                for item in named(value) {
                    items.extend(self.fields(item, scope, level + 1));
                }
                items
            }
            Some(value) => vec![self.word(value, scope, level + 1)],
        };
        if subscript {
            let subs = words.iter().flat_map(|w| w.subs.clone()).collect();
            return (name, vec![Word::unknown(subs)]);
        }
        if appends && let (Some(old), Some(new)) = (scope.var(&name), words.first()) {
            let mut joined = old.first().cloned().unwrap_or_default();
            joined.text.push_str(&new.text);
            joined.subs.extend(new.subs.iter().cloned());
            words = vec![joined];
        } else if appends {
            let subs = words.iter().flat_map(|w| w.subs.clone()).collect();
            words = vec![Word::unknown(subs)];
        }
        (name, words)
    }

    /// `export`, `local`, `declare`, `readonly`, `typeset`.
    pub(super) fn declaration(&mut self, node: Node<'_>, scope: &mut Scope, level: usize) {
        let nameref = named(node).any(|c| {
            c.kind() == "word" && self.text(c).starts_with('-') && self.text(c).contains('n')
        });
        for child in named(node) {
            match child.kind() {
                "variable_assignment" => {
                    let (name, words) = self.assignment(child, scope, level + 1);
                    if nameref {
                        scope.set_unknown(&name, Vec::new(), self.cx.budget);
                    } else {
                        scope.set(&name, words, self.cx.budget);
                    }
                }
                "variable_name" | "word" => {}
                _ => self.statements(child, scope, level + 1),
            }
        }
    }
}
