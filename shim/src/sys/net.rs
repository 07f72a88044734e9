//! The Unix stream socket to the gateway.
//!
//! Connecting: a Unix socket never connects "in progress" (no `EINPROGRESS`
//! to poll for): it connects at once, is refused, or, when the gateway's
//! backlog is full, blocks (`EAGAIN` at once if nonblocking). So the connect
//! is a blocking one bounded by `SO_SNDTIMEO`, which the kernel applies to
//! exactly that wait; afterwards the socket is nonblocking and every send
//! and receive goes through `poll` with the caller's deadline.

use core::mem;
use core::time::Duration;

use libc::c_int;

use super::{Errno, c_path};

/// A connected, nonblocking stream socket, closed on drop.
#[derive(Debug)]
pub(crate) struct Stream(c_int);

impl Stream {
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

    /// The fd, to `wait` on.
    pub(crate) fn fd(&self) -> c_int {
        self.0
    }

    /// One nonblocking `send`; `MSG_NOSIGNAL`: a closed peer is `EPIPE`,
    /// not a signal.
    pub(crate) fn send(&self, buf: &[u8]) -> Result<usize, Errno> {
        // SAFETY: `buf` is valid and readable for `buf.len()` bytes.
        let n = unsafe { libc::send(self.0, buf.as_ptr().cast(), buf.len(), libc::MSG_NOSIGNAL) };
        usize::try_from(n).map_err(|_| Errno::last())
    }

    /// One nonblocking `recv`; 0 is end of stream.
    pub(crate) fn recv(&self, buf: &mut [u8]) -> Result<usize, Errno> {
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
        super::super::wait(stream.fd(), super::super::Interest::Read, None).unwrap();
        assert_eq!(stream.recv(&mut buf), Ok(4));
        assert_eq!(stream.recv(&mut buf), Ok(0), "end of stream");

        drop(listener);
        assert_eq!(
            Stream::connect(path, Duration::from_secs(5)).err(),
            Some(Errno(libc::ECONNREFUSED))
        );
    }
}
