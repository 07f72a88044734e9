//! The Windows backend: std, and a named pipe through `interprocess`.
//!
//! The Unix reason for `no_std` (the size of a static glibc binary with
//! std's panic machinery) does not apply here, so this backend uses std.
//!
//! Deadlines: Windows has no `poll` for pipes and stdin, and overlapped I/O
//! with cancellation would be a second, hand-written I/O layer. Instead
//! each blocking step (reading stdin, sending the request, receiving each
//! part of the reply) runs on a worker thread while the main thread waits
//! for its result until the deadline ([`io::within`]). When the deadline
//! comes first, the main thread answers on its own and returns from `main`,
//! which ends the process and with it the worker still blocked. Connecting
//! needs no worker: opening a pipe never blocks, and waiting for a busy one
//! (`WaitNamedPipeW`) takes a timeout.
//!
//! - `rt`: the entry point (argv and environment);
//! - `io`: the worker-thread deadline, stdin, stdout, stderr, cwd;
//! - `pipe`: the named pipe to the gateway;
//! - `trust`: whether the pipe's server runs as this user.

mod io;
mod pipe;
mod rt;
mod trust;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub(crate) use io::{cwd, read_stdin, write_stderr, write_stdout};
pub(crate) use pipe::Stream;
#[cfg(not(test))]
pub(crate) use rt::main;

/// The OS error the shared types carry (`super::IoError::Os`).
pub(crate) type Error = std::io::Error;

/// The default gateway pipe, as `--help` shows it.
pub(crate) const SOCKET_DEFAULT: &str = r"\\.\pipe\hookgate-%USERNAME%\gateway";

/// The gateway's pipe name for this user, given a way to read environment
/// variables (see `hookgate_wire::socket::resolve_pipe`).
pub(crate) fn socket_path(env: impl Fn(&str) -> Option<String>) -> String {
    hookgate_wire::socket::resolve_pipe(env)
}

/// The wall clock as time since the Unix epoch (zero before it): the
/// clock the gateway shares, for the deadline the shim announces.
pub(crate) fn since_epoch() -> Duration {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
}

/// Time since the first call (which `run` makes first thing), on the
/// monotonic clock: deadlines are points on it.
pub(crate) fn now() -> Duration {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed()
}
