//! Word evaluation: quote removal, known expansions, and the commands
//! run by substitutions inside a word.

use tree_sitter::Node;

use super::walk::{Scope, Walker};
use super::{UNKNOWN, Word};

impl Walker<'_> {
    /// Evaluates a word node; substitutions inside are walked as commands
    /// and named in [`Word::subs`].
    pub(super) fn word(&mut self, node: Node<'_>, scope: &Scope, level: usize) -> Word {
        let mut word = Word::default();
        self.word_into(node, scope, level, &mut word);
        word
    }

    fn word_into(&mut self, node: Node<'_>, scope: &Scope, level: usize, word: &mut Word) {
        if self.bounded(level) {
            word.text.push(UNKNOWN);
            return;
        }
        match node.kind() {
            "command_substitution" | "process_substitution" => {
                let names = self.names_added(|w| {
                    let mut inner = scope.clone();
                    inner.stdin.clear();
                    w.children(node, &mut inner, level);
                });
                word.subs.extend(names);
                word.text.push(UNKNOWN);
            }
            "concatenation" | "string" | "command_name" => {
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    self.word_into(child, scope, level + 1, word);
                }
            }
            "simple_expansion" | "expansion" => self.expansion(node, scope, level, word),
            "\"" | "$\"" => {}
            _ => {
                let text = self.text(node);
                super::word::literal(node.kind(), &text, word);
            }
        }
    }

    /// `$x`, `${x}`, and `${x:-default}` (`-`, `:=`, `=`): the default when
    /// `x` is unknown, since that is what runs when it is unset; `${x:?}`
    /// is `x`. Any other operator (`#`, `%`, `/`, `:+`, ...) is unknown,
    /// but substitutions inside still run.
    fn expansion(&mut self, node: Node<'_>, scope: &Scope, level: usize, word: &mut Word) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
        // `${`, the variable's name, then the operator and its words.
        let (name, after) = match children.iter().position(|c| c.kind() == "variable_name") {
            Some(i) => (
                children.get(i).copied(),
                children.get(i + 1..).unwrap_or_default(),
            ),
            None => (None, &[][..]),
        };
        let value = name.and_then(|n| scope.var(&self.text(n)));
        let op = after
            .iter()
            .find(|c| !c.is_named() && c.kind() != "}")
            .map(|c| self.text(*c).into_owned());
        let rest: Vec<Node<'_>> = after.iter().filter(|c| c.is_named()).copied().collect();
        let mut inner = Word::default();
        for child in &rest {
            self.word_into(*child, scope, level + 1, &mut inner);
        }
        word.subs.extend(inner.subs);
        match (op.as_deref(), value) {
            (None | Some(":?" | "?" | ":-" | "-" | ":=" | "="), Some(value)) => {
                word.text.push_str(&value)
            }
            (Some(":-" | "-" | ":=" | "="), None) => word.text.push_str(&inner.text),
            _ => word.text.push(UNKNOWN),
        }
    }
}
