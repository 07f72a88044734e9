//! The Windows backend: a named pipe private to its user, one live gateway
//! per name.
//!
//! The guarantees of the Unix socket, in Windows terms:
//!
//! - One gateway per name: the first instance is created with
//!   `FILE_FLAG_FIRST_PIPE_INSTANCE`, so a name someone already holds (a
//!   running gateway, or a squatter waiting for shims' payloads) makes this
//!   one refuse to start; a probe of the holder says which it is (and,
//!   made before creating anything, is what refuses under Wine 8, which
//!   ignores the flag). There is no stale file to clear: a pipe vanishes
//!   with its last handle.
//! - Private: every instance is created with a protected DACL that grants
//!   this user, and nobody else, access (`D:P(A;;GA;;;<our SID>)`), and
//!   with `PIPE_REJECT_REMOTE_CLIENTS`.
//! - Peer check: each client's process user SID must equal ours, or the
//!   connection is closed and reported like a foreign uid on Unix.
//!
//! One instance is always listening: the next one is created as soon as a
//! client connects, before the connected one is handed off. How many are
//! served at once is the caller's limit (the server's slots), as on Unix.
//!
//! The tokio named pipe is used directly rather than through
//! `interprocess`: the latter flushes on shutdown and on drop with a
//! blocking `FlushFileBuffers` (on a blocking-pool thread, or a "limbo"
//! thread pool), a wait with no deadline that a client which never reads
//! holds forever. tokio (mio) keeps a written reply in flight after the
//! handle is dropped, without a thread, and closing does not discard it;
//! a reply its client never reads stays buffered until that client closes
//! its end, as unread bytes stay in a Unix socket's buffer.

mod sys;
#[cfg(test)]
mod tests;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hookgate_wire::socket::PIPE_PREFIX;
use tokio::net::windows::named_pipe::{ClientOptions, NamedPipeClient, NamedPipeServer};
use tokio::sync::Mutex;

use windows_sys::Win32::Foundation;

use super::{AcceptError, Connection, Refused};
use sys::{OwnerOnly, UserSid};

/// An accepted connection.
pub(super) type Stream = NamedPipeServer;
/// The client side of a connection, from [`connect`].
pub type ClientStream = NamedPipeClient;

/// Win32 error codes this module tells apart, as `io::Error::raw_os_error`
/// gives them.
const ERROR_FILE_NOT_FOUND: i32 = Foundation::ERROR_FILE_NOT_FOUND as i32;
const ERROR_ACCESS_DENIED: i32 = Foundation::ERROR_ACCESS_DENIED as i32;
const ERROR_PIPE_BUSY: i32 = Foundation::ERROR_PIPE_BUSY as i32;
const ERROR_NO_DATA: i32 = Foundation::ERROR_NO_DATA as i32;

/// Why the pipe could not be set up. Each says what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    #[error("{0} is not a named pipe name; on Windows the socket is `{PIPE_PREFIX}NAME`")]
    NotAPipe(PathBuf),
    #[error("cannot tell which user this process runs as: {0}")]
    Identity(io::Error),
    #[error("cannot build the pipe's owner-only security descriptor: {0}")]
    Security(io::Error),
    #[error("another gateway is already listening on {0}; stop it first or use --socket")]
    AlreadyRunning(PathBuf),
    /// Someone else holds the name: the shims would talk to it.
    #[error("pipe {path} is already held by {holder}; refusing to start: stop it or use --socket")]
    Taken { path: PathBuf, holder: String },
    #[error("cannot create pipe {path}: {source}")]
    Create { path: PathBuf, source: io::Error },
}

/// A peer turned away: its process and, when known, its user.
#[derive(Debug)]
pub struct Peer {
    pub pid: u32,
    /// The process's user SID (`S-1-5-21-...`).
    pub user: String,
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pid {}, user {}", self.pid, self.user)
    }
}

/// A listening named pipe. Dropping it closes the listening instance; the
/// name disappears once the connections handed out are closed too.
#[derive(Debug)]
pub struct Listener {
    path: PathBuf,
    /// Peers must run as this user.
    user: UserSid,
    /// Every instance's DACL: `user` only.
    security: OwnerOnly,
    /// The instance waiting for the next client.
    listening: Mutex<NamedPipeServer>,
}

impl Listener {
    /// Creates the first instance of pipe `path` for this process's user.
    pub async fn bind(path: &Path) -> Result<Listener, BindError> {
        if !is_pipe_name(path) {
            return Err(BindError::NotAPipe(path.to_path_buf()));
        }
        let user = UserSid::current().map_err(BindError::Identity)?;
        let security = OwnerOnly::new(&user).map_err(BindError::Security)?;
        // A pipe of this name is reported before anything is created. The
        // first-instance flag then closes the race between the two, and
        // alone would suffice on Windows; Wine 8 ignores that flag, and
        // this check still refuses a running gateway there.
        if let Some(taken) = holder(path, &user) {
            return Err(taken);
        }
        let failed = |source: io::Error| {
            // `FILE_FLAG_FIRST_PIPE_INSTANCE` fails with access denied (or
            // busy, when the holder capped its instances): say who it is.
            let taken = match source.raw_os_error() {
                Some(ERROR_ACCESS_DENIED | ERROR_PIPE_BUSY) => holder(path, &user),
                _ => None,
            };
            taken.unwrap_or(BindError::Create {
                path: path.to_path_buf(),
                source,
            })
        };
        let first = security.create_pipe(path, true).map_err(failed)?;
        Ok(Listener {
            path: path.to_path_buf(),
            user,
            security,
            listening: Mutex::new(first),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next connection of a process running as our user; others are
    /// closed and reported.
    pub async fn accept(&self) -> Result<Connection, AcceptError> {
        let connected = {
            let mut listening = self.listening.lock().await;
            loop {
                match listening.connect().await {
                    Ok(()) => break,
                    // A client connected and left before this instance was
                    // waited on (say a shim that gave up while the accept
                    // loop waited for a slot): no accept failure, only a
                    // dead instance. Listen on a fresh one.
                    Err(err) if err.raw_os_error() == Some(ERROR_NO_DATA) => {
                        *listening = self
                            .security
                            .create_pipe(&self.path, false)
                            .map_err(AcceptError::Io)?;
                    }
                    Err(err) => {
                        // An instance whose connect failed may fail every
                        // later one: listen on a fresh instance instead.
                        if let Ok(fresh) = self.security.create_pipe(&self.path, false) {
                            *listening = fresh;
                        }
                        return Err(AcceptError::Io(err));
                    }
                }
            }
            // The next instance listens before this one is handed off. If
            // it cannot be created, the connected one stays in place and
            // the next `accept` (its `connect` returns at once) retries.
            let next = self
                .security
                .create_pipe(&self.path, false)
                .map_err(AcceptError::Io)?;
            std::mem::replace(&mut *listening, next)
        };
        // Refusing drops `connected`, which closes it. The check goes by
        // the client's process id, which a process of another user could
        // in theory reuse between connecting and the lookup; the DACL is
        // the first line and already kept other users out.
        let unknown = |err| AcceptError::Refused(Refused::NoPeerIdentity(err));
        let pid = sys::client_pid(&connected).map_err(unknown)?;
        let peer = UserSid::of_process(pid).map_err(unknown)?;
        if peer == self.user {
            Ok(Connection::new(connected))
        } else {
            Err(AcceptError::Refused(Refused::ForeignPeer(Peer {
                pid,
                user: peer.to_string(),
            })))
        }
    }
}

/// Whether `path` names a local pipe (`\\.\pipe\NAME`, any case).
fn is_pipe_name(path: &Path) -> bool {
    path.to_str()
        .is_some_and(hookgate_wire::socket::is_pipe_name)
}

/// Who holds the pipe name `path`, if anyone: a gateway of our user (it
/// answers as a process of our user) or someone else. Connects to it, as
/// a client that sends nothing.
fn holder(path: &Path, user: &UserSid) -> Option<BindError> {
    let taken = |holder: String| {
        Some(BindError::Taken {
            path: path.to_path_buf(),
            holder,
        })
    };
    let client = match ClientOptions::new().open(path) {
        Ok(client) => client,
        Err(err) => {
            return match err.raw_os_error() {
                Some(ERROR_FILE_NOT_FOUND) => None,
                // A gateway always keeps an instance listening.
                Some(ERROR_PIPE_BUSY) => taken("a program with no instance free".into()),
                Some(ERROR_ACCESS_DENIED) => taken("a program whose pipe denies us access".into()),
                _ => taken(format!("a program that could not be identified ({err})")),
            };
        }
    };
    match sys::server_pid(&client).and_then(|pid| Ok((pid, UserSid::of_process(pid)?))) {
        Ok((_, owner)) if owner == *user => Some(BindError::AlreadyRunning(path.to_path_buf())),
        Ok((pid, owner)) => taken(format!("process {pid} of another user ({owner})")),
        Err(err) => taken(format!("a process that could not be identified ({err})")),
    }
}

/// How long [`connect`] waits between attempts while every instance of the
/// pipe is busy (the gateway creates the next one right after a connect).
const BUSY_RETRY: Duration = Duration::from_millis(5);

/// Connects to the pipe `path` and checks that its server runs as our
/// user. Retries while all instances are busy: the caller bounds the time.
/// A missing pipe is `NotFound` ("no such pipe").
pub async fn connect(path: &Path) -> io::Result<ClientStream> {
    let client = loop {
        match ClientOptions::new().open(path) {
            Ok(client) => break client,
            Err(err) if err.raw_os_error() == Some(ERROR_PIPE_BUSY) => {
                tokio::time::sleep(BUSY_RETRY).await;
            }
            Err(err) if err.raw_os_error() == Some(ERROR_FILE_NOT_FOUND) => {
                return Err(io::Error::new(io::ErrorKind::NotFound, "no such pipe"));
            }
            Err(err) => return Err(err),
        }
    };
    let server = UserSid::of_process(sys::server_pid(&client)?)?;
    if server != UserSid::current()? {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("the pipe's server runs as another user ({server})"),
        ));
    }
    Ok(client)
}
