//! What one tool call will do, gathered once per event: the commands a
//! shell line runs and every path any tool touches, read or written.

use hookgate_adapters::{Tool, ToolClass};

use super::argv;
use super::rules::subcommand;
use super::shell::{self, Simple, Word};

/// How a path is touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    /// A rule's access that covers both.
    Any,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Any => "any",
        }
    }

    /// Does a rule for `self` cover a path touched with `touched`?
    pub fn covers(self, touched: Access) -> bool {
        self == Access::Any || self == touched
    }
}

/// A path a tool call touches.
#[derive(Debug, Clone, PartialEq)]
pub struct TouchedPath {
    /// As the call names it (expanded, unquoted).
    pub written: String,
    /// Against the working directory, `~` for home.
    pub resolved: String,
    pub access: Access,
}

/// The facts of one event's tool call.
#[derive(Debug, Default)]
pub struct Facts {
    pub commands: Vec<Simple>,
    pub paths: Vec<TouchedPath>,
    pub too_complex: Option<&'static str>,
}

/// Commands whose operands are names, not contents read
/// (`echo .env >> .gitignore`, `ls .env`, `git add .env`).
const NAMES_ONLY: &[&str] = &[
    "echo", "printf", "ls", "stat", "test", "[", "[[", "mkdir", "cd", "pushd", "which", "type",
    "command", "basename", "dirname", "realpath", "readlink", "du", "chmod", "chown", "chgrp",
    "export", "true", "false", "sudo", "env", "nohup", "time", "xargs", "find",
];
/// Git subcommands that name files without showing their contents.
const GIT_NAMES_ONLY: &[&str] = &["add", "rm", "mv", "check-ignore", "ls-files", "status"];
/// Commands that write (or delete) every operand.
const WRITERS: &[&str] = &["tee", "touch", "truncate", "shred", "rm", "unlink"];
/// Editors read and write every operand.
const EDITORS: &[&str] = &[
    "vi", "vim", "nvim", "nano", "emacs", "code", "ed", "micro", "hx",
];
/// Commands whose last operand is written, the others read.
const COPIERS: &[&str] = &["cp", "mv", "install", "ln", "rsync", "scp"];

/// The facts of `tool`, run in `cwd`; `home` resolves `~`.
pub fn gather(tool: &Tool, cwd: Option<&str>, home: Option<&str>) -> Facts {
    let mut facts = Facts::default();
    let add = |facts: &mut Facts, written: &str, access: Access, cwd: Option<&str>| {
        if !written.is_empty() && !written.contains(shell::UNKNOWN) && facts.paths.len() < 256 {
            facts.paths.push(TouchedPath {
                written: written.to_owned(),
                resolved: argv::resolve(cwd, written, home),
                access,
            });
        }
    };
    if let Some(line) = tool.command.as_deref() {
        let parsed = shell::parse(line, cwd);
        facts.too_complex = parsed.too_complex;
        for command in &parsed.commands {
            for (path, access) in command_paths(command) {
                add(&mut facts, &path, access, command.cwd.as_deref());
            }
        }
        facts.commands = parsed.commands;
    }
    let access = tool_access(tool);
    for path in tool.file_path.iter().chain(&tool.paths) {
        add(&mut facts, path, access, cwd);
    }
    facts
}

/// How a (non-shell) tool touches the paths it names.
fn tool_access(tool: &Tool) -> Access {
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

/// The paths one command touches: its redirections, and its operands as
/// the command uses them.
fn command_paths(c: &Simple) -> Vec<(String, Access)> {
    let mut paths: Vec<(String, Access)> = c
        .redirects
        .iter()
        .filter(|r| r.target.known())
        .flat_map(|r| {
            let access = if r.write { Access::Write } else { Access::Read };
            let globbed = super::globs::secret_matches(&r.target.text);
            std::iter::once(r.target.text.clone())
                .chain(globbed)
                .map(move |path| (path, access))
        })
        .collect();
    let name = c.name.as_str();
    let args: &[Word] = match subcommand(c) {
        Some((sub, _)) if name == "git" && GIT_NAMES_ONLY.contains(&sub) => return paths,
        Some((_, rest)) if name == "git" => rest,
        _ if NAMES_ONLY.contains(&name) => return paths,
        _ => &c.args,
    };
    let split = argv::split(args);
    let operands: Vec<&str> = split.operands.iter().map(|w| w.text.as_str()).collect();
    let last = operands.len().saturating_sub(1);
    let in_place = name == "sed"
        && split.has_any(&[argv::Flag::Short('i'), argv::Flag::Long("in-place".into())]);
    for (i, operand) in operands.iter().enumerate() {
        let copied_to = COPIERS.contains(&name) && i == last && i > 0;
        let access = if WRITERS.contains(&name) || EDITORS.contains(&name) || copied_to || in_place
        {
            Access::Write
        } else {
            Access::Read
        };
        if EDITORS.contains(&name) {
            paths.push(((*operand).to_owned(), Access::Read));
        }
        paths.push(((*operand).to_owned(), access));
        for secret in super::globs::secret_matches(operand) {
            paths.push((secret, access));
        }
        // `git show HEAD:.env`, `scp host:.env .`: the path after the colon.
        if let Some((_, after)) = operand.rsplit_once(':')
            && !operand.contains("://")
            && !after.is_empty()
        {
            paths.push((after.to_owned(), access));
        }
    }
    // `--env-file=.env`, `--config=x`, `of=.env` (dd): a value that names a
    // file by its option (`--exclude=.env` only names a pattern).
    for arg in args {
        if let Some((key, value)) = arg.text.split_once('=') {
            let file_option = key.starts_with("--")
                && ["file", "path", "config", "input", "source", "from"]
                    .iter()
                    .any(|word| key.contains(word));
            if file_option || (name == "dd" && matches!(key, "if" | "of")) {
                let access = if key == "of" {
                    Access::Write
                } else {
                    Access::Read
                };
                paths.push((value.to_owned(), access));
            }
        }
        // `curl -d @.env`, `-F f=@.env`: the file's contents are sent.
        if let Some((_, file)) = arg.text.split_once('@')
            && (arg.text.starts_with('@') || arg.text.contains("=@"))
            && !file.is_empty()
        {
            paths.push((file.to_owned(), Access::Read));
        }
    }
    paths
}
