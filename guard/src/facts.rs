//! What one tool call will do, gathered once per event: the commands a
//! shell line runs and every path any tool touches, read or written.
//!
//! A command's operands are paths it reads, unless the command only names
//! files (`ls`, `echo`, `git add` aside), writes them (`tee`, `rm`, the
//! target of `cp`), or takes them as something else (`grep`'s pattern,
//! `chmod`'s mode, an option's value: `options`). An operand the guard
//! cannot know is judged only where it matters: a command that shows or
//! sends file contents (`READERS`) reading an unknown path may read a
//! secret; elsewhere (and for writes) an unknown path is not judged.

use hookgate_adapters::{Tool, ToolClass};

use super::argv::{self, subcommand, subcommand_name};
use super::budget::Budget;
use super::namers;
use super::options::{OPENSSL_READS, OPENSSL_WRITES, spec_of};
use super::paths;
use super::shell::{self, Place, Simple, Word};

/// How a path is touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// A rule's access that covers both.
    Any,
}

impl Access {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Any => "any",
        }
    }

    /// Does a rule for `self` cover a path touched with `touched`?
    pub(crate) fn covers(self, touched: Access) -> bool {
        self == Access::Any || self == touched
    }
}

/// A path a tool call touches.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TouchedPath {
    /// As the call names it (expanded, unquoted; with markers).
    pub(crate) written: String,
    /// Against the working directory, `~` for home.
    pub(crate) resolved: String,
    pub(crate) access: Access,
    /// Touched by a command that may not run (`maybe`).
    pub(crate) maybe: bool,
}

/// The facts of one event's tool call.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    pub(crate) commands: Vec<Simple>,
    pub(crate) paths: Vec<TouchedPath>,
}

/// Commands whose operands are names, not contents read (`chmod 600
/// .env`, besides [`namers`]), or credentials used, not shown (`ssh -i KEY`).
const NAMES_ONLY: &[&str] = &[
    "rmdir",
    "hash",
    "file",
    "chmod",
    "chown",
    "chgrp",
    "chattr",
    "lsattr",
    "getfacl",
    "setfacl",
    "find",
    "ssh",
    "ssh-add",
    "ssh-keygen",
    "ssh-copy-id",
    "kubectl",
    "helm",
    "k9s",
    "sleep",
];
/// Git subcommands that name files without showing their contents.
const GIT_NAMES_ONLY: &[&str] = &[
    "rm",
    "mv",
    "check-ignore",
    "ls-files",
    "status",
    "restore",
    "checkout",
];
/// Git subcommands that show (or store) the contents of the files named.
const GIT_READERS: &[&str] = &[
    "show", "cat-file", "diff", "blame", "grep", "archive", "add",
];
/// Commands that write (or delete) every operand.
const WRITERS: &[&str] = &["tee", "touch", "truncate", "shred", "rm", "unlink"];
/// Editors read and write every operand.
const EDITORS: &[&str] = &[
    "vi", "vim", "nvim", "nano", "emacs", "code", "ed", "micro", "hx", "view", "subl",
];
/// Commands whose last operand is written, the others read.
const COPIERS: &[&str] = &["cp", "mv", "install", "ln", "rsync", "scp"];
/// Commands that show or send what they read: an unknown operand of
/// theirs may be a secret read.
const READERS: &[&str] = &[
    "cat", "tac", "head", "tail", "less", "more", "most", "bat", "batcat", "nl", "od", "xxd",
    "hexdump", "hd", "base64", "base32", "basenc", "strings", "grep", "egrep", "fgrep", "rg", "ag",
    "ack", "sed", "awk", "gawk", "cut", "sort", "uniq", "paste", "column", "jq", "yq", "diff",
    "cmp", "comm", "cp", "mv", "scp", "rsync", "tar", "zip", "gzip", "bzip2", "xz", "zstd", "curl",
    "wget", "nc", "ncat", "socat", "openssl", "gpg", "source", ".", "iconv", "split", "fold",
    "fmt", "pr", "rev", "vi", "vim", "nvim", "nano", "emacs", "code", "view", "pbcopy", "xclip",
    "xsel", "mail", "sftp",
];

/// The facts of `tool`, run at `place`.
pub(crate) fn gather(tool: &Tool, place: Place<'_>, budget: &mut Budget) -> Facts {
    let mut facts = Facts::default();
    let cwd = place.cwd.unwrap_or("\u{FFFD}");
    let mut touched: Vec<(String, Access, String, bool)> = Vec::new();
    if let Some(line) = tool.command.as_deref() {
        let parsed = shell::parse(line, place, budget);
        for command in &parsed.commands {
            for (path, access) in command_paths(command, place.fold) {
                touched.push((path, access, command.cwd.clone(), command.maybe));
            }
        }
        facts.commands = parsed.commands;
    }
    let access = tool_access(tool);
    for path in tool.file_path.iter().chain(&tool.paths) {
        for word in shell::glob_words(path) {
            touched.push((word, access, cwd.to_owned(), false));
        }
    }
    for (written, access, cwd, maybe) in touched {
        if !written.is_empty() && budget.charge(written.len() + 1) {
            facts.paths.push(TouchedPath {
                resolved: paths::resolve(&cwd, &written, place.home, place.fold),
                written,
                access,
                maybe,
            });
        }
    }
    facts
}

/// How a (non-shell) tool touches the paths it names.
pub(crate) fn tool_access(tool: &Tool) -> Access {
    match tool.class {
        ToolClass::FileWrite => Access::Write,
        ToolClass::Mcp => {
            let name = tool.name.to_ascii_lowercase();
            let writes = [
                "write", "edit", "create", "delete", "remove", "move", "rename", "put", "save",
                "update", "append", "patch",
            ];
            if writes.iter().any(|w| name.contains(w)) {
                Access::Write
            } else {
                Access::Read
            }
        }
        _ => Access::Read,
    }
}

/// The paths one command touches: its redirections, and its operands and
/// option values as the command uses them.
fn command_paths(c: &Simple, fold: bool) -> Vec<(String, Access)> {
    let mut out: Vec<(String, Access)> = Vec::new();
    for r in &c.redirects {
        let access = if r.write { Access::Write } else { Access::Read };
        if r.target.known() || !r.write {
            out.push((r.target.text.clone(), access));
        }
    }
    let lowered = c.name.to_lowercase();
    let name = if fold {
        lowered.as_str()
    } else {
        c.name.as_str()
    };
    // `apply_patch` (Codex, Droid): the files its patch names are written.
    if matches!(name, "apply_patch" | "applypatch") {
        let text: Vec<String> = c
            .args
            .iter()
            .map(|a| a.text.clone())
            .chain(c.stdin_data.iter().map(shell::Output::text))
            .collect();
        for patch in &text {
            out.extend(
                hookgate_adapters::paths::patch_files(patch).map(|p| (p.to_owned(), Access::Write)),
            );
        }
        return out;
    }
    // `sftp host <<< 'put .env'`: a batch of file-transfer commands.
    if matches!(name, "sftp" | "ftp" | "lftp" | "tftp")
        && let Some(script) = &c.stdin_data
    {
        for line in script.text().lines() {
            let mut words = line.split_whitespace();
            if words
                .next()
                .is_some_and(|w| matches!(w, "put" | "mput" | "reput" | "append" | "uput"))
            {
                out.extend(
                    words
                        .filter(|w| !w.starts_with('-'))
                        .map(|w| (w.to_owned(), Access::Read)),
                );
            }
        }
    }
    if namers::only_names(name)
        || NAMES_ONLY.contains(&name)
        || shell::runs_another(name)
        || name.is_empty()
    {
        return out;
    }
    if shell::SHELLS.contains(&name) && shell::shell_code(&c.args).is_some() {
        return out;
    }
    let (spec_name, args): (String, &[Word]) = match subcommand(c) {
        Some((sub, rest)) if name == "git" => {
            if GIT_NAMES_ONLY.contains(&sub.text.as_str()) {
                return out;
            }
            (format!("git {}", sub.text), rest)
        }
        _ if name == "openssl" => return openssl(&c.args, out),
        _ => (name.to_owned(), &c.args),
    };
    let split = argv::split(&spec_name, args);
    let reader = READERS.contains(&name)
        || (name == "git" && subcommand_name(c).is_some_and(|sub| GIT_READERS.contains(&sub)));
    let operands: Vec<&Word> = split.operands.iter().map(|(_, w)| *w).collect();
    let last = operands.len().saturating_sub(1);
    let in_place = name == "sed"
        && split
            .has_any(&[argv::Flag::Short('i'), argv::Flag::Long("in-place".into())])
            .0
            == crate::pattern::Judged::Yes;
    for (i, operand) in operands.iter().enumerate() {
        let copied_to = COPIERS.contains(&name) && i == last && i > 0;
        let writes = WRITERS.contains(&name) || EDITORS.contains(&name) || copied_to || in_place;
        if !operand.known() && (writes || !reader) {
            continue;
        }
        let access = if writes { Access::Write } else { Access::Read };
        if EDITORS.contains(&name) {
            out.push((operand.text.clone(), Access::Read));
        }
        out.push((operand.text.clone(), access));
        named_inside(&operand.text, name, access, &mut out);
    }
    if let Some(spec) = spec_of(&spec_name) {
        for (option, value) in &split.values {
            let access = if spec.reads.contains(&option.as_str()) {
                Access::Read
            } else if spec.writes.contains(&option.as_str()) && value.known() {
                Access::Write
            } else {
                named_inside(&value.text, name, Access::Read, &mut out);
                continue;
            };
            out.push((value.text.clone(), access));
        }
    }
    // `--env-file=.env`, `--config=x`, `of=.env` (dd): a value that names a
    // file by its option (`--exclude=.env` only names a pattern).
    for arg in args {
        let Some((key, value)) = arg.text.split_once('=') else {
            continue;
        };
        let file_option = key.starts_with("--")
            && ["file", "path", "config", "input", "source", "from"]
                .iter()
                .any(|word| key.contains(word));
        let access = match (name, key) {
            ("dd", "of") => Access::Write,
            ("dd", "if") => Access::Read,
            _ if file_option => Access::Read,
            _ => continue,
        };
        if crate::pattern::has_unknown(value) && (access == Access::Write || !reader) {
            continue;
        }
        out.push((value.to_owned(), access));
    }
    out
}

/// Commands whose operands may be `WHERE:PATH` (a revision, a host, a
/// container).
const COLON_PATHS: &[&str] = &["git", "scp", "rsync", "sftp", "docker", "podman", "kubectl"];

/// Paths inside a word: `git show HEAD:.env`, `scp host:.env .`, `curl -d
/// @.env`, `-F f=@.env`, `http f@.env`.
fn named_inside(text: &str, name: &str, access: Access, out: &mut Vec<(String, Access)>) {
    if let Some((_, after)) = text.rsplit_once(':')
        && COLON_PATHS.contains(&name)
        && !text.contains("://")
        && !after.is_empty()
    {
        out.push((after.to_owned(), access));
    }
    let at_file = if let Some(file) = text.strip_prefix('@') {
        Some(file)
    } else if let Some((_, file)) = text.split_once("=@") {
        Some(file)
    } else if matches!(name, "curl" | "http" | "https" | "xh") {
        text.rsplit_once('@').map(|(_, f)| f)
    } else {
        None
    };
    if let Some(file) = at_file.filter(|f| !f.is_empty() && *f != "-") {
        out.push((file.to_owned(), Access::Read));
    }
}

/// `openssl SUB -in FILE -out FILE ...`: one-dash long options.
fn openssl(args: &[Word], mut out: Vec<(String, Access)>) -> Vec<(String, Access)> {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let option = word.text.as_str();
        if OPENSSL_READS.contains(&option) || OPENSSL_WRITES.contains(&option) {
            if let Some(value) = words.next() {
                let access = if OPENSSL_READS.contains(&option) {
                    Access::Read
                } else {
                    Access::Write
                };
                if value.known() || access == Access::Read {
                    out.push((value.text.trim_start_matches("file:").to_owned(), access));
                }
            }
        } else if !option.starts_with('-') && word.known() {
            out.push((word.text.clone(), Access::Read));
        }
    }
    out
}
