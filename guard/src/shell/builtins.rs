//! Builtins that change the shell the rest of the line runs in: the
//! working directory (`cd`, `pushd`, `popd`, with their options), the
//! positional parameters (`set --`, `shift`), and variables set from
//! input (`read`, `mapfile`, `printf -v`, `let`, `getopts`), and the
//! programs names run (`hash -p PATH NAME`).

use super::output::Output;
use super::scope::{Func, Scope};
use super::walk::Walker;
use super::{Simple, Word};
use crate::paths;
use crate::pattern::{self, UNKNOWN};

impl Walker<'_, '_> {
    pub(super) fn builtin(&mut self, name: &str, simple: &Simple, shell: &mut Scope) {
        let budget = &mut *self.cx.budget;
        match name {
            "cd" | "pushd" => {
                let target = directory_operand(&simple.args);
                let dir = match target {
                    None if name == "pushd" => shell
                        .dirs
                        .last()
                        .cloned()
                        .unwrap_or_else(|| UNKNOWN.to_string()),
                    None => "~".to_owned(),
                    Some(word) if word.text == "-" => shell.oldpwd.clone(),
                    Some(word) => paths::join(&shell.cwd, &word.text),
                };
                match name {
                    "cd" => shell.chdir(dir),
                    _ => shell.push_dir(dir),
                }
            }
            "popd" => shell.pop_dir(),
            // Each NAME runs PATH from now on (bash's hash table), as a
            // function `NAME() { PATH "$@"; }` would: walked where called.
            "hash" => {
                let (Some(path), names) = hash_operands(&simple.args) else {
                    return;
                };
                let body: std::rc::Rc<str> = match pattern::is_literal(&path.text) {
                    true => format!("'{}' \"$@\"", path.text.replace('\'', "'\\''")).into(),
                    // Unset, so unknown: any program.
                    false => "\"$HOOKGATE_HASHED\" \"$@\"".into(),
                };
                for name in names {
                    let func = std::rc::Rc::new(Func {
                        body: std::rc::Rc::clone(&body),
                        called: std::cell::Cell::new(false),
                    });
                    shell.define(&name.text, func, budget);
                }
            }
            "set" => {
                let mut args = simple.args.iter().peekable();
                let mut listed = false;
                while let Some(arg) = args.peek() {
                    if arg.text == "--" {
                        args.next();
                        listed = true;
                        break;
                    }
                    if !arg.text.starts_with(['-', '+']) {
                        listed = true;
                        break;
                    }
                    // `set -o pipefail`: the option's name.
                    let takes = arg.text.ends_with('o');
                    args.next();
                    if takes {
                        args.next();
                    }
                }
                if listed {
                    shell.positional = Some(std::rc::Rc::new(args.cloned().collect()));
                }
            }
            "shift" => {
                let n: usize = simple
                    .args
                    .first()
                    .map_or(Some(1), |a| a.text.parse().ok())
                    .unwrap_or(usize::MAX);
                if let Some(list) = &shell.positional {
                    let rest: Vec<Word> = list.iter().skip(n).cloned().collect();
                    shell.positional = Some(std::rc::Rc::new(rest));
                }
            }
            "read" => {
                let names = operands(&simple.args, "adeinNptu");
                let line = match &simple.stdin_data {
                    Some(Output::Text(text)) => text.lines().next().map(str::to_owned),
                    Some(Output::Items(items)) => items.first().cloned(),
                    None => None,
                };
                let array = simple
                    .args
                    .iter()
                    .any(|a| a.text.starts_with('-') && a.text.contains('a'));
                match line {
                    Some(line) if !array => assign_fields(shell, &names, &line, budget),
                    _ => {
                        for name in names {
                            shell.set_unknown(&name, simple.stdin.clone(), budget);
                        }
                    }
                }
            }
            "mapfile" | "readarray" => {
                let name = operands(&simple.args, "dnOscCu")
                    .pop()
                    .unwrap_or_else(|| "MAPFILE".into());
                let words = simple.stdin_data.as_ref().map(|data| {
                    data.words(Some('\n'))
                        .into_iter()
                        .map(Word::literal)
                        .collect()
                });
                match words {
                    Some(words) => shell.set(&name, words, budget),
                    None => shell.set_unknown(&name, simple.stdin.clone(), budget),
                }
            }
            "printf" => {
                let mut args = simple.args.iter();
                if args.next().is_some_and(|a| a.text == "-v")
                    && let Some(var) = args.next()
                {
                    let rest: Vec<Word> = args.cloned().collect();
                    let printed = Simple {
                        name: "printf".into(),
                        args: rest,
                        ..Simple::default()
                    };
                    let value = super::output::of(&printed).map(|o| o.text());
                    let subs: Vec<String> = simple
                        .args
                        .iter()
                        .flat_map(|a| a.subs.iter().cloned())
                        .collect();
                    match value {
                        Some(text) => shell.set(
                            &var.text,
                            vec![Word {
                                text,
                                subs,
                                fields: false,
                            }],
                            budget,
                        ),
                        None => shell.set_unknown(&var.text, subs, budget),
                    }
                }
            }
            "let" | "getopts" => {
                for arg in &simple.args {
                    let name = arg
                        .text
                        .split(['=', '+', '-', '*', '/'])
                        .next()
                        .unwrap_or_default();
                    if !name.is_empty()
                        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    {
                        shell.set_unknown(name, Vec::new(), budget);
                    }
                }
            }
            _ => {}
        }
    }
}

/// `cd`'s directory: past its options (`-P`, `-L`, `-e`, `-@`, `--`).
fn directory_operand(args: &[Word]) -> Option<&Word> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.text.as_str() {
            "--" => return words.next(),
            "-" => return Some(word),
            flag if flag.starts_with('-')
                && flag.len() > 1
                && flag[1..].chars().all(|c| "PLe@".contains(c)) => {}
            _ => return Some(word),
        }
    }
    None
}

/// The operands of a builtin whose `value_flags` take a value.
fn operands(args: &[Word], value_flags: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let text = word.text.as_str();
        if let Some(flags) = text.strip_prefix('-').filter(|f| !f.is_empty()) {
            if flags
                .chars()
                .last()
                .is_some_and(|c| value_flags.contains(c))
            {
                words.next();
            }
            continue;
        }
        out.push(text.to_owned());
    }
    out
}

/// `read a b c` from a known line: split at blanks, the last name takes
/// the rest.
fn assign_fields(
    shell: &mut Scope,
    names: &[String],
    line: &str,
    budget: &mut crate::budget::Budget,
) {
    let names: Vec<&str> = match names.is_empty() {
        true => vec!["REPLY"],
        false => names.iter().map(String::as_str).collect(),
    };
    let mut rest = line.trim_start();
    for (i, name) in names.iter().enumerate() {
        let value = if i + 1 == names.len() {
            std::mem::take(&mut rest).trim_end().to_owned()
        } else {
            let end = rest.find([' ', '\t']).unwrap_or(rest.len());
            let (head, tail) = rest.split_at(end);
            rest = tail.trim_start();
            head.to_owned()
        };
        shell.set(name, vec![Word::literal(value)], budget);
    }
}

/// The value of option `flag` in `args` (getopt's reading: `-C VALUE`,
/// `-tC VALUE`, `-CVALUE`), where `value_flags` are the options that take
/// one; options end at `--` or the first operand.
pub(super) fn option_value(args: &[Word], flag: char, value_flags: &str) -> Option<Word> {
    let mut words = args.iter();
    let mut found = None;
    while let Some(arg) = words.next() {
        let Some(flags) = arg.text.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        if flags == "-" {
            break;
        }
        for (at, c) in flags.char_indices() {
            if !value_flags.contains(c) {
                continue;
            }
            let joined = &flags[at + c.len_utf8()..];
            let value = match joined.is_empty() {
                true => words.next().cloned(),
                false => Some(arg.with_text(joined)),
            };
            if c == flag {
                found = value;
            }
            break;
        }
    }
    found
}

/// `hash`'s `-p PATH` (alone, ending a group of flags: `-rp PATH`, or
/// joined: `-pPATH`) and the names after its options.
fn hash_operands(args: &[Word]) -> (Option<Word>, &[Word]) {
    let mut path = None;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let Some(flags) = arg.text.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        i += 1;
        if flags == "-" {
            break;
        }
        if let Some(at) = flags.find('p') {
            let joined = &flags[at + 1..];
            path = match joined.is_empty() {
                true => {
                    i += 1;
                    args.get(i - 1).cloned()
                }
                false => Some(arg.with_text(joined)),
            };
        }
    }
    (path, args.get(i..).unwrap_or_default())
}
