//! What a command prints, when the line alone says: `echo`, `printf`,
//! `pwd`, `dirname`, `basename`, `cat` of known stdin, `find` and `ls`
//! (the paths they list). That output is what a `$(...)` holds, what a
//! shell after `|` runs, what `xargs` hands on.

use super::{Simple, Word};
use crate::paths;
use crate::pattern::{self, ANY_PATH, STAR, UNKNOWN};

/// A command's output, as far as known.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Output {
    /// Text (with markers).
    Text(String),
    /// Paths, one per line (`find`, `ls`).
    Items(Vec<String>),
}

impl Output {
    /// As text: items one per line.
    pub(crate) fn text(&self) -> String {
        match self {
            Output::Text(text) => text.clone(),
            Output::Items(items) => items.join("\n"),
        }
    }

    /// As words, the way `xargs` splits it (blanks and newlines; `delim`
    /// when given, `\0` for `-0`).
    pub(crate) fn words(&self, delim: Option<char>) -> Vec<String> {
        match self {
            Output::Items(items) => items.clone(),
            Output::Text(text) => match delim {
                Some(d) => text
                    .split(d)
                    .filter(|w| !w.is_empty())
                    .map(str::to_owned)
                    .collect(),
                None => text.split_whitespace().map(str::to_owned).collect(),
            },
        }
    }
}

/// What `c` prints, when known.
pub(super) fn of(c: &Simple) -> Option<Output> {
    let args = || c.args.iter().map(|a| a.text.as_str());
    let operands = || args().filter(|a| !a.starts_with('-') || *a == "-");
    let text = match c.name.as_str() {
        "echo" => echo(&c.args),
        "printf" => {
            let mut words = args();
            let format = words.next()?;
            if format == "-v" {
                return None;
            }
            printf(format, &words.collect::<Vec<_>>())
        }
        "pwd" => format!("{}\n", c.cwd),
        "dirname" => operands().map(|a| paths::dirname(a) + "\n").collect(),
        "basename" => {
            let mut words = operands();
            let base = paths::basename(words.next()?);
            let base = match words.next() {
                Some(suffix) => base.strip_suffix(suffix).unwrap_or(&base).to_owned(),
                None => base,
            };
            format!("{base}\n")
        }
        "cat" if operands().all(|a| a == "-") => c.stdin_data.as_ref()?.text(),
        "true" | ":" => String::new(),
        "ls" => return Some(Output::Items(ls(c))),
        _ => return None,
    };
    Some(Output::Text(text))
}

fn echo(args: &[Word]) -> String {
    let mut escapes = false;
    let mut newline = true;
    let mut words = args.iter().map(|a| a.text.as_str()).peekable();
    while let Some(flag) = words.peek().filter(|w| is_echo_flag(w)) {
        escapes |= flag.contains('e');
        newline &= !flag.contains('n');
        words.next();
    }
    let mut text = words.collect::<Vec<_>>().join(" ");
    if escapes {
        text = backslash_escapes(&text);
    }
    if newline {
        text.push('\n');
    }
    text
}

fn is_echo_flag(word: &str) -> bool {
    word.len() > 1
        && word
            .strip_prefix('-')
            .is_some_and(|f| f.chars().all(|c| "neE".contains(c)))
}

/// `printf FORMAT ARGS`: `%s`, `%b`, `%d`, `%c`, `%%` and the escapes; the
/// format is reused while arguments remain; anything else is unknown.
fn printf(format: &str, args: &[&str]) -> String {
    let format = backslash_escapes(format);
    let mut out = String::new();
    let mut next = 0;
    loop {
        let mut chars = format.chars().peekable();
        let mut used = false;
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            // Flags, width and precision, then the conversion.
            while chars.peek().is_some_and(|c| "-+ #0123456789.".contains(*c)) {
                chars.next();
            }
            match chars.next() {
                Some('%') => out.push('%'),
                Some(conv @ ('s' | 'b' | 'd' | 'i' | 'c' | 'q' | 'u' | 'x')) => {
                    let arg = args.get(next).copied().unwrap_or_default();
                    next += 1;
                    used = true;
                    match conv {
                        'b' => out.push_str(&backslash_escapes(arg)),
                        'c' => out.extend(arg.chars().next()),
                        's' => out.push_str(arg),
                        _ if pattern::is_literal(arg) => out.push_str(arg),
                        _ => out.push(UNKNOWN),
                    }
                }
                _ => out.push(UNKNOWN),
            }
        }
        if !used || next >= args.len() {
            return out;
        }
    }
}

/// `\n`, `\t`, `\\` and friends as `echo -e` and `printf` read them.
fn backslash_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The paths `ls` lists: its operands with `-d`, else their entries.
fn ls(c: &Simple) -> Vec<String> {
    let dirs_only = c
        .args
        .iter()
        .any(|a| a.text.starts_with('-') && !a.text.starts_with("--") && a.text.contains('d'));
    let operands: Vec<&str> = c
        .args
        .iter()
        .map(|a| a.text.as_str())
        .filter(|a| !a.starts_with('-'))
        .collect();
    if operands.is_empty() {
        return vec![STAR.to_string()];
    }
    operands
        .into_iter()
        .map(|o| match dirs_only {
            true => o.to_owned(),
            false => format!("{o}/{STAR}"),
        })
        .collect()
}

/// The paths `find START ...` lists (and hands to `-exec`): START itself
/// unless a test rules it out, and every path below it that the `-name`
/// tests allow.
pub(super) fn find_items(
    start: &str,
    names: &[String],
    with_start: bool,
    below: bool,
) -> Vec<String> {
    let mut items = Vec::new();
    if with_start {
        items.push(start.to_owned());
    }
    if below {
        let base = start.trim_end_matches('/');
        match names.is_empty() {
            // Every entry below, as `dir/*` reads: the directory's whole
            // content.
            true => items.push(format!("{base}/{STAR}")),
            false => items.extend(names.iter().map(|n| format!("{base}/{ANY_PATH}{n}"))),
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(name: &str, args: &[&str]) -> Option<String> {
        let c = Simple {
            name: name.into(),
            args: args.iter().map(|a| Word::literal(*a)).collect(),
            cwd: "/home/dev/acme".into(),
            ..Simple::default()
        };
        of(&c).map(|o| o.text())
    }

    #[test]
    fn printers_print_what_the_line_says() {
        assert_eq!(
            printed("echo", &["-n", "rm", "-rf", "/"]).unwrap(),
            "rm -rf /"
        );
        assert_eq!(printed("printf", &["%s\\n", "a", "b"]).unwrap(), "a\nb\n");
        assert_eq!(printed("printf", &["rm -rf /\\n"]).unwrap(), "rm -rf /\n");
        assert_eq!(printed("pwd", &[]).unwrap(), "/home/dev/acme\n");
        assert_eq!(
            printed("dirname", &["/home/dev/acme"]).unwrap(),
            "/home/dev\n"
        );
        assert_eq!(printed("basename", &["/a/b.txt", ".txt"]).unwrap(), "b\n");
        assert_eq!(printed("ls", &["-d", "/usr"]).unwrap(), "/usr");
        assert_eq!(printed("grep", &["x"]), None);
    }
}
