//! One exchange with the gateway, bounded in time whatever the gateway does.
//!
//! std has no connect timeout and no cancellable reads, so the exchange runs
//! on a worker thread and the main thread waits on a channel with
//! `recv_timeout`: first for the connection (at most `CONNECT_TIMEOUT`), then
//! for the reply (until the total deadline). When time is up the main thread
//! answers on its own and the process exits, which ends the worker wherever
//! it is blocked. The socket also gets read/write timeouts, so the worker
//! does not outlive the deadline by much even if the process lingered.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Instant;

use hookgate_wire::Reply;

use crate::config::CONNECT_TIMEOUT;
use crate::record::Reason;

/// Why no usable reply came back. The detail is for `HOOKGATE_DEBUG` only
/// and never holds payload bytes.
#[derive(Debug)]
pub(crate) enum Failure {
    Unreachable(String),
    Timeout,
    BadReply(String),
}

impl Failure {
    pub(crate) fn reason(&self) -> Reason {
        match self {
            Failure::Unreachable(_) => Reason::Unreachable,
            Failure::Timeout => Reason::Timeout,
            Failure::BadReply(_) => Reason::BadReply,
        }
    }

    pub(crate) fn detail(&self) -> &str {
        match self {
            Failure::Unreachable(detail) | Failure::BadReply(detail) => detail,
            Failure::Timeout => "no reply before the deadline",
        }
    }
}

/// Progress reports from the worker thread.
#[derive(Debug)]
enum Event {
    Connected,
    Done(Result<Reply, Failure>),
}

/// Sends `frame` (an encoded request) to the gateway at `socket` and returns
/// its reply, whose exit code is guaranteed to be in 0..=255.
pub(crate) fn call(
    socket: &Path,
    frame: Vec<u8>,
    deadline: Instant,
    uid: u32,
) -> Result<Reply, Failure> {
    // Two events at most: the worker never blocks on a send.
    let (events, rx) = mpsc::sync_channel(2);
    let socket: PathBuf = socket.to_path_buf();
    let spawned = thread::Builder::new()
        .name("gateway-call".to_owned())
        .spawn(move || {
            let result = transport::exchange(&socket, &frame, deadline, uid, || {
                let _ = events.send(Event::Connected);
            });
            let _ = events.send(Event::Done(result));
        });
    if let Err(err) = spawned {
        return Err(Failure::Unreachable(format!(
            "cannot start the call thread: {err}"
        )));
    }

    let connect_deadline = deadline.min(Instant::now() + CONNECT_TIMEOUT);
    match wait(&rx, connect_deadline) {
        Some(Event::Connected) => {}
        Some(Event::Done(result)) => return result,
        None if connect_deadline < deadline => {
            return Err(Failure::Unreachable("connect timed out".to_owned()));
        }
        None => return Err(Failure::Timeout),
    }
    match wait(&rx, deadline) {
        Some(Event::Done(result)) => result,
        Some(Event::Connected) => Err(Failure::BadReply("call thread reported twice".to_owned())),
        None => Err(Failure::Timeout),
    }
}

/// The next event, or `None` at the deadline. A worker that vanished
/// without a result (it cannot, short of a bug) counts as unreachable.
fn wait(rx: &Receiver<Event>, deadline: Instant) -> Option<Event> {
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(event) => Some(event),
        Err(RecvTimeoutError::Timeout) => None,
        Err(RecvTimeoutError::Disconnected) => Some(Event::Done(Err(Failure::Unreachable(
            "call thread ended without a result".to_owned(),
        )))),
    }
}

#[cfg(unix)]
mod transport {
    use std::fs;
    use std::io::{self, Write};
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    use std::os::unix::net::UnixStream;
    use std::path::Path;
    use std::time::Instant;

    use hookgate_wire::Reply;

    use super::Failure;

    /// Connect, send, receive; `connected` is called once connected.
    pub(super) fn exchange(
        socket: &Path,
        frame: &[u8],
        deadline: Instant,
        uid: u32,
        connected: impl FnOnce(),
    ) -> Result<Reply, Failure> {
        check_socket(socket, uid).map_err(Failure::Unreachable)?;
        let mut stream = UnixStream::connect(socket)
            .map_err(|err| Failure::Unreachable(format!("connect: {err}")))?;
        connected();

        let remaining = deadline
            .checked_duration_since(Instant::now())
            .filter(|left| !left.is_zero())
            .ok_or(Failure::Timeout)?;
        stream
            .set_write_timeout(Some(remaining))
            .and_then(|()| stream.set_read_timeout(Some(remaining)))
            .map_err(|err| Failure::Unreachable(format!("socket timeouts: {err}")))?;

        // No half-close after the request: a gateway watching for EOF to
        // cancel abandoned calls would take it for the shim giving up.
        stream
            .write_all(frame)
            .and_then(|()| stream.flush())
            .map_err(|err| {
                if is_timeout(&err) {
                    Failure::Timeout
                } else {
                    Failure::Unreachable(format!("send: {err}"))
                }
            })?;
        let reply = Reply::read_from(&mut stream).map_err(|err| {
            if is_timeout(&err) {
                Failure::Timeout
            } else {
                Failure::BadReply(format!("reply: {err}"))
            }
        })?;
        if !(0..=255).contains(&reply.exit_code) {
            return Err(Failure::BadReply(format!(
                "exit code {} is outside 0..=255",
                reply.exit_code
            )));
        }
        Ok(reply)
    }

    fn is_timeout(err: &io::Error) -> bool {
        matches!(
            err.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
        )
    }

    /// Refuses a socket another user could have put there: the payload
    /// holds the user's code and the reply can allow anything. The socket
    /// must be owned by this user, and its directory must be owned by this
    /// user or root and not writable by others (unless sticky, like /tmp),
    /// so nobody else can swap it between this check and the connect.
    pub(super) fn check_socket(socket: &Path, uid: u32) -> Result<(), String> {
        let meta = fs::metadata(socket).map_err(|err| format!("socket: {err}"))?;
        if !meta.file_type().is_socket() {
            return Err("the socket path is not a socket".to_owned());
        }
        if meta.uid() != uid {
            return Err(format!(
                "the socket is owned by uid {}, not {uid}",
                meta.uid()
            ));
        }
        let dir = match socket.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let dir_meta = fs::metadata(dir).map_err(|err| format!("socket directory: {err}"))?;
        if dir_is_safe(dir_meta.uid(), dir_meta.mode(), uid) {
            Ok(())
        } else {
            Err("the socket directory is writable by other users".to_owned())
        }
    }

    /// Whether only `uid` (or root) can replace entries of a directory.
    pub(super) fn dir_is_safe(owner: u32, mode: u32, uid: u32) -> bool {
        const OTHERS_WRITE: u32 = 0o022;
        const STICKY: u32 = 0o1000;
        (owner == uid || owner == 0) && (mode & OTHERS_WRITE == 0 || mode & STICKY != 0)
    }
}

/// UNTESTED (no Windows target on the build machine): Windows has no
/// transport yet (named pipes via `interprocess` are the plan), so every
/// call is a fallback.
#[cfg(not(unix))]
mod transport {
    use std::path::Path;
    use std::time::Instant;

    use hookgate_wire::Reply;

    use super::Failure;

    pub(super) fn exchange(
        _socket: &Path,
        _frame: &[u8],
        _deadline: Instant,
        _uid: u32,
        _connected: impl FnOnce(),
    ) -> Result<Reply, Failure> {
        Err(Failure::Unreachable(
            "no gateway transport on this platform yet".to_owned(),
        ))
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::net::UnixListener;

    use super::transport::{check_socket, dir_is_safe};
    use crate::config::current_uid;

    #[test]
    fn directory_safety() {
        let cases: &[(u32, u32, bool)] = &[
            (1000, 0o700, true),
            (0, 0o755, true),
            (0, 0o1777, true),
            (1000, 0o770, false),
            (1000, 0o777, false),
            (1001, 0o700, false),
        ];
        for (owner, mode, safe) in cases {
            assert_eq!(dir_is_safe(*owner, *mode, 1000), *safe, "{owner} {mode:o}");
        }
    }

    #[test]
    fn checks_the_real_socket() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        assert!(check_socket(&path, current_uid()).is_err(), "absent");

        let _listener = UnixListener::bind(&path).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(check_socket(&path, current_uid()), Ok(()));
        assert!(check_socket(&path, current_uid().wrapping_add(1)).is_err());

        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        assert!(
            check_socket(&path, current_uid()).is_err(),
            "world-writable dir"
        );

        let file = dir.path().join("plain");
        fs::write(&file, b"").unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert!(check_socket(&file, current_uid()).is_err(), "not a socket");
    }
}
