//! Why the last start of a gateway for a socket failed (the record of
//! `hookgate_wire::start_record`): written when `gateway serve` stops before it
//! serves, removed once it serves, read by `gateway status` and `gateway
//! doctor`. The shim writes the same record when autostart cannot run the
//! gateway at all, and shows its reason in a fail-closed reply.
//!
//! Every access goes through [`hookgate_transport::files`] (no symlink, no FIFO, this
//! user's regular file only) and only in a socket directory of this
//! user's; a record that cannot be written is logged and skipped: the
//! gateway's own exit status and log still say why.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use hookgate_wire::start_record as start;

use hookgate_transport::files::{self, Access};

/// Where the record of the gateway at `socket` lives (`None`: a named
/// pipe, or a path that is not UTF-8).
pub fn record_path(socket: &Path) -> Option<PathBuf> {
    socket
        .to_str()
        .and_then(start::record_path)
        .map(PathBuf::from)
}

/// A failure as read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// When it happened (Unix seconds).
    pub unix_secs: u64,
    pub reason: String,
}

impl Failure {
    /// How long ago it happened: `12s ago` (`just now` for a clock that
    /// went back).
    pub fn ago(&self) -> String {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        match now.checked_sub(self.unix_secs) {
            Some(secs) if secs > 0 => format!("{secs}s ago"),
            _ => "just now".to_owned(),
        }
    }
}

/// Records that the gateway for `socket` could not start, and why.
pub fn write(socket: &Path, reason: &str) {
    let Some(path) = record_path(socket) else {
        return;
    };
    if !directory_is_ours(&path) {
        return;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let written = files::open(&path, Access::Write).and_then(|mut file| {
        file.set_len(0)?;
        file.write_all(start::encode(now, reason).as_bytes())
    });
    if let Err(err) = written {
        tracing::warn!(record = %path.display(), error = %err, "cannot record why the gateway did not start");
    }
}

/// Removes the record: the gateway for `socket` serves.
pub fn clear(socket: &Path) {
    if let Some(path) = record_path(socket) {
        match std::fs::remove_file(&path) {
            Ok(()) => {
                tracing::info!(record = %path.display(), "removed the record of a failed start")
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => {
                tracing::warn!(record = %path.display(), error = %err, "cannot remove the record of a failed start")
            }
        }
    }
}

/// The record of `socket`, if there is a readable one.
pub fn read(socket: &Path) -> Option<Failure> {
    let path = record_path(socket)?;
    let text = files::read_to_string(&path, start::MAX_RECORD as u64).ok()?;
    let failure = start::parse(&text)?;
    Some(Failure {
        unix_secs: failure.unix_secs,
        reason: failure.reason.to_owned(),
    })
}

/// Whether `path`'s directory exists and belongs to this user.
#[cfg(unix)]
fn directory_is_ours(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    path.parent()
        .and_then(|dir| std::fs::symlink_metadata(dir).ok())
        .is_some_and(|meta| meta.is_dir() && meta.uid() == hookgate_wire::socket::current_uid())
}

#[cfg(not(unix))]
fn directory_is_ours(_path: &Path) -> bool {
    false
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn written_read_and_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("gateway.sock");
        assert_eq!(read(&socket), None);
        write(&socket, "invalid config at /c.toml:1:14: expected `=`");
        let failure = read(&socket).unwrap();
        assert_eq!(
            failure.reason,
            "invalid config at /c.toml:1:14: expected `=`"
        );
        assert!(failure.unix_secs > 1_600_000_000);
        write(&socket, "short");
        assert_eq!(read(&socket).unwrap().reason, "short");
        clear(&socket);
        assert_eq!(read(&socket), None);
        assert!(!dir.path().join("gateway.sock.start-failed").exists());
        // A missing directory is no error, and nothing is created.
        let missing = dir.path().join("absent/gateway.sock");
        write(&missing, "x");
        assert!(!dir.path().join("absent").exists());
    }
}
