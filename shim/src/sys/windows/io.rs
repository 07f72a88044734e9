//! Deadlines for blocking calls, and the process's standard streams.
//!
//! Pipes and stdin only offer blocking calls here (no `poll`), so a call
//! that must end by a deadline runs on a worker thread ([`within`]). The
//! worker owns everything it touches, so the main thread can stop waiting
//! for it at any time; a worker still blocked when the main thread returns
//! from `main` ends with the process.

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use super::now;
use crate::stdin::{Stdin, read_bounded};
use crate::sys::IoError;

/// Runs `work` on a new thread and waits for its result until `deadline`
/// (on the [`now`] clock). `IoError::Timeout` leaves the worker running,
/// blocked in its call: the caller then answers on its own and exits.
/// End of stream before the work was done (`UnexpectedEof`, as from
/// `read_exact`) is `IoError::Closed`.
pub(super) fn within<T: Send + 'static>(
    deadline: Duration,
    work: impl FnOnce() -> io::Result<T> + Send + 'static,
) -> Result<T, IoError> {
    let (done, result) = mpsc::sync_channel(1);
    thread::Builder::new()
        .spawn(move || {
            // Fails only if the main thread stopped waiting: nobody to tell.
            let _ = done.send(work());
        })
        .map_err(IoError::Os)?;
    match result.recv_timeout(deadline.saturating_sub(now())) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(err)) if err.kind() == io::ErrorKind::UnexpectedEof => Err(IoError::Closed),
        Ok(Err(err)) => Err(IoError::Os(err)),
        Err(RecvTimeoutError::Timeout) => Err(IoError::Timeout),
        // The worker panicked (with `panic = "abort"` the process is gone).
        Err(RecvTimeoutError::Disconnected) => {
            Err(IoError::Os(io::Error::other("the I/O worker thread died")))
        }
    }
}

/// Reads the process's stdin to its end, keeping at most `max` bytes (see
/// `read_bounded`), before `deadline`. A missing stdin, or a pipe whose
/// writer is gone, reads as empty (std treats both as end of file).
pub(crate) fn read_stdin(max: usize, deadline: Duration) -> Result<Stdin, IoError> {
    within(deadline, move || {
        let mut stdin = io::stdin().lock();
        read_bounded(
            |buf| loop {
                match stdin.read(buf) {
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                    result => return result,
                }
            },
            max,
        )
    })
}

/// Writes all of `bytes` to stdout, unbuffered.
pub(crate) fn write_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}

/// Writes all of `bytes` to stderr.
pub(crate) fn write_stderr(bytes: &[u8]) -> io::Result<()> {
    io::stderr().lock().write_all(bytes)
}

/// The working directory's bytes (see `rt::bytes`), or `None` if it
/// cannot be read; `request::cwd` drops one that is not UTF-8.
pub(crate) fn cwd() -> Option<Vec<u8>> {
    let dir = std::env::current_dir().ok()?;
    Some(dir.into_os_string().into_encoded_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_within_the_deadline_returns_its_result() {
        let deadline = now() + Duration::from_secs(10);
        assert_eq!(within(deadline, || Ok(7)).unwrap(), 7);
        let eof = within(deadline, || -> io::Result<()> {
            Err(io::ErrorKind::UnexpectedEof.into())
        });
        assert!(matches!(eof, Err(IoError::Closed)));
        let failed = within(deadline, || -> io::Result<()> {
            Err(io::Error::from_raw_os_error(5))
        });
        assert!(matches!(failed, Err(IoError::Os(err)) if err.raw_os_error() == Some(5)));
    }

    #[test]
    fn slow_work_ends_at_the_deadline() {
        let deadline = now() + Duration::from_millis(50);
        let slow = within(deadline, || {
            thread::sleep(Duration::from_secs(30));
            Ok(())
        });
        assert!(matches!(slow, Err(IoError::Timeout)));
        // No upper bound on the wall clock (it would flake on a busy
        // machine): had `within` waited for the worker, `slow` would be
        // `Ok` after 30 s.
        let late = now();
        assert!(late >= deadline, "{late:?} < {deadline:?}");
    }

    #[test]
    fn cwd_matches_std() {
        let expected = std::env::current_dir().unwrap();
        assert_eq!(cwd().unwrap(), expected.to_str().unwrap().as_bytes());
    }
}
