//! hookgate's own files as path patterns, and how a path a tool call names
//! relates to them: the file itself or something under it (`Inside`), or
//! a directory that holds it (`Ancestor`: removing or moving that removes
//! it too). Paths with parts the guard cannot know (`$x`, `$(…)`) or
//! globs (`*`, `{a,b}`) are matched as patterns: could they name it?
//!
//! All of it is lexical, like the rest of the guard: no disk, no
//! symlinks followed (the limit is documented in docs/self-protection.md).

use std::borrow::Cow;

use crate::pattern::{ANY_PATH, CLASS_CLOSE, CLASS_OPEN, ONE, STAR, UNKNOWN};

/// A protected path: where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    /// A file or directory and everything under it: absolute, or `~/…`.
    Tree(String),
    /// Every path that begins with this text: a log and its rotations and
    /// head (`audit.jsonl`, `audit.jsonl.1`, `audit.jsonl.head`), a socket
    /// and its siblings (`gateway.sock.admin`, `gateway.sock.fallbacks`).
    Prefix(String),
    /// This relative path, and everything under it, in any directory: an
    /// agent's hook config in any project or home (`.claude/settings.json`).
    Anywhere(String),
}

/// One of hookgate's parts, as a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protected {
    pub pattern: Pattern,
    /// Reading it is refused too (the HTTP token, the decision log).
    pub secret: bool,
    /// What it is, for the reason the agent reads (`hookgate's config`).
    pub what: String,
}

/// How a concrete path relates to a protected one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relation {
    /// The protected path itself, or something under it.
    Inside,
    /// A directory holding it.
    Ancestor,
}

/// Whether this platform's file systems ignore case (macOS, Windows): then
/// `~/.CLAUDE/Settings.json` is the same file.
const FOLD_CASE: bool = cfg!(any(target_os = "macos", windows));

/// `text` as compared: lower-cased where the file system ignores case.
pub(crate) fn fold(text: &str) -> Cow<'_, str> {
    if FOLD_CASE {
        Cow::Owned(text.to_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

/// Whether `path` has `part` (one or more whole components) at its end,
/// after a `/`.
fn ends_with_component(path: &str, part: &str) -> bool {
    path.strip_suffix(part)
        .is_some_and(|rest| rest.ends_with('/'))
}

/// Whether `path` holds `/{part}/` anywhere (matches may overlap).
fn holds_component(path: &str, part: &str) -> bool {
    let (path, part) = (path.as_bytes(), part.as_bytes());
    path.windows(part.len() + 2)
        .any(|w| w[0] == b'/' && w[w.len() - 1] == b'/' && &w[1..w.len() - 1] == part)
}

/// Stands for "any text" in a path pattern made from a word.
const ANY: char = '\u{1}';

/// Longest pattern matched against the protected paths; longer words with
/// unknown parts are left to the needle check (`super::mentions`).
pub(crate) const MAX_PATTERN: usize = 1024;

impl Protected {
    /// The pattern normalized as the guard resolves paths (`~` for home).
    pub(crate) fn normalized(mut self, home: Option<&str>) -> Protected {
        self.pattern = match self.pattern {
            Pattern::Tree(p) => Pattern::Tree(fold(&super::resolve(None, &p, home)).into_owned()),
            Pattern::Prefix(p) => {
                // Normalized without losing a trailing dot or name part.
                let resolved = super::resolve(None, &p, home);
                Pattern::Prefix(fold(&resolved).into_owned())
            }
            Pattern::Anywhere(p) => Pattern::Anywhere(fold(p.trim_matches('/')).into_owned()),
        };
        self
    }

    /// How the concrete, resolved path `path` relates to this one.
    pub(crate) fn relation(&self, path: &str) -> Option<Relation> {
        let path = fold(path);
        let under = |dir: &str, path: &str| {
            dir == "/" && path.starts_with('/') && path != "/"
                || path
                    .strip_prefix(dir)
                    .is_some_and(|rest| rest.starts_with('/'))
        };
        match &self.pattern {
            Pattern::Tree(tree) => {
                if path == *tree || under(tree, &path) {
                    Some(Relation::Inside)
                } else if under(&path, tree) {
                    Some(Relation::Ancestor)
                } else {
                    None
                }
            }
            Pattern::Prefix(prefix) => {
                if path.starts_with(prefix.as_str()) {
                    Some(Relation::Inside)
                } else if under(&path, prefix) {
                    Some(Relation::Ancestor)
                } else {
                    None
                }
            }
            // Compared in place: this runs for every protected path and
            // every path a call names, on every call (issue #33).
            Pattern::Anywhere(tail) => {
                // Every relation below needs the tail's first component in
                // the path; most paths a call names lack it.
                let first = tail.split('/').next().unwrap_or_default();
                if !path.contains(first) {
                    return None;
                }
                let inside = path == tail.as_str()
                    || ends_with_component(&path, tail)
                    || path
                        .strip_prefix(tail.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
                    || holds_component(&path, tail);
                if inside {
                    return Some(Relation::Inside);
                }
                // `.claude` for `.claude/settings.json`: the tail up to
                // each of its slashes.
                tail.match_indices('/')
                    .map(|(at, _)| &tail[..at])
                    .any(|ancestor| path == ancestor || ends_with_component(&path, ancestor))
                    .then_some(Relation::Ancestor)
            }
        }
    }

    /// Whether a path with unknown or glob parts (`pattern`, made by
    /// [`as_pattern`]) could be this one or inside it, or (`ancestors`) a
    /// directory holding it. Only a pattern sharing a whole, known
    /// component with this path counts (`$dir/settings.json` could be
    /// `.claude/settings.json`; `$dir.json` or `~/$x` says too little).
    pub(crate) fn could_be(&self, pattern: &str, ancestors: bool) -> bool {
        if pattern.len() > MAX_PATTERN {
            return false;
        }
        let pattern = fold(pattern);
        let (text, anchored) = match &self.pattern {
            Pattern::Tree(p) | Pattern::Prefix(p) => (p.as_str(), true),
            Pattern::Anywhere(p) => (p.as_str(), false),
        };
        if !shares_component(&pattern, text, anchored) {
            return false;
        }
        match &self.pattern {
            Pattern::Tree(tree) => {
                matches(&pattern, tree)
                    || could_start_with(&pattern, &format!("{tree}/"))
                    || ancestors && ancestors_of(tree).any(|a| matches(&pattern, &a))
            }
            Pattern::Prefix(prefix) => {
                could_start_with(&pattern, prefix)
                    || ancestors && ancestors_of(prefix).any(|a| matches(&pattern, &a))
            }
            Pattern::Anywhere(tail) => {
                let reversed: String = pattern.chars().rev().collect();
                let end: String = format!("/{tail}").chars().rev().collect();
                could_start_with(&reversed, &end)
                    || pattern.starts_with(&format!("{tail}/"))
                    || pattern.contains(&format!("/{tail}/"))
            }
        }
    }
}

/// A word's text as a pattern: unknown parts and globs (`*`, `?`, `[…]`,
/// `{…}`) become [`ANY`]; `None` when it has none of them (a plain path).
pub(crate) fn as_pattern(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut wild = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            UNKNOWN | ANY_PATH | STAR | ONE | '*' | '?' => {
                wild = true;
                if !out.ends_with(ANY) {
                    out.push(ANY);
                }
            }
            CLASS_OPEN | '[' | '{' => {
                let close = match c {
                    '[' => ']',
                    '{' => '}',
                    _ => CLASS_CLOSE,
                };
                wild = true;
                if !out.ends_with(ANY) {
                    out.push(ANY);
                }
                for next in chars.by_ref() {
                    if next == close {
                        break;
                    }
                }
            }
            c => out.push(c),
        }
    }
    wild.then_some(out)
}

/// Whether `pattern` has a known, whole component (past the first of an
/// anchored path: `~`, `/tmp`) that `path` also has.
fn shares_component(pattern: &str, path: &str, anchored: bool) -> bool {
    let skip = usize::from(anchored);
    let wanted: Vec<&str> = path
        .split('/')
        .filter(|c| !c.is_empty())
        .skip(skip)
        .collect();
    pattern
        .split('/')
        .filter(|c| !c.is_empty() && !c.contains(ANY) && *c != "~" && *c != "." && *c != "..")
        .any(|c| wanted.contains(&c))
}

/// The directories holding `path`, nearest first, down to (not including)
/// `/` and `~`: those are the guard's own rules (`rm -rf ~`).
fn ancestors_of(path: &str) -> impl Iterator<Item = String> + '_ {
    let mut end = path.len();
    std::iter::from_fn(move || {
        let cut = path.get(..end)?.rfind('/')?;
        end = cut;
        let dir = path.get(..cut)?;
        (!dir.is_empty() && dir != "~").then(|| dir.to_owned())
    })
}

/// Whether `pattern` ([`ANY`] for any text) matches all of `text`.
fn matches(pattern: &str, text: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let text: Vec<char> = text.chars().collect();
    run(&pattern, &text).contains(&pattern.len())
}

/// Whether some text `pattern` matches starts with `prefix`.
fn could_start_with(pattern: &str, prefix: &str) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let prefix: Vec<char> = prefix.chars().collect();
    !run(&pattern, &prefix).is_empty()
}

/// The pattern positions reachable after reading all of `text` (a set of
/// states of the pattern's automaton: O(pattern × text), both bounded).
fn run(pattern: &[char], text: &[char]) -> Vec<usize> {
    let close = |states: &mut Vec<usize>| {
        let mut i = 0;
        while let Some(&state) = states.get(i) {
            if pattern.get(state) == Some(&ANY) && !states.contains(&(state + 1)) {
                states.push(state + 1);
            }
            i += 1;
        }
    };
    let mut states = vec![0];
    close(&mut states);
    for c in text {
        let mut next = Vec::new();
        for &state in &states {
            match pattern.get(state) {
                Some(&ANY) if !next.contains(&state) => next.push(state),
                Some(&ANY) => {}
                Some(p) if p == c && !next.contains(&(state + 1)) => next.push(state + 1),
                _ => {}
            }
        }
        close(&mut next);
        if next.is_empty() {
            return next;
        }
        states = next;
    }
    states
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protected(pattern: Pattern) -> Protected {
        Protected {
            pattern,
            secret: false,
            what: "x".into(),
        }
        .normalized(Some("/home/dev"))
    }

    #[test]
    fn concrete_paths_relate_by_components() {
        let tree = protected(Pattern::Tree("/home/dev/.config/hookgate".into()));
        assert_eq!(
            tree.relation("~/.config/hookgate/gateway.toml"),
            Some(Relation::Inside)
        );
        assert_eq!(tree.relation("~/.config/hookgate"), Some(Relation::Inside));
        assert_eq!(tree.relation("~/.config"), Some(Relation::Ancestor));
        assert_eq!(tree.relation("~/.config/hookgate.off"), None);
        let log = protected(Pattern::Prefix(
            "~/.local/state/hookgate/audit.jsonl".into(),
        ));
        assert_eq!(
            log.relation("~/.local/state/hookgate/audit.jsonl.3"),
            Some(Relation::Inside)
        );
        assert_eq!(
            log.relation("~/.local/state/hookgate"),
            Some(Relation::Ancestor)
        );
        let claude = protected(Pattern::Anywhere(".claude/settings.json".into()));
        for inside in [
            ".claude/settings.json",
            "/home/dev/acme/.claude/settings.json",
        ] {
            assert_eq!(claude.relation(inside), Some(Relation::Inside), "{inside}");
        }
        assert_eq!(claude.relation("~/acme/.claude"), Some(Relation::Ancestor));
        assert_eq!(claude.relation("~/acme/.claude/commands/x.md"), None);
        assert_eq!(claude.relation("~/acme/not.claude/settings.json"), None);
    }

    #[test]
    fn patterns_need_a_shared_component() {
        let claude = protected(Pattern::Anywhere(".claude/settings.json".into()));
        let tree = protected(Pattern::Tree("~/.config/hookgate".into()));
        let pattern = |text: &str| as_pattern(text).expect("a pattern");
        let u = UNKNOWN;
        assert!(claude.could_be(&pattern(&format!("{u}/settings.json")), false));
        assert!(claude.could_be(&pattern("~/.claude/*.json"), false));
        assert!(claude.could_be(&pattern("~/.claude/settings.json{,.bak}"), false));
        assert!(!claude.could_be(&pattern(&format!("{u}.json")), false));
        assert!(!claude.could_be(&pattern(&format!("{u}/other.json")), false));
        assert!(tree.could_be(&pattern(&format!("{u}/hookgate/gateway.toml")), false));
        assert!(tree.could_be(&pattern("~/.config/hookgate/*"), false));
        assert!(tree.could_be(&pattern(&format!("~/.config/{u}")), false));
        assert!(!tree.could_be(&pattern(&format!("~/{u}")), true));
        assert!(!tree.could_be(&pattern(&format!("/tmp/{u}")), true));
        assert!(tree.could_be(&pattern(&format!("{u}/.config")), true));
        assert!(!tree.could_be(&pattern(&format!("{u}/.cache")), true));
        assert_eq!(as_pattern("~/.config/hookgate"), None);
    }
}
