//! The Unix backend: `no_std` over libc.
//!
//! The Unix shim is a static glibc binary, and std's share of it (its panic
//! and backtrace machinery) would put it over its 1 MiB budget, so it calls
//! libc directly. Each call is wrapped here once, behind a safe function
//! that owns its buffers and file descriptors. One thread does everything:
//! every wait is a `poll(2)` bounded by the deadline.
//!
//! - `rt`: the process entry point, allocator and panic handler;
//! - `io`: reading, writing and waiting on file descriptors, with deadlines;
//! - `fs`: `stat`, the fallback record's file, the working directory;
//! - `net`: the Unix socket to the gateway;
//! - `trust`: whether the socket can only be this user's gateway;
//! - `spawn`: starting the gateway detached (autostart).

mod fs;
mod io;
mod net;
mod rt;
mod spawn;
mod trust;

use core::fmt;
use core::time::Duration;

use alloc::string::String;

pub(crate) use fs::{File, cwd, is_executable, lstat, mkdir_private, stat};
pub(crate) use io::{read_stdin, write_stderr, write_stdout};
pub(crate) use net::Stream;
pub(crate) use spawn::{lock_is_free, sleep_ms, start_detached};

/// The OS error the shared types carry (`super::IoError::Os`).
pub(crate) type Error = Errno;

/// The default gateway socket, as `--help` shows it.
pub(crate) const SOCKET_DEFAULT: &str = "$XDG_RUNTIME_DIR/hookgate/gateway.sock";

/// The gateway's socket path for this user, given a way to read
/// environment variables (see `hookgate_wire::socket::resolve`).
pub(crate) fn socket_path(env: impl Fn(&str) -> Option<String>) -> String {
    hookgate_wire::socket::resolve(env, current_uid())
}

/// An OS error number, shown like std shows it (`No such file or
/// directory (os error 2)`) for the common ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Errno(pub(crate) i32);

impl Errno {
    /// The calling thread's `errno`, read right after a failed call.
    fn last() -> Errno {
        // SAFETY: the errno location is a valid, thread-local int for the
        // whole life of the thread.
        Errno(unsafe { *errno_location() })
    }

    /// Whether a nonblocking call would have blocked.
    pub(crate) fn would_block(self) -> bool {
        self.0 == libc::EAGAIN || self.0 == libc::EWOULDBLOCK
    }

    pub(crate) fn interrupted(self) -> bool {
        self.0 == libc::EINTR
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
use libc::__errno_location as errno_location;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
use libc::__error as errno_location;

impl fmt::Display for Errno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self.0 {
            libc::ENOENT => "No such file or directory",
            libc::EACCES => "Permission denied",
            libc::ENOTDIR => "Not a directory",
            libc::ENAMETOOLONG => "File name too long",
            libc::EINVAL => "Invalid argument",
            libc::ECONNREFUSED => "Connection refused",
            libc::ECONNRESET => "Connection reset by peer",
            libc::EPIPE => "Broken pipe",
            libc::EAGAIN => "Resource temporarily unavailable",
            libc::ELOOP => "Too many levels of symbolic links",
            _ => return write!(f, "os error {}", self.0),
        };
        write!(f, "{text} (os error {})", self.0)
    }
}

/// Time since an arbitrary fixed point (CLOCK_MONOTONIC): deadlines are
/// points on this clock, immune to wall-clock changes.
pub(crate) fn now() -> Duration {
    clock(libc::CLOCK_MONOTONIC)
}

/// Seconds since the Unix epoch (0 if the clock is before it), for the
/// fallback record (which only the Unix shim keeps: see `record`).
pub(crate) fn unix_secs() -> u64 {
    clock(libc::CLOCK_REALTIME).as_secs()
}

/// The wall clock as time since the Unix epoch (zero before it): the
/// clock the gateway shares, for the deadline the shim announces.
pub(crate) fn since_epoch() -> Duration {
    clock(libc::CLOCK_REALTIME)
}

fn clock(id: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; both clocks exist on
    // every supported system, so the call cannot fail (and a failure would
    // leave `ts` at zero).
    unsafe { libc::clock_gettime(id, &mut ts) };
    let secs = u64::try_from(ts.tv_sec).unwrap_or(0);
    let nanos = u32::try_from(ts.tv_nsec).unwrap_or(0);
    Duration::new(secs, nanos)
}

/// The real user id of this process.
pub(crate) fn current_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

/// `path` as a NUL-terminated C string, or `EINVAL` if it holds a NUL.
fn c_path(path: &str) -> Result<alloc::vec::Vec<u8>, Errno> {
    if path.as_bytes().contains(&0) {
        return Err(Errno(libc::EINVAL));
    }
    let mut bytes = alloc::vec::Vec::with_capacity(path.len() + 1);
    bytes.extend_from_slice(path.as_bytes());
    bytes.push(0);
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;

    use super::*;

    #[test]
    fn errors_read_like_std() {
        assert_eq!(
            format!("{}", Errno(libc::ENOENT)),
            std::io::Error::from_raw_os_error(libc::ENOENT).to_string()
        );
        assert_eq!(format!("{}", Errno(9999)), "os error 9999");
    }

    #[test]
    fn clocks_move_forward() {
        let a = now();
        let b = now();
        assert!(b >= a);
        assert!(unix_secs() > 1_600_000_000);
    }

    #[test]
    fn c_paths_reject_nul() {
        assert_eq!(c_path("/a").unwrap(), b"/a\0");
        assert_eq!(c_path("/a\0b"), Err(Errno(libc::EINVAL)));
    }
}
