//! Standard output for every printing command (`install`, `uninstall`,
//! `doctor`, `status`, `audit`, `reload`, `completions`, `man`): a reader
//! that closes the pipe early (`gateway install | head -1`) ends the
//! output, not the command — `println!` would panic there (Rust ignores
//! SIGPIPE, so the write fails with EPIPE), and the exit code must stay the
//! command's own.

use std::io::Write as _;

/// Writes `bytes` to stdout; a write error (a closed pipe) is the reader's
/// choice and is dropped.
pub(crate) fn print(bytes: &[u8]) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(bytes).and_then(|()| stdout.flush());
}

/// [`print()`], saying whether the bytes were written (false: the reader
/// closed the output, so a command that would go on, `gateway audit
/// --follow`, stops).
pub(crate) fn try_print(bytes: &[u8]) -> bool {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .is_ok()
}

/// `format!` then [`print()`], with a newline.
pub(crate) fn line(args: std::fmt::Arguments<'_>) {
    print(format!("{args}\n").as_bytes());
}

/// `println!` that never panics on a closed stdout.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}

/// `print!` that never panics on a closed stdout.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::print(format!($($arg)*).as_bytes())
    };
}
