//! The module paths a file names: every `crate::`, `super::` and `self::`
//! path (braced groups and `self` in them included), resolved to the
//! absolute module path it reaches from the module that names it, inline
//! `mod name { ... }` blocks followed. The input is code with strings and
//! comments blanked (`crate::source`).

/// A module's path from its crate root (empty: the root).
type ModPath = Vec<String>;

/// `(from, to)` for each path `code` names: `from` is the module the path
/// is written in (`module`, or an inline module inside it), `to` what it
/// resolves to (modules and items alike; the caller keeps the modules).
pub(crate) fn resolved(module: &[String], code: &str) -> Vec<(ModPath, ModPath)> {
    let s: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    // Inline modules open here: (name, the brace depth outside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == '{' {
            depth += 1;
        } else if c == '}' {
            depth = depth.saturating_sub(1);
            if inline.last().is_some_and(|(_, outside)| *outside == depth) {
                inline.pop();
            }
        }
        let starts_word = is_ident(c) && (i == 0 || !(is_ident(s[i - 1]) || s[i - 1] == ':'));
        if !starts_word {
            i += 1;
            continue;
        }
        let (word, end) = ident(&s, i);
        let mut current: ModPath = module.to_vec();
        current.extend(inline.iter().map(|(name, _)| name.clone()));
        match word.as_str() {
            "mod" => {
                let (name, after) = ident(&s, skip_ws(&s, end));
                if !name.is_empty() && s.get(skip_ws(&s, after)) == Some(&'{') {
                    inline.push((name, depth));
                }
                i = after;
            }
            "crate" | "super" | "self" if s[end..].starts_with(&[':', ':']) => {
                let (paths, after) = tree(&s, i);
                for path in paths {
                    if let Some(to) = resolve(&current, &path) {
                        found.push((current.clone(), to));
                    }
                }
                i = after;
            }
            _ => i = end,
        }
    }
    found
}

/// `segments` (starting with `crate`, `super` or `self`) from `current`.
fn resolve(current: &[String], segments: &[String]) -> Option<ModPath> {
    let mut out: ModPath = match segments.first()?.as_str() {
        "crate" => Vec::new(),
        "self" => current.to_vec(),
        "super" => current.get(..current.len().checked_sub(1)?)?.to_vec(),
        _ => return None,
    };
    for segment in &segments[1..] {
        match segment.as_str() {
            "super" => {
                out.pop()?;
            }
            "self" => {}
            _ => out.push(segment.clone()),
        }
    }
    Some(out)
}

/// A path tree at `i` (`a::b::{c, d::{self, E}}`, `a::*`), flattened.
fn tree(s: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    loop {
        i = skip_ws(s, i);
        match s.get(i) {
            Some('{') => {
                let (items, end) = group(s, i + 1);
                let paths = items
                    .into_iter()
                    .map(|item| prefix.iter().cloned().chain(item).collect())
                    .collect();
                return (paths, end);
            }
            Some('*') => return (vec![prefix], i + 1),
            _ => {}
        }
        let (segment, end) = ident(s, i);
        if segment.is_empty() {
            return (vec![prefix], i);
        }
        prefix.push(segment);
        i = end;
        let next = skip_ws(s, i);
        if s[next..].starts_with(&[':', ':']) {
            i = next + 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

/// The items of a braced group from just after its `{` to its `}`.
fn group(s: &[char], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut items = Vec::new();
    loop {
        i = skip_ws(s, i);
        if s.get(i).is_none_or(|&c| c == '}') {
            return (items, i + 1);
        }
        let (paths, end) = tree(s, i);
        items.extend(paths);
        i = skip_ws(s, end);
        // `Name as Other`: the rename is not a path.
        let (word, after) = ident(s, i);
        if word == "as" {
            i = skip_ws(s, ident(s, skip_ws(s, after)).1);
        }
        match s.get(i) {
            Some(',') => i += 1,
            Some('}') => return (items, i + 1),
            _ => return (items, i),
        }
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn ident(s: &[char], i: usize) -> (String, usize) {
    let end = (i..s.len()).find(|&j| !is_ident(s[j])).unwrap_or(s.len());
    (s[i..end].iter().collect(), end)
}

fn skip_ws(s: &[char], i: usize) -> usize {
    (i..s.len())
        .find(|&j| !s[j].is_whitespace())
        .unwrap_or(s.len())
}

#[test]
fn paths_resolve_from_where_they_are_written() {
    let here = ["a".to_owned(), "b".to_owned()];
    let code = "use super::{c, d::{self, E}}; use crate::f::*; self::g::h();\n\
                mod inner { use super::super::i; }\nsuper::super::j();";
    let got: Vec<String> = resolved(&here, code)
        .into_iter()
        .map(|(from, to)| format!("{} > {}", from.join("::"), to.join("::")))
        .collect();
    assert_eq!(
        got,
        [
            "a::b > a::c",
            "a::b > a::d",
            "a::b > a::d::E",
            "a::b > f",
            "a::b > a::b::g::h",
            "a::b::inner > a::i",
            "a::b > j",
        ]
    );
}
