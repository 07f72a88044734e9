//! The text of words: quote removal, escapes (`$'...'` in full), unquoted
//! glob and brace characters as markers, brace expansion, tilde forms.

use crate::pattern::{self, CLASS_CLOSE, CLASS_OPEN, ONE, STAR, UNKNOWN};

/// Unquoted `{`, `,`, `}` while a word is built; brace expansion turns
/// them into words, or back into plain characters.
const BRACE_OPEN: char = '\u{E010}';
const BRACE_SEP: char = '\u{E011}';
const BRACE_CLOSE: char = '\u{E012}';

/// Most words one brace expansion makes; past it the word is unknown.
const MAX_BRACE_WORDS: usize = 64;

/// An unquoted character as the shell reads it: glob and brace characters
/// become markers.
pub(super) fn unquoted(c: char, out: &mut String) {
    out.push(match c {
        '*' => STAR,
        '?' => ONE,
        '[' => CLASS_OPEN,
        ']' => CLASS_CLOSE,
        '{' => BRACE_OPEN,
        ',' => BRACE_SEP,
        '}' => BRACE_CLOSE,
        c => c,
    });
}

/// An unquoted word: `\x` is `x` (never a glob), a backslash-newline is
/// nothing, glob and brace characters are markers.
pub(super) fn unescape(text: &str, out: &mut String) {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => out.push(next),
            },
            c => unquoted(c, out),
        }
    }
}

/// Inside double quotes only `\$ \` \" \\` and backslash-newline escape.
pub(super) fn unescape_double(text: &str, out: &mut String) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some('$' | '`' | '"' | '\\')) => out.extend(chars.next()),
            ('\\', Some('\n')) => {
                chars.next();
            }
            (c, _) => out.push(c),
        }
    }
}

/// `$'...'`: the C escapes bash knows (octal, hex, `\u`, control
/// characters); anything it cannot spell is unknown.
pub(super) fn ansi_c(text: &str, out: &mut String) {
    let inner = text.strip_prefix("$'").unwrap_or(text);
    let inner = inner.strip_suffix('\'').unwrap_or(inner);
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let mut number = |radix: u32, max: usize, first: Option<char>| {
            let mut digits: String = first.into_iter().collect();
            while digits.len() < max
                && let Some(d) = chars.peek().copied().filter(|d| d.is_digit(radix))
            {
                digits.push(d);
                chars.next();
            }
            u32::from_str_radix(&digits, radix)
                .ok()
                .and_then(char::from_u32)
        };
        let decoded = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(e),
            '0'..='7' => number(8, 3, Some(e)),
            'x' => number(16, 2, None),
            'u' => number(16, 4, None),
            'U' => number(16, 8, None),
            _ => None,
        };
        match decoded {
            // A NUL ends the word in bash.
            Some('\0') => break,
            Some(c) => out.push(c),
            None => out.push(UNKNOWN),
        }
    }
}

/// A leading `~` of an unquoted word: `~`, `~/x` stay (the home marker
/// the paths module resolves), `~+` is the working directory, `~-` the
/// previous one, `~NAME` is home if NAME is this user, else unknown (some
/// user's home: as dangerous as any).
pub(super) fn tilde(
    text: &str,
    home_var: Option<&str>,
    cwd: &str,
    oldpwd: &str,
    user: Option<&str>,
) -> Option<String> {
    let rest = text.strip_prefix('~')?;
    let (head, tail) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let base = match head {
        "" => home_var.unwrap_or("~").to_owned(),
        "+" => cwd.to_owned(),
        "-" => oldpwd.to_owned(),
        name if user == Some(name) => "~".to_owned(),
        name if name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) =>
        {
            UNKNOWN.to_string()
        }
        _ => return None,
    };
    Some(format!("{base}{tail}"))
}

/// A file tool's path pattern (`**/.env`, `src/*.{ts,tsx}`) as the words
/// it stands for: braces expanded, globs as markers, `**` any path.
pub(crate) fn glob_words(text: &str) -> Vec<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|n| "*?[]{},".contains(*n)) => {
                out.extend(chars.next())
            }
            '*' if chars.peek() == Some(&'*') => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                out.push(pattern::ANY_PATH);
            }
            c => unquoted(c, &mut out),
        }
    }
    finish(&out, true)
}

/// The words of a finished unquoted word: brace expansion, then glob
/// classes paired; brace characters left over are plain again.
pub(super) fn finish(text: &str, expand_braces: bool) -> Vec<String> {
    let words = if expand_braces {
        braces(text)
    } else {
        vec![text.to_owned()]
    };
    words
        .into_iter()
        .map(|w| {
            let plain: String = w
                .chars()
                .map(|c| match c {
                    BRACE_OPEN => '{',
                    BRACE_SEP => ',',
                    BRACE_CLOSE => '}',
                    c => c,
                })
                .collect();
            pattern::pair_classes(&plain)
        })
        .collect()
}

/// `a{b,c}d` → `abd`, `acd`; `{1..3}`, `{a..c}`; nested; bounded.
fn braces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let Some((open, close, seps)) = first_brace(&chars) else {
        return vec![text.to_owned()];
    };
    let prefix: String = chars.get(..open).unwrap_or_default().iter().collect();
    let suffix: String = chars.get(close + 1..).unwrap_or_default().iter().collect();
    let inner: Vec<char> = chars.get(open + 1..close).unwrap_or_default().to_vec();
    let alternatives: Vec<String> = if seps.is_empty() {
        match range(&inner.iter().collect::<String>()) {
            Some(items) => items,
            None => {
                // Not an expansion: the braces are plain text.
                let mut plain: String = prefix;
                plain.push('{');
                plain.extend(inner);
                plain.push('}');
                return braces(&(plain + &suffix));
            }
        }
    } else {
        let mut parts = Vec::new();
        let mut from = 0;
        for &sep in seps.iter().chain([&inner.len()]) {
            parts.push(inner.get(from..sep).unwrap_or_default().iter().collect());
            from = sep + 1;
        }
        parts
    };
    let mut out = Vec::new();
    for alternative in alternatives {
        for word in braces(&format!("{prefix}{alternative}{suffix}")) {
            if out.len() >= MAX_BRACE_WORDS {
                return vec![UNKNOWN.to_string()];
            }
            out.push(word);
        }
    }
    out
}

/// The first brace pair (open, close, separators at its top level, as
/// offsets inside it).
fn first_brace(chars: &[char]) -> Option<(usize, usize, Vec<usize>)> {
    let open = chars.iter().position(|&c| c == BRACE_OPEN)?;
    let mut depth = 0;
    let mut seps = Vec::new();
    for (i, &c) in chars.iter().enumerate().skip(open + 1) {
        match c {
            BRACE_OPEN => depth += 1,
            BRACE_CLOSE if depth == 0 => return Some((open, i, seps)),
            BRACE_CLOSE => depth -= 1,
            BRACE_SEP if depth == 0 => seps.push(i - open - 1),
            _ => {}
        }
    }
    None
}

/// `1..3`, `a..e` (a step is unknown); at most [`MAX_BRACE_WORDS`].
fn range(inner: &str) -> Option<Vec<String>> {
    let (from, to) = inner.split_once("..")?;
    if let (Ok(a), Ok(b)) = (from.parse::<i64>(), to.parse::<i64>()) {
        let count = a.abs_diff(b) + 1;
        if count > MAX_BRACE_WORDS as u64 {
            return Some(vec![UNKNOWN.to_string()]);
        }
        let items: Vec<i64> = if a <= b {
            (a..=b).collect()
        } else {
            (b..=a).rev().collect()
        };
        return Some(items.iter().map(i64::to_string).collect());
    }
    let (mut a, mut b) = (from.chars(), to.chars());
    match (a.next(), a.next(), b.next(), b.next()) {
        (Some(x), None, Some(y), None) if x.is_ascii_alphabetic() && y.is_ascii_alphabetic() => {
            let (lo, hi) = (x.min(y) as u8, x.max(y) as u8);
            let mut items: Vec<String> = (lo..=hi).map(|c| char::from(c).to_string()).collect();
            if x > y {
                items.reverse();
            }
            Some(items)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str) -> Vec<String> {
        let mut out = String::new();
        unescape(text, &mut out);
        finish(&out, true)
            .into_iter()
            .map(|w| pattern::shown(&w))
            .collect()
    }

    #[test]
    fn braces_and_globs() {
        assert_eq!(word("/{etc,usr}"), ["/etc", "/usr"]);
        assert_eq!(word("a{1..3}"), ["a1", "a2", "a3"]);
        assert_eq!(word("{a,b}{c,d}"), ["ac", "ad", "bc", "bd"]);
        assert_eq!(word("x{y}"), ["x{y}"]);
        assert_eq!(word("a,b"), ["a,b"]);
        assert_eq!(word("/[e]tc"), ["/[e]tc"]);
        assert_eq!(word(r"\*"), ["*"]);
        assert_eq!(word("{1..1000}"), ["<unknown>"]);
    }

    #[test]
    fn ansi_c_strings() {
        let decode = |t: &str| {
            let mut out = String::new();
            ansi_c(t, &mut out);
            out
        };
        assert_eq!(decode(r"$'\162\155'"), "rm");
        assert_eq!(decode(r"$'\x2f'"), "/");
        assert_eq!(decode(r"$'\u002eenv'"), ".env");
        assert_eq!(decode(r"$'a\qb'"), format!("a{UNKNOWN}b"));
    }

    #[test]
    fn tildes() {
        let t = |w: &str| tilde(w, None, "/w", "/old", Some("dev"));
        assert_eq!(t("~").unwrap(), "~");
        assert_eq!(t("~/x").unwrap(), "~/x");
        assert_eq!(t("~+/..").unwrap(), "/w/..");
        assert_eq!(t("~-").unwrap(), "/old");
        assert_eq!(t("~dev/.ssh").unwrap(), "~/.ssh");
        assert_eq!(t("~root").unwrap(), UNKNOWN.to_string());
        assert_eq!(tilde("~", Some("/"), "/w", "/o", None).unwrap(), "/");
    }
}
