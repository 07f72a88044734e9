//! Commands that only name paths: they neither show a file's contents nor
//! write it (`ls .env`, `echo .env >> .gitignore`, `test -f .env`). Both
//! the guard's facts and self-protection pass over their operands; each
//! adds commands of its own (`facts`: `chmod`, `ssh`; `protect`: the
//! wrappers, whose operands are a command).

/// The commands both readings agree only name their operands.
const NAMERS: &[&str] = &[
    "echo", "printf", "ls", "stat", "test", "[", "[[", "mkdir", "cd", "pushd", "which", "type",
    "whereis", "basename", "dirname", "realpath", "readlink", "du", "df", "export", "true",
    "false", "kill", "pkill",
];

/// Whether `name`'s operands are only names (of files, variables,
/// processes), never a file it reads or writes.
pub(crate) fn only_names(name: &str) -> bool {
    NAMERS.contains(&name)
}
