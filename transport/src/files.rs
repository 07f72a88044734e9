//! Opening the files the gateway reads and writes (its config, the audit
//! log, the shims' fallback record) so that nothing planted at their path
//! can hang or redirect it; and where the files it keeps for its socket
//! (the HTTP token, the counts) live.
//!
//! A FIFO at a path the gateway opens for reading would block `open` until
//! a writer appears (on the runtime: no event is served, no signal is
//! handled); a symlink would send the audit log elsewhere. So every open is
//! `O_NONBLOCK | O_NOFOLLOW`, and the opened file must be a regular file
//! owned by this user (or, for files only read, root). `O_NONBLOCK` has no
//! effect on regular files, so reads and writes behave as usual.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// How a file is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read; the file may also belong to root (a system-wide config).
    Read,
    /// Append, creating it 0600.
    Append,
    /// Write from the start, creating it 0600 (the caller truncates after
    /// the checks, so a file that is not ours is never emptied).
    Write,
}

/// Opens `path` for `access`, refusing anything but a regular file of
/// this user's.
#[expect(
    clippy::disallowed_methods,
    reason = "callers run it on the blocking pool (the audit writer, status's fallback count) or in a CLI command"
)]
pub fn open(path: &Path, access: Access) -> io::Result<File> {
    let mut options = OpenOptions::new();
    match access {
        Access::Read => options.read(true),
        Access::Append => options.create(true).append(true),
        Access::Write => options.create(true).write(true),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .mode(0o600);
    }
    let file = options.open(path)?;
    check(&file, access)?;
    Ok(file)
}

#[cfg(unix)]
fn check(file: &File, access: Access) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, device or directory is never used)",
        ));
    }
    let uid = hookgate_wire::socket::current_uid();
    let owner_ok = meta.uid() == uid || (access == Access::Read && meta.uid() == 0);
    if !owner_ok {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("owned by uid {}, not by this user (uid {uid})", meta.uid()),
        ));
    }
    Ok(())
}

#[cfg(windows)]
fn check(file: &File, _access: Access) -> io::Result<()> {
    if file.metadata()?.is_file() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ))
    }
}

/// Reads all of `path` (a regular file, see [`open`]), at most `max` bytes.
pub fn read_to_string(path: &Path, max: u64) -> io::Result<String> {
    use std::io::Read as _;
    let mut text = String::new();
    open(path, Access::Read)?
        .take(max)
        .read_to_string(&mut text)?;
    Ok(text)
}

/// Where the gateway keeps files that belong to its socket and must last
/// (the HTTP hook token, the counts): next to the socket (its directory is
/// private), except when that directory is under `runtime`
/// (`$XDG_RUNTIME_DIR`, emptied at logout and on reboot), then `state`.
/// `None` for a socket path with no directory.
pub fn kept_dir_in(
    socket: &Path,
    runtime: Option<&Path>,
    state: Option<PathBuf>,
) -> Option<PathBuf> {
    let dir = socket.parent()?;
    match (runtime, state) {
        (Some(runtime), Some(state)) if dir.starts_with(runtime) => Some(state),
        _ => Some(dir.to_path_buf()),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn fifos_symlinks_and_directories_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let regular = dir.path().join("file");
        std::fs::write(&regular, "x = 1").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&regular, &link).unwrap();

        for access in [Access::Read, Access::Append, Access::Write] {
            assert!(open(&fifo, access).is_err(), "FIFO, {access:?}");
            assert!(open(&link, access).is_err(), "symlink, {access:?}");
            assert!(open(dir.path(), access).is_err(), "directory, {access:?}");
            assert!(open(&regular, access).is_ok(), "{access:?}");
        }
        assert_eq!(read_to_string(&regular, 3).unwrap(), "x =");
    }
}
