//! Where a server listens: `host:port` or `unix:path` (relative to the
//! working directory, or `unix:///absolute`).

use std::io;
use std::path::{Path, PathBuf};

use crate::Error;

/// A bound listener.
#[derive(Debug)]
pub(crate) enum Listener {
    Tcp(tokio::net::TcpListener),
    #[cfg(unix)]
    Unix(tokio::net::UnixListener, PathBuf),
}

impl Listener {
    /// Binds `address`. A Unix socket file nothing listens on (a killed
    /// server's) is replaced; one a live server holds, or a path that is
    /// not a socket, is refused. The socket is made private (0600).
    pub(crate) async fn bind(address: &str) -> Result<Listener, Error> {
        let refused = |source: io::Error| Error::Listen {
            address: address.to_owned(),
            source,
        };
        if let Some(rest) = address.strip_prefix("unix:") {
            let path = rest.strip_prefix("//").unwrap_or(rest);
            return Listener::unix(Path::new(path)).map_err(refused);
        }
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(refused)?;
        Ok(Listener::Tcp(listener))
    }

    #[cfg(unix)]
    fn unix(path: &Path) -> io::Result<Listener> {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let path = std::path::absolute(path)?;
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if !meta.file_type().is_socket() => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    "the path exists and is not a socket",
                ));
            }
            Ok(_) => match std::os::unix::net::UnixStream::connect(&path) {
                Ok(_) => {
                    return Err(io::Error::new(
                        io::ErrorKind::AddrInUse,
                        "another server is listening there",
                    ));
                }
                Err(_) => std::fs::remove_file(&path)?,
            },
            Err(_) => {}
        }
        let listener = tokio::net::UnixListener::bind(&path)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        Ok(Listener::Unix(listener, path))
    }

    #[cfg(not(unix))]
    fn unix(_path: &Path) -> io::Result<Listener> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "Unix sockets are Unix-only: listen on host:port",
        ))
    }

    /// `127.0.0.1:41234` or `unix:/abs/path`.
    pub(crate) fn address(&self) -> String {
        match self {
            Listener::Tcp(l) => l
                .local_addr()
                .map_or_else(|_| "?".to_owned(), |a| a.to_string()),
            #[cfg(unix)]
            Listener::Unix(_, path) => format!("unix:{}", path.display()),
        }
    }

    /// The gateway config's `endpoint` for it.
    pub(crate) fn endpoint(&self, tls: bool) -> String {
        match self {
            Listener::Tcp(_) if tls => format!("https://{}", self.address()),
            Listener::Tcp(_) => format!("http://{}", self.address()),
            #[cfg(unix)]
            Listener::Unix(_, path) => format!("unix://{}", path.display()),
        }
    }

    /// The socket file to remove at a stop.
    pub(crate) fn socket_file(&self) -> Option<PathBuf> {
        match self {
            Listener::Tcp(_) => None,
            #[cfg(unix)]
            Listener::Unix(_, path) => Some(path.clone()),
        }
    }
}
