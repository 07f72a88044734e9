//! What one simple command does to the paths it names, as self-protection
//! needs it: read, or write (which includes delete, move, link and
//! permission changes), and whether a directory operand takes what is
//! under it along (a removal, a recursive read).
//!
//! Stricter than the guard's own facts on purpose: for hookgate's files an
//! operand of a command not known to only read is taken as written (an
//! unknown program may write what it names), at the lower certainty (ask).

use crate::argv::{self, Flag, subcommand};
use crate::namers;
use crate::pattern::Judged;
use crate::shell::{Simple, Word};

/// How sure it is that a command writes an operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Certainty {
    /// A program that may write what it names (unknown to the guard).
    Maybe,
    /// A writer, an editor, a remover, a redirection.
    Sure,
}

/// One path a command names, and what it does with it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Touch<'a> {
    /// The path as the command names it (unknown parts are `UNKNOWN`).
    pub(crate) text: &'a str,
    /// `None`: only read.
    pub(crate) write: Option<Certainty>,
    /// A directory operand takes everything under it (`rm -r`, `mv`,
    /// `chmod`, `grep -r`).
    pub(crate) whole: bool,
}

/// Commands whose operands are commands or names, never files they touch
/// (what they run is a command of its own in the parsed line), besides
/// [`namers`].
const WRAPPERS: &[&str] = &[
    "sudo",
    "doas",
    "run0",
    "env",
    "exec",
    "command",
    "builtin",
    "nohup",
    "setsid",
    "time",
    "nice",
    "ionice",
    "timeout",
    "stdbuf",
    "unbuffer",
    "chronic",
    "xargs",
    "watch",
    "su",
    "eval",
    "pwd",
    "unset",
    "local",
    "declare",
    "set",
    "killall",
    "pgrep",
    "pidof",
    "systemctl",
    "launchctl",
    "gateway",
    "gateway-shim",
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "ash",
    "fish",
];

/// Commands that only read their operands.
const READERS: &[&str] = &[
    "cat",
    "tac",
    "less",
    "more",
    "most",
    "head",
    "tail",
    "grep",
    "egrep",
    "fgrep",
    "zgrep",
    "rg",
    "ag",
    "ack",
    "jq",
    "gron",
    "diff",
    "colordiff",
    "cmp",
    "comm",
    "wc",
    "file",
    "bat",
    "batcat",
    "od",
    "xxd",
    "hexdump",
    "hd",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "sum",
    "strings",
    "nl",
    "cut",
    "column",
    "fold",
    "fmt",
    "expand",
    "unexpand",
    "paste",
    "join",
    "look",
    "source",
    ".",
    "zcat",
    "bzcat",
    "xzcat",
    "zless",
    "base64",
    "base32",
    "lsattr",
    "getfacl",
    "tree",
    "find",
    "fd",
    "view",
    "awk",
    "gawk",
    "mawk",
    "nawk",
    "jless",
    "fx",
    "json_pp",
];

/// Readers that read a directory operand whole (`grep -r` only with its
/// flag: [`recursive`]).
const DEEP_READERS: &[&str] = &["rg", "ag", "ack", "tree", "find", "fd"];

/// Commands that write, delete, link or change the mode of every operand.
const WRITERS: &[&str] = &[
    "tee",
    "touch",
    "truncate",
    "shred",
    "rm",
    "unlink",
    "rmdir",
    "sponge",
    "mv",
    "ln",
    "chmod",
    "chown",
    "chgrp",
    "chattr",
    "setfacl",
    "trash",
    "trash-put",
    "gio",
    "srm",
    "wipe",
];

/// Writers whose directory operand takes everything under it.
const REMOVERS: &[&str] = &[
    "rm",
    "rmdir",
    "mv",
    "chmod",
    "chown",
    "chgrp",
    "chattr",
    "setfacl",
    "shred",
    "trash",
    "trash-put",
    "gio",
    "srm",
    "wipe",
    "ln",
];

/// Editors: every operand may be written.
const EDITORS: &[&str] = &[
    "vi",
    "vim",
    "nvim",
    "nano",
    "emacs",
    "emacsclient",
    "code",
    "ed",
    "ex",
    "micro",
    "hx",
    "kak",
    "joe",
    "mcedit",
    "gedit",
    "kate",
    "subl",
    "pico",
    "ne",
];

/// Commands whose last operand is written, the others read.
const COPIERS: &[&str] = &["cp", "install", "rsync", "scp", "ditto"];

/// Git subcommands that only read (or stage) what they name.
const GIT_READS: &[&str] = &[
    "status",
    "diff",
    "log",
    "show",
    "blame",
    "annotate",
    "ls-files",
    "grep",
    "add",
    "check-ignore",
    "check-attr",
    "cat-file",
    "shortlog",
    "whatchanged",
    "difftool",
];

/// Every path `c` names and what it does with each.
pub(crate) fn touches(c: &Simple) -> Vec<Touch<'_>> {
    let mut out: Vec<Touch<'_>> = c
        .redirects
        .iter()
        .map(|r| Touch {
            text: &r.target.text,
            write: r.write.then_some(Certainty::Sure),
            whole: false,
        })
        .collect();
    let name = c.name.as_str();
    if namers::only_names(name) || WRAPPERS.contains(&name) {
        return out;
    }
    let (args, reads_only): (&[Word], bool) = match subcommand(c) {
        Some((sub, rest)) if name == "git" => (rest, GIT_READS.contains(&sub.text.as_str())),
        _ if name == "git" => return out,
        _ => (&c.args, READERS.contains(&name)),
    };
    // Read generically (no command's spec): every word not a flag is a
    // path it may touch, a mode or pattern included.
    let split = argv::split("", args);
    let in_place = matches!(name, "sed" | "perl" | "ruby" | "yq" | "awk" | "gawk")
        && split
            .has_any(&[Flag::Short('i'), Flag::Long("in-place".into())])
            .0
            != Judged::No;
    let recursive = recursive(&split, name);
    let last = split.operands.len().saturating_sub(1);
    for (i, (_, word)) in split.operands.iter().copied().enumerate() {
        let write = if WRITERS.contains(&name) || EDITORS.contains(&name) || in_place {
            Some(Certainty::Sure)
        } else if COPIERS.contains(&name) {
            (i == last && i > 0).then_some(Certainty::Sure)
        } else if reads_only || name == "sed" || name == "yq" {
            None
        } else {
            Some(Certainty::Maybe)
        };
        let whole = if write.is_some() {
            REMOVERS.contains(&name)
        } else {
            recursive
        };
        out.push(Touch {
            text: &word.text,
            write,
            whole,
        });
    }
    // `--output=FILE`, `of=FILE`: a value naming a file by its option.
    for word in args {
        if let Some((key, value)) = word.text.split_once('=')
            && (key.starts_with("--") || name == "dd")
        {
            let write = match (name, key) {
                ("dd", "if") => None,
                ("dd", _) => Some(Certainty::Sure),
                _ if reads_only => None,
                _ => Some(Certainty::Maybe),
            };
            out.push(Touch {
                text: value,
                write,
                whole: false,
            });
        }
    }
    out
}

/// Whether a reader reads directory operands whole.
fn recursive(split: &argv::Split<'_>, name: &str) -> bool {
    DEEP_READERS.contains(&name)
        || matches!(
            name,
            "cp" | "scp" | "rsync" | "grep" | "egrep" | "fgrep" | "zgrep"
        ) && split
            .has_any(&[
                Flag::Short('r'),
                Flag::Short('R'),
                Flag::Short('a'),
                Flag::Long("recursive".into()),
                Flag::Long("archive".into()),
                Flag::Long("dereference-recursive".into()),
            ])
            .0
            != Judged::No
}

/// Whether `c` runs a program text it was given (`python3 -c`, `node -e`,
/// a script on stdin): what that program does with files is unknowable.
pub(crate) fn is_interpreter(c: &Simple) -> bool {
    const PREFIXES: &[&str] = &[
        "python",
        "perl",
        "ruby",
        "php",
        "lua",
        "node",
        "deno",
        "bun",
        "pwsh",
        "powershell",
        "osascript",
        "tclsh",
        "rscript",
        "julia",
        "swift",
        "irb",
        "jshell",
        "groovy",
        "elixir",
        "erl",
        "guile",
        "racket",
        "sbcl",
        "ghci",
        "runghc",
        "scala",
        "kotlin",
        "dotnet",
    ];
    let name = c.name.to_ascii_lowercase();
    PREFIXES.iter().any(|p| name.starts_with(p))
}

#[cfg(test)]
mod tests;
