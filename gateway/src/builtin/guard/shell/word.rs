//! Quote removal and the few expansions that can be known statically.

use super::{UNKNOWN, Word};

/// Appends the value of a literal leaf node of `kind` (source `text`).
pub(super) fn literal(kind: &str, text: &str, word: &mut Word) {
    match kind {
        "word" | "number" => unescape(text, word),
        "raw_string" => word.text.push_str(strip(text, "'", "'")),
        "string_content" => unescape_double(text, word),
        "ansi_c_string" => ansi_c(strip(text, "$'", "'"), word),
        "arithmetic_expansion" | "translated_string" => word.text.push(UNKNOWN),
        _ => word.text.push_str(text),
    }
}

fn strip<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let inner = text.strip_prefix(open).unwrap_or(text);
    inner.strip_suffix(close).unwrap_or(inner)
}

/// An unquoted word: `\x` is `x`, a backslash-newline is nothing.
fn unescape(text: &str, word: &mut Word) {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => word.text.push(next),
            },
            c => word.text.push(c),
        }
    }
}

/// Inside double quotes only `\$ \` \" \\` and backslash-newline escape.
fn unescape_double(text: &str, word: &mut Word) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some('$' | '`' | '"' | '\\')) => {
                if let Some(next) = chars.next() {
                    word.text.push(next);
                }
            }
            ('\\', Some('\n')) => {
                chars.next();
            }
            (c, _) => word.text.push(c),
        }
    }
}

/// `$'...'`: the usual C escapes; anything unusual is unknown.
fn ansi_c(text: &str, word: &mut Word) {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            word.text.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => word.text.push('\n'),
            Some('t') => word.text.push('\t'),
            Some(c @ ('\\' | '\'' | '"' | '?')) => word.text.push(c),
            Some('x') => {
                let hex: String = chars
                    .clone()
                    .take(2)
                    .take_while(char::is_ascii_hexdigit)
                    .collect();
                for _ in 0..hex.len() {
                    chars.next();
                }
                match u8::from_str_radix(&hex, 16).ok().filter(u8::is_ascii) {
                    Some(byte) => word.text.push(char::from(byte)),
                    None => word.text.push(UNKNOWN),
                }
            }
            Some(_) | None => word.text.push(UNKNOWN),
        }
    }
}

/// The working directory after `cd ARG` from `cwd`: `~` for a bare `cd`,
/// unknown for `cd -` or an unknown argument.
pub(super) fn cd(cwd: Option<&str>, arg: Option<&Word>) -> Option<String> {
    let Some(arg) = arg else {
        return Some("~".to_owned());
    };
    if !arg.known() || arg.text == "-" || arg.text.starts_with('-') {
        return None;
    }
    crate::builtin::guard::argv::join(cwd, &arg.text)
}

/// What `echo`/`printf` with literal words prints, roughly (`\n`
/// escapes are newlines): the script a shell after `|` would run.
pub(super) fn printed(c: &super::Simple) -> Option<String> {
    if !matches!(c.name.as_str(), "echo" | "printf") || !c.args.iter().all(Word::known) {
        return None;
    }
    let words: Vec<&str> = c
        .args
        .iter()
        .map(|a| a.text.as_str())
        .skip_while(|a| c.name == "echo" && a.starts_with('-'))
        .collect();
    Some(words.join(" ").replace("\\n", "\n"))
}
