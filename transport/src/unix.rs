//! The Unix backend: a Unix socket private to its user, one live gateway
//! per path, removed on the way out.
//!
//! The directory is 0700 (created so when missing; refused when another
//! user owns it or when group or others have any permission on it), the
//! socket 0600, and every peer's uid is checked on accept. A socket file
//! left by a dead gateway is removed; one answered by a live gateway makes
//! this one refuse to start.

use std::fmt;
use std::io;
use std::os::unix::fs::{DirBuilderExt, FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use hookgate_wire::socket::current_uid;
use tokio::net::{UnixListener, UnixStream};

use super::activation::{self, ActivationError};
use super::{AcceptError, Connection, Refused};

/// An accepted connection.
pub(super) type Stream = UnixStream;
/// The client side of a connection, from [`connect`].
pub type ClientStream = UnixStream;

/// How long the liveness probe of an existing socket may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

/// Why the socket could not be set up. Each says what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum BindError {
    #[error("socket path {0} has no parent directory")]
    NoParent(PathBuf),
    #[error("cannot create socket directory {path}: {source}")]
    CreateDir { path: PathBuf, source: io::Error },
    #[error("cannot inspect {path}: {source}")]
    Inspect { path: PathBuf, source: io::Error },
    #[error(
        "socket directory {path} is not a directory (a symbolic link is never followed); remove it or choose another --socket"
    )]
    NotADir { path: PathBuf },
    #[error(
        "socket directory {path} belongs to uid {owner}, not to this user (uid {uid}): another user created it, \
         possibly to intercept hook calls, so it is not used. Remove it (as its owner or root), or set \
         HOOKGATE_SOCKET (for the shims) and --socket to a path in a directory of yours; the shims refuse \
         it too and record their fallbacks in your state directory (`gateway status` shows them)"
    )]
    ForeignDir { path: PathBuf, owner: u32, uid: u32 },
    #[error(
        "socket directory {path} is open to other users (mode {mode:03o}); run `chmod 700 {path}` or choose another --socket"
    )]
    OpenDir { path: PathBuf, mode: u32 },
    #[error("another gateway is already listening on {0}; stop it first or use --socket")]
    AlreadyRunning(PathBuf),
    #[error("{0} exists and is not a socket; refusing to replace it")]
    NotASocket(PathBuf),
    #[error("cannot tell whether {path} is in use ({source}); remove it if no gateway runs")]
    Probe { path: PathBuf, source: io::Error },
    #[error("cannot remove stale socket {path}: {source}")]
    RemoveStale { path: PathBuf, source: io::Error },
    #[error("cannot listen on {path}: {source}")]
    Bind { path: PathBuf, source: io::Error },
    #[error(transparent)]
    Activation(#[from] ActivationError),
    #[error("the inherited socket {path} is not a socket of this user (uid {uid})")]
    ForeignSocket { path: PathBuf, uid: u32 },
}

/// A bound, listening socket. Dropping it removes the socket file, but
/// only if the file is still the one it created.
#[derive(Debug)]
pub struct Listener {
    inner: UnixListener,
    path: PathBuf,
    /// (device, inode) of the socket file we created.
    identity: (u64, u64),
    /// The user the directory belongs to and peers must run as.
    uid: u32,
    /// Whether this process created the socket file (and removes it): an
    /// inherited socket is its service manager's.
    owned: bool,
}

/// A peer turned away: who it runs as.
#[derive(Debug)]
pub struct Peer {
    pub uid: u32,
    pub pid: Option<i32>,
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "uid {}", self.uid)?;
        match self.pid {
            Some(pid) => write!(f, ", pid {pid}"),
            None => Ok(()),
        }
    }
}

impl Listener {
    /// Prepares the directory, clears a stale socket and listens on `path`
    /// with mode 0600, for this process's user.
    pub async fn bind(path: &Path) -> Result<Listener, BindError> {
        Listener::bind_as(path, current_uid()).await
    }

    /// [`Listener::bind`] for user `uid`: the directory must belong to it
    /// and only its peers are served.
    async fn bind_as(path: &Path, uid: u32) -> Result<Listener, BindError> {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .ok_or_else(|| BindError::NoParent(path.to_path_buf()))?;
        prepare_dir(dir, uid)?;
        clear_stale(path).await?;
        let inner = UnixListener::bind(path).map_err(|source| BindError::Bind {
            path: path.to_path_buf(),
            source,
        })?;
        // The directory is already private; this closes the window for
        // anyone who could still traverse it.
        let meta = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .and_then(|()| std::fs::symlink_metadata(path))
            .map_err(|source| BindError::Bind {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Listener {
            inner,
            path: path.to_path_buf(),
            identity: (meta.dev(), meta.ino()),
            uid,
            owned: true,
        })
    }

    /// The listening socket a service manager passed to this process
    /// (systemd socket activation), if any, held to the same rules as
    /// [`Listener::bind`]: its directory private and this user's, peers of
    /// this user only.
    pub fn inherited() -> Result<Option<Listener>, BindError> {
        let env = |name: &str| std::env::var(name).ok();
        let Some(fd) = activation::passed_fds(env, std::process::id())?.socket else {
            return Ok(None);
        };
        let (std, path) = activation::take(fd)?;
        let uid = current_uid();
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .ok_or_else(|| BindError::NoParent(path.clone()))?;
        prepare_dir(dir, uid)?;
        let meta = std::fs::symlink_metadata(&path).map_err(|source| BindError::Inspect {
            path: path.clone(),
            source,
        })?;
        if !meta.file_type().is_socket() || meta.uid() != uid {
            return Err(BindError::ForeignSocket { path, uid });
        }
        let inner = UnixListener::from_std(std).map_err(|source| BindError::Bind {
            path: path.clone(),
            source,
        })?;
        Ok(Some(Listener {
            inner,
            path,
            identity: (meta.dev(), meta.ino()),
            uid,
            owned: false,
        }))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next connection of a peer running as our user (`SO_PEERCRED`);
    /// others are closed and reported.
    pub async fn accept(&self) -> Result<Connection, AcceptError> {
        let (stream, _) = self.inner.accept().await.map_err(AcceptError::Io)?;
        match stream.peer_cred() {
            Ok(cred) if cred.uid() == self.uid => Ok(Connection::new(stream)),
            Ok(cred) => Err(AcceptError::Refused(Refused::ForeignPeer(Peer {
                uid: cred.uid(),
                pid: cred.pid(),
            }))),
            Err(err) => Err(AcceptError::Refused(Refused::NoPeerIdentity(err))),
        }
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let ours = self.owned
            && std::fs::symlink_metadata(&self.path)
                .is_ok_and(|m| m.file_type().is_socket() && (m.dev(), m.ino()) == self.identity);
        if !ours {
            return;
        }
        if let Err(err) = std::fs::remove_file(&self.path) {
            tracing::warn!(path = %self.path.display(), error = %err, "cannot remove socket file");
        }
    }
}

/// Connects to the socket at `path`. A missing socket is `NotFound`
/// ("no such socket").
pub async fn connect(path: &Path) -> io::Result<ClientStream> {
    UnixStream::connect(path).await.map_err(|err| {
        if err.kind() == io::ErrorKind::NotFound {
            io::Error::new(io::ErrorKind::NotFound, "no such socket")
        } else {
            err
        }
    })
}

/// Creates `dir` 0700 when missing; refuses one another user owns or one
/// group or others have any permission on: the socket must be private, not
/// merely 0600 (a writable directory lets others replace it). Checked at
/// startup only.
fn prepare_dir(dir: &Path, uid: u32) -> Result<(), BindError> {
    // `symlink_metadata`: a symlink at the directory's place is refused
    // (below), never followed into a place someone else chose.
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(|source| BindError::CreateDir {
                    path: dir.to_path_buf(),
                    source,
                })?;
            std::fs::symlink_metadata(dir).map_err(|source| BindError::Inspect {
                path: dir.to_path_buf(),
                source,
            })?
        }
        Err(source) => {
            return Err(BindError::Inspect {
                path: dir.to_path_buf(),
                source,
            });
        }
    };
    if !meta.is_dir() {
        return Err(BindError::NotADir {
            path: dir.to_path_buf(),
        });
    }
    if meta.uid() != uid {
        return Err(BindError::ForeignDir {
            path: dir.to_path_buf(),
            owner: meta.uid(),
            uid,
        });
    }
    if meta.mode() & 0o077 != 0 {
        return Err(BindError::OpenDir {
            path: dir.to_path_buf(),
            mode: meta.mode() & 0o777,
        });
    }
    Ok(())
}

/// Removes a socket file nobody answers on; refuses a live one or a file
/// that is not a socket.
async fn clear_stale(path: &Path) -> Result<(), BindError> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(BindError::Inspect {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    if !meta.file_type().is_socket() {
        return Err(BindError::NotASocket(path.to_path_buf()));
    }
    match tokio::time::timeout(PROBE_TIMEOUT, UnixStream::connect(path)).await {
        Ok(Ok(_live)) => Err(BindError::AlreadyRunning(path.to_path_buf())),
        Ok(Err(err)) if err.kind() == io::ErrorKind::ConnectionRefused => {
            tracing::info!(path = %path.display(), "removing stale socket");
            std::fs::remove_file(path).map_err(|source| BindError::RemoveStale {
                path: path.to_path_buf(),
                source,
            })
        }
        Ok(Err(source)) => Err(BindError::Probe {
            path: path.to_path_buf(),
            source,
        }),
        // Something holds the socket but does not accept: not ours to take.
        Err(_elapsed) => Err(BindError::AlreadyRunning(path.to_path_buf())),
    }
}

#[cfg(test)]
mod tests;
