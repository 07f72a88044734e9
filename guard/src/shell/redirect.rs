//! Redirections: files read and written, what feeds stdin (`< <(cmd)`,
//! `<<< TEXT`, heredocs, expanded unless quoted), and `>(cmd)` targets,
//! which read what their writer writes.

use tree_sitter::Node;

use super::Redirect;
use super::output::Output;
use super::scope::Scope;
use super::walk::{Walker, named};

impl Walker<'_, '_> {
    /// Walks `>(cmd)` targets: `cmd` reads what `names` write.
    pub(super) fn fed_by(
        &mut self,
        targets: Vec<Node<'_>>,
        names: &[String],
        scope: &Scope,
        level: usize,
    ) {
        for target in targets {
            let mut inner = scope.child();
            inner.stdin = names.to_vec();
            inner.stdin_data = None;
            self.children(target, &mut inner, level + 1);
        }
    }

    /// Applies one redirect node to `scope` (its redirects, stdin and what
    /// stdin holds); a `>(cmd)` target is returned, to walk once the
    /// writer is known.
    pub(super) fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        scope: &mut Scope,
        level: usize,
    ) -> Option<Node<'t>> {
        match node.kind() {
            "file_redirect" => {
                let op = node
                    .children(&mut node.walk())
                    .find(|c| !c.is_named())
                    .map(|c| self.text(c).into_owned())
                    .unwrap_or_default();
                let dest = node.child_by_field_name("destination")?;
                let reads = op.starts_with('<') && op != "<&";
                if dest.kind() == "process_substitution" {
                    if !reads {
                        return Some(dest);
                    }
                    let (names, output) = self.substitution(dest, scope, level + 1);
                    scope.stdin.extend(names);
                    scope.stdin_data = output;
                    return None;
                }
                let target = self.word(dest, scope, level + 1);
                if reads {
                    scope.stdin.extend(target.subs.iter().cloned());
                    scope.stdin_data = None;
                }
                let dup = op.ends_with('&') || op == ">&" || op == "<&";
                if dup && (target.text.chars().all(|c| c.is_ascii_digit()) || target.text == "-") {
                    return None;
                }
                if op.contains('>') || op == "<" {
                    scope.redirects.push(Redirect {
                        write: op.contains('>'),
                        target,
                    });
                }
            }
            "herestring_redirect" => {
                for child in named(node) {
                    let word = self.word(child, scope, level + 1);
                    scope.stdin.extend(word.subs.iter().cloned());
                    scope.stdin_data = Some(Output::Text(format!("{}\n", word.text)));
                }
            }
            "heredoc_redirect" => {
                let quoted = named(node)
                    .find(|c| c.kind() == "heredoc_start")
                    .is_some_and(|s| self.text(s).contains(['\'', '"', '\\']));
                match named(node).find(|c| c.kind() == "heredoc_body") {
                    Some(body) => {
                        let text = self.heredoc(body, quoted, scope, level + 1);
                        scope.stdin.extend(text.subs.iter().cloned());
                        scope.stdin_data = Some(Output::Text(text.text));
                    }
                    None => scope.stdin_data = Some(Output::Text(String::new())),
                }
            }
            _ => {}
        }
        None
    }
}
