//! The only module that talks to the OS, and the only one with `unsafe`.
//!
//! One backend per platform, chosen by `cfg`, each offering the same small
//! API so the rest of the shim is platform-neutral safe code:
//!
//! - `now()`: the monotonic clock deadlines are points on; `since_epoch()`:
//!   the wall clock, to announce the deadline to the gateway;
//! - `socket_path(env)`, `SOCKET_DEFAULT`: where the gateway listens;
//! - `read_stdin(max, deadline)`: the hook payload, bounded in size and time;
//! - `Stream::open(socket, deadline)`: a connection to a gateway run by this
//!   user, within the deadline; then `send_all` and `recv_exact`, each
//!   bounded by the total deadline;
//! - `write_stdout`, `write_stderr`, `cwd()`.
//!
//! The two backends reach those deadlines differently, each the simplest
//! robust way its OS offers:
//!
//! - `unix`: `no_std` over libc, one thread, every wait a `poll(2)` bounded
//!   by the deadline (see `unix/mod.rs` for why there is no std);
//! - `windows`: std and named pipes through `interprocess`; blocking I/O
//!   runs on a worker thread the main thread waits for until the deadline.
//!   When the deadline comes first, the shim answers on its own and exits,
//!   which ends the worker (see `windows/mod.rs`).
//!
//! Both report failures with the types below, so the frame logic in `call`
//! and the fallback logic in `run` exist once.

#![allow(unsafe_code)]

use core::fmt;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub(crate) use windows::*;

/// Why an operation bounded by a deadline did not complete.
#[derive(Debug)]
pub(crate) enum IoError {
    /// The deadline came first.
    Timeout,
    /// The other end closed the stream before all the bytes came.
    Closed,
    /// The OS reported an error.
    Os(Error),
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IoError::Timeout => f.write_str("timed out"),
            // std's wording for the same condition (`read_exact`).
            IoError::Closed => f.write_str("failed to fill whole buffer"),
            IoError::Os(err) => write!(f, "{err}"),
        }
    }
}

/// Why no connection to the gateway was made.
#[derive(Debug)]
pub(crate) enum ConnectError {
    /// The deadline came first (the gateway exists but takes no new
    /// connection: a full backlog, or every pipe instance busy).
    Timeout,
    /// Something is there, but nothing proves this user runs it. The detail
    /// says why, for `HOOKGATE_DEBUG`.
    Untrusted(alloc::string::String),
    /// The OS refused (no gateway, connection refused, ...).
    Os(Error),
}
