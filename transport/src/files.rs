//! Where the files the gateway keeps for its socket (the HTTP token, the
//! counts) live; and, re-exported from `hookgate-identity`, how every
//! file it reads and writes (its config, the audit log, the shims'
//! fallback record) is opened: nothing planted at a path can hang or
//! redirect it.

use std::path::{Path, PathBuf};

pub use hookgate_identity::files::{Access, open, read_to_string};

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
