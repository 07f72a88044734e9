//! The gateway's local transport: where shims (and `gateway status`) reach
//! it, private to its user. One interface, one backend per platform:
//!
//! - Unix (`unix`): a Unix socket, 0600 in a 0700 directory, a stale
//!   socket replaced, a live gateway refused, removed on exit; every peer's
//!   uid checked (`SO_PEERCRED`). Or the listening socket systemd passed
//!   (`activation`: socket activation), left in place on exit; the HTTP
//!   hook port may be passed the same way ([`inherited_http`]).
//! - Windows (`windows`): a named pipe created as the first instance of its
//!   name (a running gateway, or a squatter, makes this one refuse to
//!   start), remote clients rejected, a DACL granting access to this user
//!   only; every peer's user SID checked.
//!
//! `server` and `admin` see only this module: a [`Listener`] bound at a
//! path (a file path on Unix, a pipe name `\\.\pipe\...` on Windows) whose
//! [`Listener::accept`] yields peer-checked [`Connection`]s (bytes both
//! ways) or says why a connection was refused, and [`connect`], the client
//! side `gateway status` and tests use.
//!
//! [`files`] holds the same promise for the files the gateway opens: a
//! FIFO or symlink planted at their path can neither hang nor redirect it.

#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "tests set up files and sockets; the runtime rules are for the gateway's own code"
    )
)]

use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

#[cfg(unix)]
mod activation;
pub mod files;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as imp;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as imp;

#[cfg(test)]
mod testing;

#[cfg(unix)]
pub use activation::{ActivationError, inherited_http};
pub use imp::{BindError, ClientStream, Listener, Peer, connect};

/// The socket (a named pipe on Windows) for this process's user and
/// environment: the one the shim resolves with the same variables
/// (`hookgate_wire::socket`), so both sides meet without configuration.
pub fn default_path() -> PathBuf {
    let env = |name: &str| std::env::var(name).ok();
    #[cfg(unix)]
    let path = hookgate_wire::socket::resolve(env, hookgate_wire::socket::current_uid());
    #[cfg(windows)]
    let path = hookgate_wire::socket::resolve_pipe(env);
    PathBuf::from(path)
}

/// `path` with `suffix` appended to its last component (`gateway.sock` +
/// `.admin`); a sibling pipe name on Windows.
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Why [`Listener::accept`] produced no connection.
#[derive(Debug, thiserror::Error)]
pub enum AcceptError {
    /// Accepting failed (e.g. out of file descriptors): back off, retry.
    #[error(transparent)]
    Io(io::Error),
    /// A peer was turned away (its connection is closed already), for the
    /// caller to count and log.
    #[error(transparent)]
    Refused(Refused),
}

/// A peer the listener turned away.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    /// The peer runs as another user.
    #[error("peer of another user ({0})")]
    ForeignPeer(Peer),
    /// The peer's identity could not be established: refused too.
    #[error("peer identity unavailable: {0}")]
    NoPeerIdentity(io::Error),
}

/// One accepted, peer-checked connection: bytes in both directions.
#[derive(Debug)]
pub struct Connection(imp::Stream);

impl Connection {
    fn new(stream: imp::Stream) -> Connection {
        Connection(stream)
    }

    /// Writes what the socket takes right now, without waiting (for the
    /// one-frame "busy" answer, given from the accept loop).
    pub fn try_write(&self, bytes: &[u8]) -> io::Result<usize> {
        self.0.try_write(bytes)
    }

    /// Whether the peer has hung up (or reset the connection): a shim that
    /// gave up waiting. A peer that merely has nothing more to send is not
    /// gone.
    pub fn peer_gone(&self) -> bool {
        let mut byte = [0u8; 1];
        match self.0.try_read(&mut byte) {
            Ok(0) => true,
            Ok(_) => false,
            Err(err) => err.kind() != io::ErrorKind::WouldBlock,
        }
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.0.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}
