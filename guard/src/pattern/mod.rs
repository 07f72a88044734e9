//! Words the guard cannot know completely, as text, and how a rule's
//! regex judges them.
//!
//! A word is ordinary text in which a few private characters stand for
//! what static reading cannot pin down:
//!
//! - [`UNKNOWN`]: a value the line does not say (`$DIR` from the
//!   environment, `$(cmd)`, a loop over command output). It could be any
//!   text at all, so a rule that cares about the word judges it by the worst
//!   value it could have: "unknown means dangerous".
//! - [`STAR`], [`ONE`], [`CLASS_OPEN`]..[`CLASS_CLOSE`]: an unquoted glob
//!   (`*`, `?`, `[...]`), which the shell expands to every existing name it
//!   matches; never a `/`, and never a leading `.` of a name. The guard
//!   cannot list the disk, so it asks which names a glob could plausibly
//!   stand for: the glob's own letters decide, and what it fills in holds
//!   no `.` (so `src/*.ts` or `/tmp/acme-*` never stand for `x.env`), and a
//!   last name that is only a glob (`*`, `src/*`) fills in at most three
//!   characters (so `cat *` is not taken for `cat id_rsa`, while `cat
//!   ~/.ssh/*`, `cat .e*` and `rm -rf /e*` still name what they target);
//!   [`ANY_PATH`] fills in at most three characters too, `/` included (so
//!   `find src -name '*.ts'` is not taken to reach `src/x/.ssh/...`).
//! - [`ANY_PATH`]: every path below a directory (`find DIR -exec ... {}`,
//!   a tool's `**`).
//!
//! A glob (or `ANY_PATH`) names every file it can match, so a rule that
//! matches any of them matches the word for certain ([`Judged::Yes`]). An
//! unknown part matches for certain only if every value it could take
//! matches; if only some do, the word [`Judged::Maybe`] matches, and the
//! guard asks rather than denies. [`Judge`] decides both from the rule's
//! regex compiled to lazy DFAs (`automata`), searched together with the
//! word (`search`).

mod automata;
mod judge;
mod search;

pub(crate) use judge::Judge;

/// A value the guard cannot know: any text.
pub(crate) const UNKNOWN: char = '\u{FFFD}';
/// Any path below a directory, itself included (`**`): any text, `/` too.
pub(crate) const ANY_PATH: char = '\u{E000}';
/// A glob's `*`: any text without `/`.
pub(crate) const STAR: char = '\u{E001}';
/// A glob's `?`: one character, not `/`.
pub(crate) const ONE: char = '\u{E002}';
/// A glob's `[`...`]`: one character of the set between them.
pub(crate) const CLASS_OPEN: char = '\u{E003}';
pub(crate) const CLASS_CLOSE: char = '\u{E004}';

/// How surely a rule matches a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Judged {
    No,
    /// Some value of the word's unknown parts would match.
    Maybe,
    /// Every value does (or a glob names a file that does).
    Yes,
}

pub(crate) fn is_marker(c: char) -> bool {
    c == UNKNOWN || ('\u{E000}'..='\u{E004}').contains(&c)
}

/// Plain text: no unknown part and no glob.
pub(crate) fn is_literal(text: &str) -> bool {
    !text.chars().any(is_marker)
}

/// Has a part whose value is unknown (globs are not unknown: they name
/// whatever exists).
pub(crate) fn has_unknown(text: &str) -> bool {
    text.contains(UNKNOWN)
}

/// The word as a person reads it: `<unknown>` for an unknown part, the
/// glob characters as written.
pub(crate) fn shown(text: &str) -> String {
    written(text, "<unknown>")
}

/// `text` with the guard's glob markers as the glob characters written
/// and an unknown part as `unknown`.
pub(crate) fn written(text: &str, unknown: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            UNKNOWN => out.push_str(unknown),
            ANY_PATH => out.push_str("**"),
            STAR => out.push('*'),
            ONE => out.push('?'),
            CLASS_OPEN => out.push('['),
            CLASS_CLOSE => out.push(']'),
            c => out.push(c),
        }
    }
    out
}

/// A path pattern as a file tool or a config writes it (`**/.env`,
/// `src/*.rs`, `.env.[lp]*`): its glob characters as markers. There is no
/// quoting in such a pattern; a backslash escapes the next character.
pub(crate) fn glob(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|n| "*?[]{}".contains(*n)) => {
                out.extend(chars.next());
            }
            '*' if chars.peek() == Some(&'*') => {
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                out.push(ANY_PATH);
            }
            '*' => out.push(STAR),
            '?' => out.push(ONE),
            '[' => out.push(CLASS_OPEN),
            ']' => out.push(CLASS_CLOSE),
            c => out.push(c),
        }
    }
    pair_classes(&out)
}

/// `[` and `]` markers that do not enclose a class (no closing one in the
/// same path component, or nothing between them) go back to plain text.
pub(crate) fn pair_classes(text: &str) -> String {
    if !text.contains(CLASS_OPEN) && !text.contains(CLASS_CLOSE) {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c == CLASS_OPEN {
            // `[]...]` and `[!]...]` take the first `]` as a member.
            let mut j = i + 1;
            if matches!(chars.get(j), Some('!' | '^')) {
                j += 1;
            }
            if chars.get(j) == Some(&CLASS_CLOSE) {
                j += 1;
            }
            let close = chars
                .get(j..)
                .and_then(|rest| rest.iter().position(|&c| c == CLASS_CLOSE || c == '/'))
                .map(|k| j + k)
                .filter(|&k| chars.get(k) == Some(&CLASS_CLOSE));
            if let Some(close) = close {
                out.push(CLASS_OPEN);
                for &member in chars.get(i + 1..close).unwrap_or_default() {
                    out.push(if member == CLASS_CLOSE { ']' } else { member });
                }
                out.push(CLASS_CLOSE);
                i = close + 1;
                continue;
            }
            out.push('[');
        } else if c == CLASS_CLOSE {
            out.push(']');
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// One step of a word, for the DFA.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Byte(u8),
    /// Any text: an unknown part.
    Any,
    /// Every path below a directory: what a glob could fill in, `/` too
    /// (see the module docs).
    AnyPath,
    /// Text without `/`; `first`: at the start of a name, so not `.`;
    /// `bare`: the whole last name of the path.
    Star {
        first: bool,
        bare: bool,
    },
    /// One character without `/`.
    One {
        first: bool,
    },
    /// One of these ASCII bytes (`None`: any character but `/`).
    Class {
        bytes: Option<Vec<u8>>,
        first: bool,
    },
}

/// The word's steps: its literal bytes and its markers; `long`: a bare
/// last name may fill in any length (see `dfa`).
fn items(text: &str, long: bool) -> Vec<Item> {
    let mut out = Vec::with_capacity(text.len());
    // The last name is only glob characters (`*`, `dir/*`, `?*`).
    let last = text.rsplit('/').next().unwrap_or_default();
    let bare = !last.is_empty()
        && last
            .chars()
            .all(|c| matches!(c, STAR | ONE) || c == CLASS_OPEN || c == CLASS_CLOSE)
        && !last.contains(CLASS_OPEN);
    let mut chars = text.chars();
    let mut first = true;
    let mut in_last = !text.contains('/');
    while let Some(c) = chars.next() {
        let item = match c {
            UNKNOWN => Item::Any,
            ANY_PATH => Item::AnyPath,
            STAR => Item::Star {
                first,
                bare: bare && in_last && !long,
            },
            ONE => Item::One { first },
            CLASS_OPEN => {
                let members: String = chars.by_ref().take_while(|&c| c != CLASS_CLOSE).collect();
                Item::Class {
                    bytes: class_bytes(&members),
                    first,
                }
            }
            CLASS_CLOSE => Item::Byte(b']'),
            c => {
                let mut buf = [0; 4];
                let bytes = c.encode_utf8(&mut buf).as_bytes();
                out.extend(bytes.iter().map(|b| Item::Byte(*b)));
                first = c == '/';
                if first {
                    in_last = !chars.as_str().contains('/');
                }
                continue;
            }
        };
        first = false;
        out.push(item);
    }
    out
}

/// The bytes a class of plain ASCII members matches (`a-z`, `xyz`), `/`
/// left out; `None` for a negated class or one with other characters
/// (then any character but `/` stands for it: more, never less).
fn class_bytes(members: &str) -> Option<Vec<u8>> {
    if members.starts_with(['!', '^']) || !members.is_ascii() {
        return None;
    }
    let bytes = members.as_bytes();
    let mut set = Vec::new();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match (bytes.get(i + 1), bytes.get(i + 2)) {
            (Some(b'-'), Some(&end)) if end >= b => {
                set.extend(b..=end);
                i += 3;
            }
            _ => {
                set.push(b);
                i += 1;
            }
        }
    }
    set.retain(|&b| b != b'/');
    set.sort_unstable();
    set.dedup();
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_become_markers_and_stray_brackets_stay_text() {
        assert_eq!(shown(&glob("**/.env*")), "**/.env*");
        assert_eq!(glob("a*b?"), format!("a{STAR}b{ONE}"));
        assert_eq!(
            glob(".env.[lp]*"),
            format!(".env.{CLASS_OPEN}lp{CLASS_CLOSE}{STAR}")
        );
        assert_eq!(glob("a[b"), "a[b");
        assert_eq!(glob("a]b"), "a]b");
        assert_eq!(glob("a[b/c]"), "a[b/c]", "a class never spans a `/`");
        assert_eq!(glob(r"a\*"), "a*");
    }

    #[test]
    fn classes_read_ranges() {
        assert_eq!(class_bytes("a-c"), Some(b"abc".to_vec()));
        assert_eq!(class_bytes("!a"), None);
        assert_eq!(class_bytes("x/"), Some(b"x".to_vec()));
        assert_eq!(
            items(&format!("/{STAR}"), false),
            [
                Item::Byte(b'/'),
                Item::Star {
                    first: true,
                    bare: true
                }
            ]
        );
    }
}
