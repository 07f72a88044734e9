//! Commands that run other commands: `sudo rm`, `env X=1 rm`, `xargs rm`,
//! `find -exec rm {} ;`, `find -delete`, `sh -c '...'`, `eval '...'`.
//! Each wrapper is kept as a command too, and what it runs is added after
//! it with the wrapper's stdin, redirections and working directory.

use super::walk::{Scope, Walker};
use super::{Simple, Word};

/// Shells: `-c STRING` is a command line, a heredoc is a script.
pub const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish"];

/// Wrappers and the options of theirs that take a value (as the next word).
const WRAPPERS: &[(&str, &[&str])] = &[
    (
        "sudo",
        &[
            "-u",
            "-g",
            "-C",
            "-D",
            "-h",
            "-p",
            "-r",
            "-t",
            "-T",
            "-U",
            "--user",
            "--group",
            "--chdir",
            "--prompt",
            "--host",
            "--role",
            "--type",
            "--other-user",
            "--close-from",
            "--command-timeout",
        ],
    ),
    ("doas", &["-u", "-C"]),
    ("run0", &["-u", "-g", "-D", "--user", "--group", "--chdir"]),
    (
        "env",
        &["-u", "-C", "-S", "--unset", "--chdir", "--split-string"],
    ),
    ("exec", &["-a"]),
    ("command", &[]),
    ("builtin", &[]),
    ("nohup", &[]),
    ("setsid", &[]),
    ("time", &["-f", "-o", "--format", "--output"]),
    ("nice", &["-n", "--adjustment"]),
    (
        "ionice",
        &["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"],
    ),
    ("timeout", &["-s", "-k", "--signal", "--kill-after"]),
    ("stdbuf", &["-i", "-o", "-e"]),
    ("unbuffer", &[]),
    ("chronic", &[]),
    (
        "xargs",
        &[
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "-d",
            "-E",
            "-a",
            "--arg-file",
            "--delimiter",
            "--max-args",
            "--max-procs",
            "--max-lines",
            "--replace",
            "--eof",
            "--process-slot-var",
        ],
    ),
];

/// Wrapping levels followed for one command (`sudo env nice rm`).
const MAX_HOPS: usize = 8;

/// Adds `simple` and whatever it runs.
pub(super) fn emit(w: &mut Walker<'_>, simple: Simple, scope: &Scope, hops: usize) {
    w.push(simple.clone());
    if hops >= MAX_HOPS {
        return;
    }
    let mut scope = scope.clone();
    match simple.name.as_str() {
        "find" => find(w, &simple, &scope, hops),
        "eval" => {
            let code: Vec<&str> = simple.args.iter().map(|a| a.text.as_str()).collect();
            scope.stdin = simple.stdin.clone();
            w.nested(&code.join(" "), &scope);
        }
        "watch" => w.nested(&watch_line(&simple.args), &scope),
        "su" => {
            if let Some(code) = option_value(&simple.args, &["-c", "--command"]) {
                scope.stdin = simple.stdin.clone();
                w.nested(&code.text, &scope);
            }
        }
        name if SHELLS.contains(&name) => {
            let code = match shell_code(&simple.args) {
                Some(code) => code.known().then(|| code.text.clone()),
                // `echo 'rm -rf /' | sh`, `bash <<< '...'`: stdin is the script.
                None if program_from_stdin(&simple) => scope.stdin_text.take(),
                None => None,
            };
            if let Some(code) = code {
                scope.stdin = simple.stdin.clone();
                scope.stdin_text = None;
                w.nested(&code, &scope);
            }
        }
        _ => wrapped(w, simple, scope, hops),
    }
}

/// `watch CMD ARGS`: the words, joined, run by `sh -c`.
fn watch_line(args: &[Word]) -> String {
    let mut words = args.iter();
    let mut line = Vec::new();
    while let Some(word) = words.next() {
        match word.text.as_str() {
            _ if !line.is_empty() => line.push(word.text.as_str()),
            "-n" | "--interval" | "-q" | "--equexit" => {
                words.next();
            }
            flag if flag.starts_with('-') => {}
            text => line.push(text),
        }
    }
    line.join(" ")
}

type Args = std::iter::Peekable<std::vec::IntoIter<Word>>;

/// The command a wrapper in [`WRAPPERS`] runs, past its own options.
fn wrapped(w: &mut Walker<'_>, mut simple: Simple, mut scope: Scope, hops: usize) {
    let Some((_, value_flags)) = WRAPPERS.iter().find(|(n, _)| *n == simple.name) else {
        return;
    };
    let wrapper = simple.name.clone();
    let mut args = std::mem::take(&mut simple.args).into_iter().peekable();
    if !skip_options(&wrapper, value_flags, &mut args, &mut simple, &mut scope) {
        return;
    }
    // What it runs; `timeout` first takes a duration, `xargs` defaults to echo.
    if wrapper == "timeout" {
        args.next();
    }
    let mut rest: Vec<Word> = args.collect();
    if rest.is_empty() {
        return;
    }
    let name = rest.remove(0);
    if !name.known() {
        return;
    }
    let inner = Simple {
        name: super::walk::command_name(&name.text),
        args: rest,
        ..simple
    };
    emit(w, inner, &scope, hops + 1);
}

/// Consumes the wrapper's own options from `args`, applying those that
/// change what the command sees (`env NAME=value`, `-C DIR`, `env -S`);
/// `false` when the wrapper runs nothing (`command -v rm` only names rm).
fn skip_options(
    wrapper: &str,
    value_flags: &[&str],
    args: &mut Args,
    simple: &mut Simple,
    scope: &mut Scope,
) -> bool {
    while let Some(arg) = args.peek() {
        let text = arg.text.as_str();
        if text == "--" {
            args.next();
            break;
        }
        if wrapper == "command" && (text == "-v" || text == "-V") {
            return false;
        }
        if wrapper == "env" && text.contains('=') && !text.starts_with('-') {
            if let Some((name, value)) = text.split_once('=') {
                scope.vars.insert(name.to_owned(), Some(value.to_owned()));
            }
            args.next();
            continue;
        }
        if !text.starts_with('-') || text == "-" {
            break;
        }
        let (flag, inline) = match text.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_owned(), Some(value.to_owned()))
            }
            _ => (text.to_owned(), None),
        };
        args.next();
        if value_flags.contains(&flag.as_str()) {
            let value = inline.or_else(|| args.next().map(|v| v.text));
            let chdir = matches!(
                (wrapper, flag.as_str()),
                ("env", "-C" | "--chdir") | ("sudo" | "run0", "-D" | "--chdir")
            );
            if chdir {
                simple.cwd = value
                    .and_then(|v| crate::builtin::guard::argv::join(simple.cwd.as_deref(), &v));
            } else if matches!(flag.as_str(), "-S" | "--split-string") {
                // `env -S 'rm -rf /'`: the string is split into words.
                let words: Vec<Word> = value
                    .unwrap_or_default()
                    .split_whitespace()
                    .map(Word::literal)
                    .collect();
                let rest: Vec<Word> = args.collect();
                *args = words
                    .into_iter()
                    .chain(rest)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .peekable();
                break;
            }
        }
    }
    true
}

/// The command line of `sh [options] -c STRING`, when there is one.
fn shell_code(args: &[Word]) -> Option<&Word> {
    let mut has_c = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let text = arg.text.as_str();
        if text == "--" || text == "-" {
            return has_c.then(|| iter.next()).flatten();
        }
        if text.starts_with("--") {
            continue;
        }
        if let Some(flags) = text.strip_prefix('-').or_else(|| text.strip_prefix('+')) {
            if flags.contains('c') {
                has_c = true;
            }
            if flags.contains('o') || flags.contains('O') {
                iter.next();
            }
            continue;
        }
        return has_c.then_some(arg);
    }
    None
}

/// The value of the first of `flags` in `args` (`-c X`, `--command=X`).
fn option_value(args: &[Word], flags: &[&str]) -> Option<Word> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if flags.contains(&arg.text.as_str()) {
            return iter.next().cloned();
        }
        if let Some((flag, value)) = arg.text.split_once('=')
            && flags.contains(&flag)
        {
            return Some(Word::literal(value));
        }
    }
    None
}

/// `find PATHS... -delete` deletes what it finds under PATHS: it counts as
/// `rm -r -f PATHS`. `-exec CMD {} ;` (and `-execdir`, `-ok`) runs CMD
/// on PATHS and everything below, so `{}` stands for each of PATHS.
fn find(w: &mut Walker<'_>, simple: &Simple, scope: &Scope, hops: usize) {
    let starts: Vec<Word> = simple
        .args
        .iter()
        .take_while(|a| !a.text.starts_with(['-', '(', '!', ')']))
        .cloned()
        .collect();
    let starts = if starts.is_empty() {
        vec![Word::literal(".")]
    } else {
        starts
    };
    let derived = |name: &str, args: Vec<Word>| Simple {
        name: name.to_owned(),
        args,
        ..simple.clone()
    };
    let mut iter = simple.args.iter().skip(starts.len());
    while let Some(arg) = iter.next() {
        match arg.text.as_str() {
            "-delete" => {
                let mut args = vec![Word::literal("-r"), Word::literal("-f")];
                args.extend(starts.iter().cloned());
                emit(w, derived("rm", args), scope, hops + 1);
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let mut words = Vec::new();
                for word in iter.by_ref() {
                    if word.text == ";" || word.text == "+" {
                        break;
                    }
                    if word.text.contains("{}") {
                        words.extend(starts.iter().map(|s| Word {
                            text: word.text.replace("{}", &s.text),
                            subs: word.subs.clone(),
                        }));
                    } else {
                        words.push(word.clone());
                    }
                }
                if words.is_empty() || !words[0].known() {
                    continue;
                }
                let name = super::walk::command_name(&words.remove(0).text);
                emit(w, derived(&name, words), scope, hops + 1);
            }
            _ => {}
        }
    }
}

/// Does the interpreter `c` read its program from stdin: no inline code
/// (`-c`, `-e`, `-m`, ...), and no script operand other than stdin itself?
pub fn program_from_stdin(c: &Simple) -> bool {
    let shell = SHELLS.contains(&c.name.as_str());
    let code_flags: &[char] = if shell {
        &['c']
    } else {
        &['c', 'e', 'E', 'm', 'p', 'r']
    };
    let mut explicit_stdin = false;
    for arg in &c.args {
        let text = arg.text.as_str();
        if matches!(text, "-" | "/dev/stdin" | "/dev/fd/0") {
            return true;
        }
        if text == "--" {
            continue;
        }
        if let Some(long) = text.strip_prefix("--") {
            if matches!(long, "eval" | "print" | "command") {
                return false;
            }
            continue;
        }
        if let Some(flags) = text.strip_prefix('-') {
            if flags.contains(code_flags) {
                return false;
            }
            explicit_stdin |= shell && flags.contains('s');
            continue;
        }
        // A script operand (for `sh -s`, the script's arguments).
        return explicit_stdin;
    }
    true
}
