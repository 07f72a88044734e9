//! Text from the decision log made safe to print on a terminal.
//!
//! Records hold what the model wrote (commands, tool names, reasons that
//! quote them): an escape sequence there would move the cursor, recolour or
//! rewrite what `gateway audit` shows, retitle the window or worse. Every
//! character a terminal acts on is written as a visible escape instead:
//! the C0 controls (newline and tab included: a row is one line), DEL, the
//! C1 controls (`U+0080`–`U+009F`, which some terminals read as
//! `ESC`-sequences) and the bidirectional overrides and isolates that
//! reorder what is shown (`U+202A`–`U+202E`, `U+2066`–`U+2069`).

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether a terminal would act on `c` rather than show it.
fn acts_on(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` for a table row: every character a terminal acts on written as
/// `\n`, `\t`, `\x1b` or `\u{202e}` (and `\` itself as `\\` once anything
/// is escaped, so the escapes read unambiguously).
pub(crate) fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if acts_on(c) && u32::from(c) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c if acts_on(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A stored JSON line for `--json`: the same JSON value, with the
/// characters a terminal acts on that JSON allows raw (DEL, the C1
/// controls, the bidirectional controls) written as `\uXXXX` escapes.
/// serde_json already escapes the C0 controls; the line is otherwise
/// printed exactly as stored.
pub(crate) fn json_line(line: &str) -> Cow<'_, str> {
    if !line.chars().any(acts_on) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 16);
    for c in line.chars() {
        if acts_on(c) {
            // Only inside strings can such a character appear in valid
            // JSON, where the escape means the same character.
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_untouched() {
        for text in ["rm -rf build", "überprüfen", "日本語", "a\\b"] {
            assert!(matches!(printable(text), Cow::Borrowed(_)), "{text}");
            assert!(matches!(json_line(text), Cow::Borrowed(_)), "{text}");
        }
    }

    #[test]
    fn what_a_terminal_acts_on_is_shown_escaped() {
        let cases = [
            ("\u{1b}[2J\u{1b}]0;pwned\u{7}", "\\x1b[2J\\x1b]0;pwned\\x07"),
            ("line\nnext\r\tx", "line\\nnext\\r\\tx"),
            ("del\u{7f} csi\u{9b}31m", "del\\x7f csi\\x9b31m"),
            ("safe\u{202e}txt.exe", "safe\\u{202e}txt.exe"),
            ("back\\slash\u{1b}", "back\\\\slash\\x1b"),
        ];
        for (text, shown) in cases {
            let got = printable(text);
            assert_eq!(got, shown);
            assert!(!got.chars().any(acts_on), "{got:?}");
        }
    }

    #[test]
    fn json_lines_keep_their_value() {
        let value = serde_json::json!({"reason": "a\u{9b}b\u{202e}c\u{7f}\u{1b}"});
        let stored = value.to_string();
        let shown = json_line(&stored);
        assert!(!shown.chars().any(acts_on), "{shown}");
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, value);
    }
}
