//! Interpreters, and where they take their program from: inline code
//! (`sh -c`, `python -c`, `node -e`), a script file, or stdin (no script,
//! `-`, `/dev/stdin`, `bash -s`, `pwsh -Command -`). Each interpreter's
//! options that take a value are known, so `python3 -W ignore` or `bash -o
//! pipefail` are not taken for a script's name.

use super::{Simple, Word};

/// Shells: `-c STRING` is a command line, a heredoc is a script.
pub(crate) const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "posh",
];

/// One interpreter family's options.
struct Interp {
    /// Names, a trailing `*` for versions (`python3.12`).
    names: &'static [&'static str],
    /// Options whose value is the program's code (or a module to run).
    code: &'static [&'static str],
    /// Options that take a value (the next word, or the rest of a group).
    values: &'static [&'static str],
    /// Subcommands before the script (`deno run`, `bun run`).
    subcommands: &'static [&'static str],
}

static INTERPRETERS: &[Interp] = &[
    Interp {
        names: SHELLS,
        code: &["-c"],
        values: &["-o", "+o", "-O", "+O", "--rcfile", "--init-file", "-C"],
        subcommands: &[],
    },
    Interp {
        names: &["python*", "pypy*"],
        code: &["-c", "-m"],
        values: &["-W", "-X", "-Q"],
        subcommands: &[],
    },
    Interp {
        names: &["perl*"],
        code: &["-e", "-E"],
        values: &["-I", "-M", "-m", "-x"],
        subcommands: &[],
    },
    Interp {
        names: &["ruby*"],
        code: &["-e"],
        values: &["-r", "-I", "-C", "-E", "-F", "-x"],
        subcommands: &[],
    },
    Interp {
        names: &["node", "nodejs"],
        code: &["-e", "--eval", "-p", "--print"],
        values: &[
            "-r",
            "--require",
            "--import",
            "--loader",
            "-C",
            "--conditions",
            "--input-type",
            "--env-file",
        ],
        subcommands: &[],
    },
    Interp {
        names: &["deno", "bun"],
        code: &["eval", "-e", "--eval"],
        values: &["--config", "-c", "--import-map", "--env-file", "--cwd"],
        subcommands: &["run", "x"],
    },
    Interp {
        names: &["php*"],
        code: &["-r", "-B", "-R", "-E"],
        values: &["-d", "-c", "-z"],
        subcommands: &[],
    },
    Interp {
        names: &["lua*", "luajit"],
        code: &["-e", "-l"],
        values: &[],
        subcommands: &[],
    },
    Interp {
        names: &["pwsh", "powershell"],
        code: &[],
        values: &[],
        subcommands: &[],
    },
];

fn family(name: &str) -> Option<&'static Interp> {
    INTERPRETERS.iter().find(|i| {
        i.names.iter().any(|n| match n.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => *n == name,
        })
    })
}

/// The code of `sh [options] -c CODE [ARG0 ARGS...]`, and the words after
/// it.
pub(crate) fn shell_code(args: &[Word]) -> Option<(&Word, &[Word])> {
    let mut has_c = false;
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        let text = arg.text.as_str();
        i += 1;
        if text == "--" || text == "-" {
            break;
        }
        if text.starts_with("--") {
            if matches!(text, "--rcfile" | "--init-file") {
                i += 1;
            }
            continue;
        }
        if let Some(flags) = text.strip_prefix('-').or_else(|| text.strip_prefix('+')) {
            has_c |= flags.contains('c');
            // `-o OPTION`, `-O SHOPT`: a value each.
            i += flags.chars().filter(|c| matches!(c, 'o' | 'O')).count();
            continue;
        }
        i -= 1;
        break;
    }
    if !has_c {
        return None;
    }
    let code = args.get(i)?;
    Some((code, args.get(i + 1..).unwrap_or_default()))
}

/// Does the interpreter `c` read its program from stdin: no inline code,
/// and no script operand other than stdin itself?
pub(crate) fn program_from_stdin(c: &Simple) -> bool {
    let Some(interp) = family(&c.name) else {
        // `source`, `.`, `eval`: only an explicit stdin.
        return c.args.iter().any(|a| is_stdin(&a.text));
    };
    if c.name == "pwsh" || c.name == "powershell" {
        return pwsh_from_stdin(&c.args);
    }
    let shell = SHELLS.contains(&c.name.as_str());
    let mut words = c.args.iter().peekable();
    let mut explicit = false;
    let mut subcommand_seen = interp.subcommands.is_empty();
    while let Some(arg) = words.next() {
        let text = arg.text.as_str();
        if is_stdin(text) {
            return true;
        }
        if interp.code.contains(&text) {
            return false;
        }
        if text == "--" {
            continue;
        }
        if let Some(long) = text.strip_prefix("--") {
            let name = long.split_once('=').map_or(long, |(n, _)| n);
            if matches!(name, "eval" | "print" | "command") {
                return false;
            }
            if !long.contains('=') && interp.values.contains(&text) {
                words.next();
            }
            continue;
        }
        if let Some(flags) = text.strip_prefix(['-', '+']).filter(|f| !f.is_empty()) {
            // A group: each letter a flag, until one that takes a value.
            for (k, letter) in flags.char_indices() {
                let option = format!("-{letter}");
                if interp.code.contains(&option.as_str()) {
                    return false;
                }
                if interp.values.contains(&option.as_str()) {
                    if k + letter.len_utf8() == flags.len() {
                        words.next();
                    }
                    break;
                }
                explicit |= shell && letter == 's';
            }
            continue;
        }
        if !subcommand_seen && interp.subcommands.contains(&text) {
            subcommand_seen = true;
            continue;
        }
        // A script operand (for `sh -s`, the script's arguments).
        return explicit;
    }
    true
}

fn is_stdin(text: &str) -> bool {
    matches!(text, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// `pwsh -Command -`, `-File -` (any case, abbreviated), or no script.
fn pwsh_from_stdin(args: &[Word]) -> bool {
    let mut words = args.iter();
    while let Some(arg) = words.next() {
        let text = arg.text.to_ascii_lowercase();
        let option = text.trim_start_matches('-');
        if !text.starts_with('-') {
            return false;
        }
        let takes_program = ["command", "file", "encodedcommand"]
            .iter()
            .any(|o| !option.is_empty() && o.starts_with(option));
        if takes_program {
            return words.next().is_some_and(|v| v.text == "-");
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads_stdin(name: &str, args: &[&str]) -> bool {
        program_from_stdin(&Simple {
            name: name.into(),
            args: args.iter().map(|a| Word::literal(*a)).collect(),
            ..Simple::default()
        })
    }

    #[test]
    fn interpreter_options_are_not_scripts() {
        assert!(reads_stdin("python3", &["-W", "ignore"]));
        assert!(reads_stdin("python3", &["-X", "utf8", "-"]));
        assert!(reads_stdin("python3", &["-u", "-"]));
        assert!(!reads_stdin("python3", &["-m", "json.tool"]));
        assert!(!reads_stdin("python3", &["script.py"]));
        assert!(reads_stdin("bash", &["-o", "pipefail"]));
        assert!(reads_stdin("bash", &["-s", "--", "x"]));
        assert!(!reads_stdin("bash", &["install.sh"]));
        assert!(reads_stdin("deno", &["run", "-"]));
        assert!(!reads_stdin("deno", &["run", "main.ts"]));
        assert!(reads_stdin("pwsh", &["-Command", "-"]));
        assert!(!reads_stdin("pwsh", &["-c", "Get-Date"]));
        assert!(reads_stdin("perl", &["-w"]));
        assert!(reads_stdin("php", &[]));
        assert!(!reads_stdin("source", &["./env.sh"]));
        assert!(reads_stdin("source", &["/dev/stdin"]));
    }

    #[test]
    fn shell_code_and_its_arguments() {
        let args: Vec<Word> = ["-e", "-o", "pipefail", "-c", "rm \"$1\"", "sh", "/"]
            .into_iter()
            .map(Word::literal)
            .collect();
        let (code, rest) = shell_code(&args).unwrap();
        assert_eq!(code.text, "rm \"$1\"");
        assert_eq!(rest.len(), 2);
    }
}
