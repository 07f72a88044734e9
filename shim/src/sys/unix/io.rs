//! Reading, writing and waiting on file descriptors, and the process's
//! standard streams.
//!
//! One thread does everything, so no call may block past a deadline: a
//! caller first waits for readiness with `poll(2)` (bounded by the deadline,
//! on the monotonic clock), then reads or writes what is ready. stdin is
//! never switched to nonblocking mode: its file description is shared with
//! the agent, which must not see its own pipe change under it.

use core::time::Duration;

use libc::c_int;

use super::{Errno, now};
use crate::stdin::{Stdin, read_bounded};
use crate::sys::IoError;

const STDIN: c_int = libc::STDIN_FILENO;
const STDOUT: c_int = libc::STDOUT_FILENO;
const STDERR: c_int = libc::STDERR_FILENO;

/// Reads the process's stdin to its end, keeping at most `max` bytes (see
/// `read_bounded`), each wait bounded by `deadline` (on the [`now`] clock).
pub(crate) fn read_stdin(max: usize, deadline: Duration) -> Result<Stdin, IoError> {
    read_bounded(
        |buf| loop {
            if !wait(STDIN, Interest::Read, Some(deadline)).map_err(IoError::Os)? {
                return Err(IoError::Timeout);
            }
            match read(STDIN, buf) {
                Ok(n) => return Ok(n),
                // A closed stdin reads as empty, as with std.
                Err(err) if err.0 == libc::EBADF => return Ok(0),
                Err(err) if err.interrupted() || err.would_block() => {}
                Err(err) => return Err(IoError::Os(err)),
            }
        },
        max,
    )
}

/// Writes all of `bytes` to stdout.
pub(crate) fn write_stdout(bytes: &[u8]) -> Result<(), Errno> {
    write_all(STDOUT, bytes)
}

/// Writes all of `bytes` to stderr.
pub(crate) fn write_stderr(bytes: &[u8]) -> Result<(), Errno> {
    write_all(STDERR, bytes)
}

/// What to wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Interest {
    Read,
    Write,
}

/// Waits until `fd` is ready for `interest` (or has an error or hang-up
/// for the next call to report), or until `deadline` on the [`now`] clock
/// (`None`: no deadline). `Ok(false)` means the deadline came first.
pub(super) fn wait(
    fd: c_int,
    interest: Interest,
    deadline: Option<Duration>,
) -> Result<bool, Errno> {
    let events = match interest {
        Interest::Read => libc::POLLIN,
        Interest::Write => libc::POLLOUT,
    };
    loop {
        let timeout = match deadline {
            None => -1,
            Some(deadline) => {
                let left = deadline.saturating_sub(now());
                if left.is_zero() {
                    return Ok(false);
                }
                poll_millis(left)
            }
        };
        let mut fds = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        // SAFETY: `fds` is one valid, writable pollfd and nfds is 1.
        let ready = unsafe { libc::poll(&mut fds, 1, timeout) };
        if ready > 0 {
            return Ok(true);
        }
        if ready < 0 {
            let err = Errno::last();
            if !err.interrupted() {
                return Err(err);
            }
        }
        // A timeout or a signal: the loop re-checks the deadline.
    }
}

/// `left` in whole milliseconds, rounded up (so a wait never ends just
/// before the deadline and spins), at most `c_int::MAX`.
fn poll_millis(left: Duration) -> c_int {
    let millis = left.as_nanos().div_ceil(1_000_000);
    c_int::try_from(millis).unwrap_or(c_int::MAX)
}

/// One `read(2)` into `buf`.
pub(super) fn read(fd: c_int, buf: &mut [u8]) -> Result<usize, Errno> {
    // SAFETY: `buf` is valid and writable for `buf.len()` bytes.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    usize::try_from(n).map_err(|_| Errno::last())
}

/// One `write(2)` from `buf`.
fn write(fd: c_int, buf: &[u8]) -> Result<usize, Errno> {
    // SAFETY: `buf` is valid and readable for `buf.len()` bytes.
    let n = unsafe { libc::write(fd, buf.as_ptr().cast(), buf.len()) };
    usize::try_from(n).map_err(|_| Errno::last())
}

/// Writes all of `bytes`: partial writes continue, `EINTR` retries, and
/// `EAGAIN` (an agent that gave us a nonblocking pipe) waits for room.
/// SIGPIPE is ignored (see `rt`), so a closed pipe is an `EPIPE` error.
pub(super) fn write_all(fd: c_int, mut bytes: &[u8]) -> Result<(), Errno> {
    while !bytes.is_empty() {
        match write(fd, bytes) {
            Ok(0) => return Err(Errno(libc::EPIPE)),
            Ok(n) => bytes = bytes.get(n..).unwrap_or_default(),
            Err(err) if err.interrupted() => {}
            Err(err) if err.would_block() => {
                wait(fd, Interest::Write, None)?;
            }
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poll_timeouts_round_up() {
        assert_eq!(poll_millis(Duration::from_nanos(1)), 1);
        assert_eq!(poll_millis(Duration::from_millis(5)), 5);
        assert_eq!(poll_millis(Duration::from_micros(5001)), 6);
        assert_eq!(poll_millis(Duration::from_secs(u64::MAX)), c_int::MAX);
    }

    #[test]
    fn waits_end_at_the_deadline() {
        let (reader, _writer) = std::os::unix::net::UnixStream::pair().unwrap();
        use std::os::fd::AsRawFd;
        let deadline = now() + Duration::from_millis(20);
        assert_eq!(
            wait(reader.as_raw_fd(), Interest::Read, Some(deadline)),
            Ok(false)
        );
        assert!(now() >= deadline);
        assert_eq!(
            wait(
                reader.as_raw_fd(),
                Interest::Write,
                Some(deadline + Duration::from_secs(5))
            ),
            Ok(true)
        );
    }

    #[test]
    fn writes_and_reads_everything() {
        let (a, b) = std::os::unix::net::UnixStream::pair().unwrap();
        use std::os::fd::AsRawFd;
        write_all(a.as_raw_fd(), b"hello").unwrap();
        let mut buf = [0u8; 16];
        assert_eq!(read(b.as_raw_fd(), &mut buf), Ok(5));
        assert_eq!(&buf[..5], b"hello");
    }
}
