//! Reading an argv the way commands do: flags in any order and spelling
//! (`-rf`, `-r -f`, `--recursive`, `--rec`), operands after `--`, and
//! operand paths resolved lexically against the known working directory.

use super::shell::{UNKNOWN, Word};

/// One flag as written: a letter of a short-flag group, or a long name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flag {
    Short(char),
    Long(String),
}

impl Flag {
    /// Parses a rule's spelling: `-r` or `--recursive`.
    pub fn parse(spelling: &str) -> Option<Flag> {
        if let Some(long) = spelling.strip_prefix("--") {
            return (!long.is_empty()).then(|| Flag::Long(long.to_owned()));
        }
        let mut chars = spelling.strip_prefix('-')?.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c != '-' => Some(Flag::Short(c)),
            _ => None,
        }
    }

    /// Does `written` (from the argv) spell this flag? Long flags may be
    /// abbreviated, as getopt_long and git allow (`--forc`, at least 3
    /// letters).
    fn matches(&self, written: &Flag) -> bool {
        match (self, written) {
            (Flag::Short(a), Flag::Short(b)) => a == b,
            (Flag::Long(rule), Flag::Long(arg)) => {
                rule == arg || (arg.len() >= 3 && rule.starts_with(arg.as_str()))
            }
            _ => false,
        }
    }
}

/// An argv split into flags and operands.
#[derive(Debug, Default)]
pub struct Split<'a> {
    pub flags: Vec<Flag>,
    pub operands: Vec<&'a Word>,
}

impl Split<'_> {
    /// Is any of `wanted` among the flags?
    pub fn has_any(&self, wanted: &[Flag]) -> bool {
        wanted
            .iter()
            .any(|flag| self.flags.iter().any(|f| flag.matches(f)))
    }
}

/// Splits `args`; `--` ends the flags. An unknown word is an operand.
pub fn split(args: &[Word]) -> Split<'_> {
    let mut out = Split::default();
    let mut flags_done = false;
    for arg in args {
        let text = arg.text.as_str();
        if flags_done || !text.starts_with('-') || text == "-" || text.contains(UNKNOWN) {
            out.operands.push(arg);
        } else if text == "--" {
            flags_done = true;
        } else if let Some(long) = text.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(name, _)| name);
            out.flags.push(Flag::Long(name.to_owned()));
        } else {
            out.flags.extend(text.chars().skip(1).map(Flag::Short));
        }
    }
    out
}

/// `path` against `cwd` (when relative), lexically normalized; `None` when
/// it is relative and `cwd` is unknown.
pub fn join(cwd: Option<&str>, path: &str) -> Option<String> {
    if path.starts_with('/') || path == "~" || path.starts_with("~/") {
        return Some(normalize(path));
    }
    let cwd = cwd?;
    Some(normalize(&format!("{cwd}/{path}")))
}

/// `path` resolved for matching: against `cwd`, with `home` known (an
/// absolute home becomes `~`, `~/..` its parent). A relative path with an
/// unknown `cwd` stays relative.
pub fn resolve(cwd: Option<&str>, path: &str, home: Option<&str>) -> String {
    let expand = |p: &str| match (home, p.strip_prefix('~')) {
        (Some(home), Some(rest)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{home}{rest}")
        }
        _ => p.to_owned(),
    };
    let cwd = cwd.map(expand);
    let joined = join(cwd.as_deref(), &expand(path)).unwrap_or_else(|| normalize(path));
    match home.map(normalize) {
        Some(home) if home != "/" => match joined.strip_prefix(home.as_str()) {
            Some("") => "~".to_owned(),
            Some(rest) if rest.starts_with('/') => format!("~{rest}"),
            _ => joined,
        },
        _ => joined,
    }
}

/// Collapses `//`, `.`, `..` (never above `/`) and a final `*` (all of a
/// directory's entries count as the directory).
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." && last != "~" => {
                    parts.pop();
                }
                None if absolute => {}
                _ => parts.push(".."),
            },
            part => parts.push(part),
        }
    }
    if parts.last().is_some_and(|p| *p == "*" || *p == ".*") {
        parts.pop();
    }
    let body = parts.join("/");
    match (absolute, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_owned(),
        (false, false) => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_in_any_spelling() {
        let words: Vec<Word> = ["-rf", "--force=yes", "x", "--", "-y"]
            .into_iter()
            .map(Word::literal)
            .collect();
        let split = split(&words);
        assert!(split.has_any(&[Flag::Short('r')]));
        assert!(split.has_any(&[Flag::Short('f')]));
        assert!(split.has_any(&[Flag::Long("force".into())]));
        assert!(!split.has_any(&[Flag::Short('y')]), "after --: an operand");
        assert_eq!(split.operands.len(), 2);
        let abbreviated = [Word::literal("--recur")];
        assert!(split_has(&abbreviated, "--recursive"));
        assert!(!split_has(
            &[Word::literal("--force-with-lease")],
            "--force"
        ));
        assert!(!split_has(&[Word::literal("--fo")], "--force"), "too short");
    }

    fn split_has(words: &[Word], flag: &str) -> bool {
        split(words).has_any(&[Flag::parse(flag).unwrap()])
    }

    #[test]
    fn paths_resolve_lexically() {
        let home = Some("/home/dev");
        let cases = [
            (None, "/", "/"),
            (None, "/*", "/"),
            (None, "/usr/..", "/"),
            (None, "/../..", "/"),
            (Some("/"), "*", "/"),
            (Some("/home/dev/acme"), "..", "~"),
            (Some("/home/dev/acme"), "target/", "~/acme/target"),
            (None, "~/", "~"),
            (None, "~/x/../..", "/home"),
            (None, "/home/dev", "~"),
            (None, "/home/developer", "/home/developer"),
            (None, "target", "target"),
            (None, "./", "."),
            (Some("~"), "*", "~"),
        ];
        for (cwd, path, expected) in cases {
            assert_eq!(resolve(cwd, path, home), expected, "{cwd:?} {path}");
        }
        assert_eq!(resolve(None, "~/..", None), "~/..");
    }
}
