//! The Unix stream socket to the gateway.
//!
//! Connecting: a Unix socket never connects "in progress" (no `EINPROGRESS`
//! to poll for): it connects at once, is refused, or, when the gateway's
//! backlog is full, blocks (`EAGAIN` at once if nonblocking). So the connect
//! is a blocking one bounded by `SO_SNDTIMEO`, which the kernel applies to
//! exactly that wait; afterwards the socket is nonblocking and every send
//! and receive goes through `poll` with the caller's deadline.

use alloc::vec;
use alloc::vec::Vec;
use core::mem;
use core::time::Duration;

use libc::c_int;

use super::io::{Interest, wait};
use super::{Errno, c_path, current_uid, now, trust};
use crate::sys::{ConnectError, IoError};

/// A connected, nonblocking stream socket, closed on drop.
#[derive(Debug)]
pub(crate) struct Stream(c_int);

impl Stream {
    /// Connects to the gateway's socket at `path` before `deadline` (on the
    /// [`now`] clock), if only this user can have put it there (see
    /// `trust`).
    pub(crate) fn open(path: &str, deadline: Duration) -> Result<Stream, ConnectError> {
        trust::check_socket(path, current_uid()).map_err(|refusal| match refusal {
            trust::Refusal::Absent(err) => ConnectError::Os(err),
            trust::Refusal::Untrusted(detail) => ConnectError::Untrusted(detail),
        })?;
        let limit = deadline.saturating_sub(now());
        if limit.is_zero() {
            return Err(ConnectError::Timeout);
        }
        let stream = Stream::connect(path, limit).map_err(|err| {
            if err.would_block() {
                ConnectError::Timeout
            } else {
                ConnectError::Os(err)
            }
        })?;
        trust::check_peer(stream.peer_uid(), current_uid()).map_err(ConnectError::Untrusted)?;
        Ok(stream)
    }

    /// The uid of the process that owns the other end (the kernel's word,
    /// taken when the server called `listen`).
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn peer_uid(&self) -> Result<u32, Errno> {
        let mut cred = libc::ucred {
            pid: 0,
            uid: u32::MAX,
            gid: u32::MAX,
        };
        let mut len = socklen(mem::size_of::<libc::ucred>());
        // SAFETY: `cred` is a valid, writable ucred and `len` its size.
        let rc = unsafe {
            libc::getsockopt(
                self.0,
                libc::SOL_SOCKET,
                libc::SO_PEERCRED,
                (&raw mut cred).cast(),
                &mut len,
            )
        };
        if rc == 0 {
            Ok(cred.uid)
        } else {
            Err(Errno::last())
        }
    }

    /// The uid of the process that owns the other end.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    fn peer_uid(&self) -> Result<u32, Errno> {
        let (mut uid, mut gid) = (u32::MAX, u32::MAX);
        // SAFETY: both out-pointers are valid, writable ids.
        let rc = unsafe { libc::getpeereid(self.0, &mut uid, &mut gid) };
        if rc == 0 { Ok(uid) } else { Err(Errno::last()) }
    }

    /// Sends all of `bytes` before `deadline`. (It takes the bytes by value
    /// for the Windows backend, which hands them to a worker thread.)
    pub(crate) fn send_all(&self, bytes: Vec<u8>, deadline: Duration) -> Result<(), IoError> {
        let mut bytes = bytes.as_slice();
        while !bytes.is_empty() {
            match self.send(bytes) {
                Ok(n) => bytes = bytes.get(n..).unwrap_or_default(),
                Err(err) if err.interrupted() => {}
                Err(err) if err.would_block() => self.wait(Interest::Write, deadline)?,
                Err(err) => return Err(IoError::Os(err)),
            }
        }
        Ok(())
    }

    /// Receives exactly `len` bytes before `deadline`.
    pub(crate) fn recv_exact(&self, len: usize, deadline: Duration) -> Result<Vec<u8>, IoError> {
        let mut buf = vec![0u8; len];
        let mut filled = 0;
        while let Some(rest) = buf.get_mut(filled..).filter(|rest| !rest.is_empty()) {
            match self.recv(rest) {
                Ok(0) => return Err(IoError::Closed),
                Ok(n) => filled += n,
                Err(err) if err.interrupted() => {}
                Err(err) if err.would_block() => self.wait(Interest::Read, deadline)?,
                Err(err) => return Err(IoError::Os(err)),
            }
        }
        Ok(buf)
    }

    /// Waits until the socket is ready for `interest`, or fails at the
    /// deadline.
    fn wait(&self, interest: Interest, deadline: Duration) -> Result<(), IoError> {
        match wait(self.0, interest, Some(deadline)) {
            Ok(true) => Ok(()),
            Ok(false) => Err(IoError::Timeout),
            Err(err) => Err(IoError::Os(err)),
        }
    }

    /// Connects to the socket at `path`, waiting at most `limit` (which
    /// must not be zero) for room in a full backlog: then `EAGAIN`.
    pub(crate) fn connect(path: &str, limit: Duration) -> Result<Stream, Errno> {
        let addr = address(path)?;
        // SAFETY: plain socket creation; the fd is owned by `Stream` at once.
        let fd = unsafe { libc::socket(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
        if fd < 0 {
            return Err(Errno::last());
        }
        let stream = Stream(fd);
        stream.set_send_timeout(limit)?;
        loop {
            // SAFETY: `addr` is an initialized sockaddr_un and the length
            // passed is its size.
            let rc = unsafe {
                libc::connect(
                    stream.0,
                    (&raw const addr).cast(),
                    socklen(mem::size_of::<libc::sockaddr_un>()),
                )
            };
            if rc == 0 {
                break;
            }
            let err = Errno::last();
            // A signal interrupted the wait: a Unix connect is all or
            // nothing, so trying again is safe.
            if !err.interrupted() {
                return Err(err);
            }
        }
        stream.set_nonblocking()?;
        Ok(stream)
    }

    /// One nonblocking `send`; `MSG_NOSIGNAL`: a closed peer is `EPIPE`,
    /// not a signal.
    fn send(&self, buf: &[u8]) -> Result<usize, Errno> {
        // SAFETY: `buf` is valid and readable for `buf.len()` bytes.
        let n = unsafe { libc::send(self.0, buf.as_ptr().cast(), buf.len(), libc::MSG_NOSIGNAL) };
        usize::try_from(n).map_err(|_| Errno::last())
    }

    /// One nonblocking `recv`; 0 is end of stream.
    fn recv(&self, buf: &mut [u8]) -> Result<usize, Errno> {
        // SAFETY: `buf` is valid and writable for `buf.len()` bytes.
        let n = unsafe { libc::recv(self.0, buf.as_mut_ptr().cast(), buf.len(), 0) };
        usize::try_from(n).map_err(|_| Errno::last())
    }

    fn set_send_timeout(&self, limit: Duration) -> Result<(), Errno> {
        // A zero timeval would mean "no timeout": never pass one.
        let micros = limit.subsec_micros().max(u32::from(limit.is_zero()));
        let tv = libc::timeval {
            tv_sec: libc::time_t::try_from(limit.as_secs()).unwrap_or(libc::time_t::MAX),
            tv_usec: libc::suseconds_t::from(micros),
        };
        // SAFETY: `tv` is a valid timeval and the length passed is its size.
        let rc = unsafe {
            libc::setsockopt(
                self.0,
                libc::SOL_SOCKET,
                libc::SO_SNDTIMEO,
                (&raw const tv).cast(),
                socklen(mem::size_of::<libc::timeval>()),
            )
        };
        if rc == 0 { Ok(()) } else { Err(Errno::last()) }
    }

    fn set_nonblocking(&self) -> Result<(), Errno> {
        // SAFETY: F_GETFL/F_SETFL on an fd we own, with an int argument.
        let rc = unsafe {
            let flags = libc::fcntl(self.0, libc::F_GETFL);
            if flags < 0 {
                flags
            } else {
                libc::fcntl(self.0, libc::F_SETFL, flags | libc::O_NONBLOCK)
            }
        };
        if rc < 0 { Err(Errno::last()) } else { Ok(()) }
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: we own the fd and nothing uses it after this.
        unsafe { libc::close(self.0) };
    }
}

/// The socket address for `path`: `ENAMETOOLONG` if it does not fit in
/// `sun_path` with its NUL (std says "path must be shorter than SUN_LEN").
fn address(path: &str) -> Result<libc::sockaddr_un, Errno> {
    let path = c_path(path)?;
    // SAFETY: sockaddr_un is plain old data; all zeroes is a valid value.
    let mut addr: libc::sockaddr_un = unsafe { mem::zeroed() };
    addr.sun_family = libc::AF_UNIX as libc::sa_family_t;
    if path.len() > addr.sun_path.len() {
        return Err(Errno(libc::ENAMETOOLONG));
    }
    for (slot, byte) in addr.sun_path.iter_mut().zip(path) {
        *slot = byte as libc::c_char;
    }
    Ok(addr)
}

fn socklen(size: usize) -> libc::socklen_t {
    libc::socklen_t::try_from(size).unwrap_or(libc::socklen_t::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_paths_are_refused_before_connecting() {
        let long = "/x".repeat(100);
        assert_eq!(address(&long).err(), Some(Errno(libc::ENAMETOOLONG)));
        assert!(address("/tmp/gw.sock").is_ok());
    }

    #[test]
    fn connects_sends_and_receives() {
        use std::io::{Read, Write};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let path = path.to_str().unwrap();
        let stream = Stream::connect(path, Duration::from_secs(5)).unwrap();
        let (mut peer, _) = listener.accept().unwrap();
        assert_eq!(stream.send(b"ping"), Ok(4));
        let mut buf = [0u8; 4];
        peer.read_exact(&mut buf).unwrap();
        assert_eq!(&buf, b"ping");
        assert_eq!(
            stream.recv(&mut buf).err(),
            Some(Errno(libc::EAGAIN)),
            "nonblocking"
        );
        peer.write_all(b"pong").unwrap();
        drop(peer);
        wait(stream.0, Interest::Read, None).unwrap();
        assert_eq!(stream.recv(&mut buf), Ok(4));
        assert_eq!(stream.recv(&mut buf), Ok(0), "end of stream");

        drop(listener);
        assert_eq!(
            Stream::connect(path, Duration::from_secs(5)).err(),
            Some(Errno(libc::ECONNREFUSED))
        );
    }

    #[test]
    fn exact_transfers_end_at_the_deadline_or_the_end() {
        use std::io::{Read, Write};
        use std::os::fd::IntoRawFd;
        let (ours, mut peer) = std::os::unix::net::UnixStream::pair().unwrap();
        ours.set_nonblocking(true).unwrap();
        let stream = Stream(ours.into_raw_fd());
        let later = now() + Duration::from_secs(5);

        stream.send_all(b"ping".to_vec(), later).unwrap();
        let mut buf = [0u8; 4];
        peer.read_exact(&mut buf).unwrap();
        assert_eq!(&buf, b"ping");

        let deadline = now() + Duration::from_millis(20);
        assert!(matches!(
            stream.recv_exact(4, deadline),
            Err(IoError::Timeout)
        ));
        assert!(now() >= deadline);

        peer.write_all(b"pong").unwrap();
        drop(peer);
        assert_eq!(stream.recv_exact(4, later).unwrap(), b"pong");
        assert!(matches!(stream.recv_exact(1, later), Err(IoError::Closed)));
        assert!(matches!(
            stream.send_all(b"x".to_vec(), later),
            Err(IoError::Os(_))
        ));
    }
}
