//! Lexical path arithmetic for operands and working directories: joined,
//! normalized and resolved against the home directory, never against the
//! disk (the guard does no I/O). Paths may hold the markers of `pattern`:
//! a glob component is one name (so `*/..` is the directory itself), an
//! unknown part may hold any number of components, so a `..` after it
//! leaves nothing known (the result is one unknown).

use crate::pattern::{ANY_PATH, STAR, UNKNOWN};

/// `path` against `cwd` (when relative), lexically normalized. A path that
/// starts with an unknown part may be absolute already: it stays as it is,
/// since the unknown also stands for any directory before it.
pub(crate) fn join(cwd: &str, path: &str) -> String {
    if path.starts_with(['/', UNKNOWN]) || is_home(path) {
        return normalize(path);
    }
    normalize(&format!("{cwd}/{path}"))
}

fn is_home(path: &str) -> bool {
    path == "~" || path.starts_with("~/")
}

/// `path` resolved for matching: against `cwd`, with `home` known (an
/// absolute home becomes `~`, `~/..` its parent), compared without case
/// when `fold`.
pub(crate) fn resolve(cwd: &str, path: &str, home: Option<&str>, fold: bool) -> String {
    let expand = |p: &str| match (home, p.strip_prefix('~')) {
        (Some(home), Some(rest)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{home}{rest}")
        }
        _ => p.to_owned(),
    };
    let joined = join(&expand(cwd), &expand(path));
    match home.map(normalize) {
        Some(home) if home != "/" => match strip_prefix(&joined, &home, fold) {
            Some("") => "~".to_owned(),
            Some(rest) if rest.starts_with('/') => format!("~{rest}"),
            _ => joined,
        },
        _ => joined,
    }
}

fn strip_prefix<'a>(text: &'a str, prefix: &str, fold: bool) -> Option<&'a str> {
    if !fold {
        return text.strip_prefix(prefix);
    }
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| text.get(prefix.len()..))
        .flatten()
}

/// Collapses `//`, `.`, `..` (never above `/`) and a final `*` (all of a
/// directory's entries count as the directory).
pub(crate) fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    let mut lost = false;
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                // An unknown part may have been several names, or `..`.
                Some(last) if last.contains(UNKNOWN) || last.contains(ANY_PATH) => {
                    parts.clear();
                    lost = true;
                }
                Some(&last) if last != ".." && last != "~" => {
                    parts.pop();
                }
                None if absolute || lost => {}
                _ => parts.push(".."),
            },
            part => parts.push(part),
        }
    }
    let entries = |p: &&str| {
        let mut chars = p.chars();
        matches!(
            (chars.next(), chars.next(), chars.next()),
            (Some(STAR), None, None) | (Some('.'), Some(STAR), None)
        )
    };
    if parts.last().is_some_and(entries) {
        parts.pop();
    }
    let body = parts.join("/");
    if lost {
        return match body.is_empty() {
            true => UNKNOWN.to_string(),
            false => format!("{UNKNOWN}/{body}"),
        };
    }
    match (absolute, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_owned(),
        (false, false) => body,
    }
}

/// The directory part of `path` (`dirname`), lexically.
pub(crate) fn dirname(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    match trimmed.rsplit_once('/') {
        None if path.starts_with('/') => "/".to_owned(),
        None => ".".to_owned(),
        Some(("", _)) => "/".to_owned(),
        Some((dir, _)) => dir.trim_end_matches('/').to_owned(),
    }
}

/// The last component of `path` (`basename`).
pub(crate) fn basename(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    match trimmed.rsplit_once('/') {
        _ if trimmed.is_empty() && path.starts_with('/') => "/".to_owned(),
        Some((_, base)) => base.to_owned(),
        None => trimmed.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_lexically() {
        let home = Some("/home/dev");
        let star = STAR.to_string();
        let cases = [
            ("/x", "/", "/"),
            ("/x", &format!("/{star}"), "/"),
            ("/x", "/usr/..", "/"),
            ("/x", "/../..", "/"),
            ("/", &star, "/"),
            ("/home/dev/acme", "..", "~"),
            ("/home/dev/acme", "target/", "~/acme/target"),
            ("/x", "~/", "~"),
            ("/x", "~/x/../..", "/home"),
            ("/x", "/home/dev", "~"),
            ("/x", "/home/developer", "/home/developer"),
            ("/x", "target", "/x/target"),
            ("~", &star, "~"),
            ("/x", &format!("/tmp/{star}/.."), "/tmp"),
        ];
        for (cwd, path, expected) in cases {
            assert_eq!(resolve(cwd, path, home, false), expected, "{cwd:?} {path}");
        }
        assert_eq!(resolve("/x", "~/..", None, false), "~/..");
        assert_eq!(resolve("/x", "/HOME/DEV/a", home, true), "~/a");
    }

    #[test]
    fn an_unknown_part_before_dot_dot_leaves_nothing_known() {
        let u = UNKNOWN;
        assert_eq!(normalize(&format!("/a/{u}/..")), u.to_string());
        assert_eq!(normalize(&format!("{u}/../b")), format!("{u}/b"));
        assert_eq!(join("/cwd", &format!("{u}/out")), format!("{u}/out"));
        assert_eq!(join(&u.to_string(), "build"), format!("{u}/build"));
    }

    #[test]
    fn dirname_and_basename() {
        assert_eq!(dirname("/home/dev/acme"), "/home/dev");
        assert_eq!(dirname("/home"), "/");
        assert_eq!(dirname("acme"), ".");
        assert_eq!(basename("/home/dev/"), "dev");
        assert_eq!(basename("/"), "/");
    }
}
