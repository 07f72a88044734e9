//! One exchange with the gateway, bounded in time whatever the gateway does.
//!
//! Single-threaded: the connect waits at most `CONNECT_TIMEOUT` (a blocked
//! Unix connect means a full backlog, i.e. "unreachable"); then the socket
//! is nonblocking and the request is sent and the reply read as `poll`
//! reports the socket ready, each wait bounded by the total deadline. When
//! time is up the shim answers on its own; nothing is left running.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::time::Duration;

use hookgate_wire::{FrameKind, HEADER_LEN, Header, MAX_REPLY_BODY, Reply};

use crate::config::CONNECT_TIMEOUT;
use crate::path;
use crate::record::Reason;
use crate::sys::{self, Errno, Interest, Stream};

/// Why no usable reply came back. The detail is for `HOOKGATE_DEBUG` only
/// and never holds payload bytes.
#[derive(Debug, PartialEq, Eq)]
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

/// Sends `frame` (an encoded request) to the gateway at `socket` and returns
/// its reply, whose exit code is guaranteed to be in 0..=255. `deadline` is
/// on the `sys::now` clock.
pub(crate) fn call(
    socket: &str,
    frame: &[u8],
    deadline: Duration,
    uid: u32,
) -> Result<Reply, Failure> {
    check_socket(socket, uid).map_err(Failure::Unreachable)?;

    let start = sys::now();
    let connect_deadline = deadline.min(start + CONNECT_TIMEOUT);
    let limit = connect_deadline.saturating_sub(start);
    if limit.is_zero() {
        return Err(Failure::Timeout);
    }
    let stream = match Stream::connect(socket, limit) {
        Ok(stream) => stream,
        Err(err) if err.would_block() && connect_deadline < deadline => {
            return Err(Failure::Unreachable("connect timed out".into()));
        }
        Err(err) if err.would_block() => return Err(Failure::Timeout),
        Err(err) => return Err(Failure::Unreachable(format!("connect: {err}"))),
    };

    if sys::now() >= deadline {
        return Err(Failure::Timeout);
    }
    // No half-close after the request: a gateway watching for EOF to cancel
    // abandoned calls would take it for the shim giving up.
    send_all(&stream, frame, deadline)?;
    let reply = read_reply(&stream, deadline)?;
    if !(0..=255).contains(&reply.exit_code) {
        return Err(Failure::BadReply(format!(
            "exit code {} is outside 0..=255",
            reply.exit_code
        )));
    }
    Ok(reply)
}

fn send_all(stream: &Stream, mut bytes: &[u8], deadline: Duration) -> Result<(), Failure> {
    let failed = |err: Errno| Failure::Unreachable(format!("send: {err}"));
    while !bytes.is_empty() {
        match stream.send(bytes) {
            Ok(n) => bytes = bytes.get(n..).unwrap_or_default(),
            Err(err) if err.interrupted() => {}
            Err(err) if err.would_block() => {
                if !sys::wait(stream.fd(), Interest::Write, Some(deadline)).map_err(failed)? {
                    return Err(Failure::Timeout);
                }
            }
            Err(err) => return Err(failed(err)),
        }
    }
    Ok(())
}

fn read_reply(stream: &Stream, deadline: Duration) -> Result<Reply, Failure> {
    let bad = |detail: &dyn core::fmt::Display| Failure::BadReply(format!("reply: {detail}"));
    let mut header = [0u8; HEADER_LEN];
    read_exact(stream, &mut header, deadline)?;
    let header = Header::decode(&header, MAX_REPLY_BODY)
        .and_then(|header| header.expect(FrameKind::Reply))
        .map_err(|err| bad(&err))?;
    let mut body: Vec<u8> = vec![0u8; header.body_len];
    read_exact(stream, &mut body, deadline)?;
    Reply::decode(&body).map_err(|err| bad(&err))
}

/// Fills `buf` from the stream before the deadline.
fn read_exact(stream: &Stream, buf: &mut [u8], deadline: Duration) -> Result<(), Failure> {
    let failed = |err: Errno| Failure::BadReply(format!("reply: {err}"));
    let mut filled = 0;
    while let Some(rest) = buf.get_mut(filled..).filter(|rest| !rest.is_empty()) {
        match stream.recv(rest) {
            Ok(0) => {
                return Err(Failure::BadReply(
                    "reply: failed to fill whole buffer".into(),
                ));
            }
            Ok(n) => filled += n,
            Err(err) if err.interrupted() => {}
            Err(err) if err.would_block() => {
                if !sys::wait(stream.fd(), Interest::Read, Some(deadline)).map_err(failed)? {
                    return Err(Failure::Timeout);
                }
            }
            Err(err) => return Err(failed(err)),
        }
    }
    Ok(())
}

/// Refuses a socket another user could have put there: the payload holds
/// the user's code and the reply can allow anything. The socket must be
/// owned by this user, and its directory must be owned by this user or
/// root and not writable by others (unless sticky, like /tmp), so nobody
/// else can swap it between this check and the connect.
pub(crate) fn check_socket(socket: &str, uid: u32) -> Result<(), String> {
    let meta = sys::stat(socket).map_err(|err| format!("socket: {err}"))?;
    if !meta.is_socket() {
        return Err("the socket path is not a socket".into());
    }
    if meta.uid != uid {
        return Err(format!(
            "the socket is owned by uid {}, not {uid}",
            meta.uid
        ));
    }
    let dir = sys::stat(path::parent(socket)).map_err(|err| format!("socket directory: {err}"))?;
    if dir_is_safe(dir.uid, dir.mode, uid) {
        Ok(())
    } else {
        Err("the socket directory is writable by other users".into())
    }
}

/// Whether only `uid` (or root) can replace entries of a directory.
pub(crate) fn dir_is_safe(owner: u32, mode: u32, uid: u32) -> bool {
    const OTHERS_WRITE: u32 = 0o022;
    const STICKY: u32 = 0o1000;
    (owner == uid || owner == 0) && (mode & OTHERS_WRITE == 0 || mode & STICKY != 0)
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::net::UnixListener;

    use super::*;
    use crate::sys::current_uid;

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
        let path_str = path.to_str().unwrap();
        assert!(check_socket(path_str, current_uid()).is_err(), "absent");

        let _listener = UnixListener::bind(&path).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(check_socket(path_str, current_uid()), Ok(()));
        assert!(check_socket(path_str, current_uid().wrapping_add(1)).is_err());

        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        assert!(
            check_socket(path_str, current_uid()).is_err(),
            "world-writable dir"
        );

        let file = dir.path().join("plain");
        fs::write(&file, b"").unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert!(
            check_socket(file.to_str().unwrap(), current_uid()).is_err(),
            "not a socket"
        );
    }

    /// A listener that never accepts, with its backlog full: the connect
    /// waits for room, then gives up as "unreachable", not as a timeout.
    #[test]
    fn a_full_backlog_is_unreachable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        let _listener = UnixListener::bind(&path).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        let path = path.to_str().unwrap();
        let mut queued = Vec::new();
        loop {
            match Stream::connect(path, Duration::from_millis(1)) {
                Ok(stream) => queued.push(stream),
                Err(err) => {
                    assert!(err.would_block(), "{err}");
                    break;
                }
            }
            assert!(queued.len() < 100_000, "the backlog never filled");
        }
        let deadline = sys::now() + Duration::from_secs(30);
        let failure = call(path, b"x", deadline, current_uid()).unwrap_err();
        assert_eq!(failure, Failure::Unreachable("connect timed out".into()));
    }
}
