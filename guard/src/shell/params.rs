//! Parameter expansion: `$x`, `${x}`, positional parameters, arrays, and
//! the operators the line can settle (`${x:-y}`, `${x:=y}`, `${x:+y}`,
//! `${#x}`, and on known text `${x#p}`, `${x%%p}`, `${x/a/b}`, `${x^^}`,
//! `${x:1:2}`); anything else is unknown.

use tree_sitter::Node;

use super::Word;
use super::expand::Build;
use super::scope::Scope;
use super::walk::Walker;
use crate::pattern::{UNKNOWN, is_literal};

impl Walker<'_, '_> {
    /// `$x`, `${x}`, `${x:-default}` and the other operators the line can
    /// settle; anything else is unknown (substitutions inside still run).
    pub(super) fn expansion(
        &mut self,
        node: Node<'_>,
        scope: &mut Scope,
        level: usize,
        quoted: bool,
        b: &mut Build,
    ) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
        let at = children.iter().position(|c| {
            matches!(
                c.kind(),
                "variable_name" | "special_variable_name" | "subscript"
            )
        });
        let Some(at) = at else {
            b.text().push(UNKNOWN);
            return;
        };
        let prefix = children
            .get(..at)
            .unwrap_or_default()
            .iter()
            .filter(|c| !c.is_named())
            .map(|c| self.text(*c).into_owned())
            .find(|t| t == "#" || t == "!");
        let after = children.get(at + 1..).unwrap_or_default();
        let op = after
            .iter()
            .find(|c| !c.is_named() && c.kind() != "}")
            .map(|c| self.text(*c).into_owned());
        let (name, value, joined) = self.lookup(children[at], scope);
        let mut inner = Build::new(false);
        let rest: Vec<Node<'_>> = after.iter().filter(|c| c.is_named()).copied().collect();
        for child in &rest {
            self.build(*child, scope, level + 1, true, &mut inner);
        }
        let inner_subs = inner.subs.clone();
        let inner_text: String = inner.fields.iter().map(|(t, _)| t.as_str()).collect();
        b.subs.extend(inner_subs);
        if let Some(words) = &value {
            b.subs
                .extend(words.iter().flat_map(|w| w.subs.iter().cloned()));
        }
        if let Some(prefix) = prefix {
            let length = value
                .as_ref()
                .filter(|w| prefix == "#" && w.iter().all(|w| is_literal(&w.text)))
                .map(|w| match children[at].kind() {
                    "subscript" => w.len().to_string(),
                    _ => w.first().map_or(0, |w| w.text.chars().count()).to_string(),
                });
            b.text()
                .push_str(&length.unwrap_or_else(|| UNKNOWN.to_string()));
            return;
        }
        let empty = |v: &Option<Vec<Word>>| {
            v.as_ref()
                .is_some_and(|w| w.iter().all(|w| w.text.is_empty()))
        };
        let result: Option<Vec<Word>> = match op.as_deref() {
            None | Some(":?" | "?") => value,
            Some(op @ (":-" | "-" | ":=" | "=")) => {
                let colon = op.starts_with(':');
                match &value {
                    Some(_) if !(colon && empty(&value)) => value,
                    Some(_) => {
                        let default = vec![Word::literal(inner_text.clone())];
                        if op.contains('=') {
                            scope.set(&name, default.clone(), self.cx.budget);
                        }
                        Some(default)
                    }
                    None => {
                        if op.contains('=') {
                            scope.set_unknown(&name, Vec::new(), self.cx.budget);
                        }
                        None
                    }
                }
            }
            Some(op @ (":+" | "+")) => match &value {
                Some(_) if op == ":+" && empty(&value) => Some(vec![Word::literal("")]),
                Some(_) => Some(vec![Word::literal(inner_text.clone())]),
                None => None,
            },
            Some(op) => {
                value.and_then(|v| transform(op, &v, &rest_texts(self, &rest, &inner_text)))
            }
        };
        match result {
            None => b.text().push(UNKNOWN),
            Some(words) => {
                for (i, w) in words.iter().enumerate() {
                    if i > 0 {
                        match quoted && !joined {
                            true => b.break_field(),
                            false => b.value(" ", quoted),
                        }
                    }
                    b.value(&w.text, quoted);
                }
                if words.is_empty() && quoted && !joined {
                    // `"$@"` with no arguments is no word at all.
                    b.fields.pop();
                }
            }
        }
    }

    /// The value of `$name` (or `$1`, `$@`, `${a[0]}`): `None` when the
    /// line does not say; `joined` for `$*`-like values (one word).
    fn lookup(&self, node: Node<'_>, scope: &Scope) -> (String, Option<Vec<Word>>, bool) {
        let text = self.text(node).into_owned();
        if node.kind() == "subscript" {
            let name = node
                .child_by_field_name("name")
                .map(|n| self.text(n).into_owned())
                .unwrap_or_default();
            let index = node
                .child_by_field_name("index")
                .map(|n| self.text(n).into_owned())
                .unwrap_or_default();
            let all = scope.var(&name).map(|w| w.as_ref().clone());
            let value = match index.as_str() {
                "@" => all,
                "*" => return (name, all, true),
                n => n
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| all.map(|w| w.get(n).cloned().into_iter().collect())),
            };
            return (name, value, false);
        }
        let positional = scope.positional.as_ref();
        let value = match text.as_str() {
            "@" => positional.map(|p| p.as_ref().clone()),
            "*" => return (text, positional.map(|p| p.as_ref().clone()), true),
            "#" => positional.map(|p| vec![Word::literal(p.len().to_string())]),
            n if n.chars().all(|c| c.is_ascii_digit()) && n != "0" => {
                let index: usize = n.parse().unwrap_or(usize::MAX);
                positional
                    .map(|p| vec![p.get(index.saturating_sub(1)).cloned().unwrap_or_default()])
            }
            name => match scope.var(name) {
                Some(words) => Some(words.iter().take(1).cloned().collect()),
                None => match name {
                    "HOME" => Some(vec![Word::literal("~")]),
                    "PWD" => Some(vec![Word::literal(scope.cwd.clone())]),
                    "OLDPWD" => Some(vec![Word::literal(scope.oldpwd.clone())]),
                    _ => None,
                },
            },
        };
        (text, value, false)
    }
}

/// The operator's word(s) after the name, as text: for `/`, the pattern
/// and the replacement.
fn rest_texts(w: &Walker<'_, '_>, rest: &[Node<'_>], joined: &str) -> Vec<String> {
    match rest.len() {
        0 | 1 => vec![joined.to_owned()],
        _ => rest.iter().map(|n| w.text(*n).into_owned()).collect(),
    }
}

/// `${x#p}`, `${x%%p}`, `${x/a/b}`, `${x^^}`, `${x:1:2}` on known text.
fn transform(op: &str, value: &[Word], args: &[String]) -> Option<Vec<Word>> {
    let text = value.first()?.text.clone();
    if !is_literal(&text) || !args.iter().all(|a| is_literal(a)) {
        return None;
    }
    let pattern = args.first().map(String::as_str).unwrap_or_default();
    let out = match op {
        "#" => strip(&text, pattern, true, false),
        "##" => strip(&text, pattern, true, true),
        "%" => strip(&text, pattern, false, false),
        "%%" => strip(&text, pattern, false, true),
        "/" | "//" => {
            let with = args.get(1).map(String::as_str).unwrap_or_default();
            if pattern.contains(['*', '?', '[']) || pattern.is_empty() {
                return None;
            }
            match op {
                "/" => text.replacen(pattern, with, 1),
                _ => text.replace(pattern, with),
            }
        }
        "^^" => text.to_uppercase(),
        ",," => text.to_lowercase(),
        ":" => {
            let offset: usize = args.first()?.trim().parse().ok()?;
            let chars = text.chars().skip(offset);
            match args.get(1).map(|l| l.trim().parse::<usize>()) {
                Some(Ok(len)) => chars.take(len).collect(),
                Some(Err(_)) => return None,
                None => chars.collect(),
            }
        }
        _ => return None,
    };
    Some(vec![Word::literal(out)])
}

/// `text` without its shortest (or longest) prefix (or suffix) matching
/// the glob `pattern`.
fn strip(text: &str, pattern: &str, prefix: bool, longest: bool) -> String {
    let bounds: Vec<usize> = (0..=text.len())
        .filter(|i| text.is_char_boundary(*i))
        .collect();
    let mut order: Vec<usize> = bounds.clone();
    if longest == prefix {
        order.reverse();
    }
    for i in order {
        let (head, tail) = text.split_at(i);
        let (part, keep) = if prefix { (head, tail) } else { (tail, head) };
        if glob_match(pattern, part) {
            return keep.to_owned();
        }
    }
    text.to_owned()
}

/// A shell pattern (`*`, `?`, literal) against text.
fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        match p.get(pi) {
            Some('?') => {
                pi += 1;
                ti += 1;
            }
            Some('*') => {
                star = Some(pi);
                mark = ti;
                pi += 1;
            }
            Some(c) if Some(c) == t.get(ti) => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some(s) => {
                    pi = s + 1;
                    mark += 1;
                    ti = mark;
                }
                None => return false,
            },
        }
    }
    p.get(pi..).unwrap_or_default().iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_removal() {
        assert_eq!(strip("x/", "x", true, false), "/");
        assert_eq!(strip("/a/b/c", "*/", true, true), "c");
        assert_eq!(strip("/a/b/c", "/*", false, false), "/a/b");
        assert_eq!(strip("file.tar.gz", ".*", false, true), "file");
    }
}
