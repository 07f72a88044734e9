//! Opening a file so that nothing planted at its path can hang or
//! redirect the process: a FIFO would block `open` until a writer appears,
//! a symlink would send a write elsewhere. So every open is
//! `O_NONBLOCK | O_NOFOLLOW`, and the opened file must be a regular file
//! owned by this user (or, for files only read, root). `O_NONBLOCK` has no
//! effect on regular files, so reads and writes behave as usual.
//!
//! Here, below every crate that opens a file of the user's (the gateway's
//! transport and config, the rego bundle cache), because it knows no
//! async runtime: whose a file is belongs with who a process runs as.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

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
