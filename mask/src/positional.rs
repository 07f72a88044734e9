//! Random-looking words standing alone as arguments (`./deploy.sh
//! q8Xz2LmP4vN7tR1wY6bK9sD3`, `login aB3dE5...`): the generic secret that
//! has neither a known prefix nor a name beside it. A word counts only
//! after other words on its line (a line that is one long base64 run is
//! file content), not as an assignment's value (`NAME=...` is decided by
//! its name), and only when it is random by stricter tests than an
//! assignment's (`entropy::looks_generated`).

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

use super::{MASK, entropy};

/// Runs of the token alphabet long enough to be keys.
static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9+/=_\-.]{20,}").expect("constant mask regex is valid"));

/// Compiles [`WORD`] now.
pub(super) fn prepare() {
    LazyLock::force(&WORD);
}

/// `text` with every random-looking positional word masked.
pub(super) fn mask(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    for found in WORD.find_iter(text) {
        if positional(bytes, found.start(), found.end()) && entropy::looks_generated(found.as_str())
        {
            out.push_str(&text[copied..found.start()]);
            out.push_str(MASK);
            copied = found.end();
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Does `bytes[start..end]` stand as a word of its own, after another word
/// of the same line, and not as a `name=` / `name:` value?
fn positional(bytes: &[u8], start: usize, end: usize) -> bool {
    let after = bytes.get(end).copied();
    if !after.is_none_or(|b| {
        b.is_ascii_whitespace()
            || matches!(
                b,
                b'\'' | b'"' | b'`' | b')' | b',' | b';' | b'|' | b'&' | b']' | b'}'
            )
    }) {
        return false;
    }
    let mut at = start;
    if at > 0 && matches!(bytes[at - 1], b'\'' | b'"' | b'`') {
        at -= 1;
    }
    // At least one blank, then the previous word on the same line.
    let blanks = bytes[..at]
        .iter()
        .rev()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    if blanks == 0 {
        return false;
    }
    let Some(&previous) = bytes[..at - blanks].last() else {
        return false;
    };
    !matches!(previous, b'\n' | b'\r' | b'=' | b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_standalone_words_after_another() {
        let key = "q8Xz2LmP4vN7tR1wY6bK9sD3";
        for text in [
            format!("./deploy.sh {key}"),
            format!("login '{key}' --now"),
            format!("cli auth {key}\nnext"),
        ] {
            assert!(!mask(&text).contains(key), "{text}");
        }
        for text in [
            key.to_owned(),
            format!("{key} is first"),
            format!("x\n{key}"),
            format!("NAME= {key}"),
            format!("name: {key}"),
            format!("see {key}@host"),
        ] {
            assert_eq!(mask(&text), text, "{text}");
        }
    }
}
