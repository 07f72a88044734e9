//! Whether a socket can only be this user's gateway.
//!
//! The payload holds the user's code and the reply can allow anything, so
//! the shim must not talk to a server another user runs. Two lines of
//! defence:
//!
//! 1. Before connecting, the path: the socket and its directory must be
//!    this user's, and a symlink on the way is followed only if this user
//!    (or root) owns it.
//! 2. After connecting, the server itself: the kernel's credentials of the
//!    process behind the connected socket (`SO_PEERCRED` on Linux,
//!    `getpeereid` elsewhere) must be this user's. This closes the race
//!    between the path check and the connect (an attacker who owns a
//!    component of the path can swap it in between): nothing is sent to a
//!    server that fails it.

use alloc::format;
use alloc::string::String;

use super::fs::Meta;
use super::{Errno, lstat, stat};
use hookgate_wire::path;

/// Why a socket path is not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Nothing is there (no gateway): the OS error.
    Absent(Errno),
    /// Something is there that another user could have put there.
    Untrusted(String),
}

/// Refuses a socket path another user could have put there. The socket
/// must be owned by `uid`, and its directory must be owned by `uid` or root
/// and not writable by others (unless sticky, like /tmp).
pub(crate) fn check_socket(socket: &str, uid: u32) -> Result<(), Refusal> {
    match lstat(socket) {
        Err(err) if err.0 == libc::ENOENT || err.0 == libc::ENOTDIR => {
            return Err(Refusal::Absent(err));
        }
        _ => {}
    }
    check_path(socket, uid).map_err(Refusal::Untrusted)
}

fn check_path(socket: &str, uid: u32) -> Result<(), String> {
    let meta = follow_trusted(socket, uid).map_err(|err| format!("socket: {err}"))?;
    if !meta.is_socket() {
        return Err("the socket path is not a socket".into());
    }
    if meta.uid != uid {
        return Err(format!(
            "the socket is owned by uid {}, not {uid}",
            meta.uid
        ));
    }
    let dir = follow_trusted(path::parent(socket), uid)
        .map_err(|err| format!("socket directory: {err}"))?;
    if dir_is_safe(dir.uid, dir.mode, uid) {
        Ok(())
    } else {
        Err("the socket directory is writable by other users".into())
    }
}

/// Refuses a connected server that runs as another user than `uid`.
pub(crate) fn check_peer(peer_uid: Result<u32, Errno>, uid: u32) -> Result<(), String> {
    match peer_uid {
        Ok(peer) if peer == uid => Ok(()),
        Ok(peer) => Err(format!(
            "the server behind the socket runs as uid {peer}, not {uid}"
        )),
        Err(err) => Err(format!("the server's credentials are unavailable: {err}")),
    }
}

/// The metadata of `path`, following a final symlink only if `uid` or root
/// owns it (a symlink someone else owns could point anywhere at any time).
fn follow_trusted(path: &str, uid: u32) -> Result<Meta, String> {
    let meta = lstat(path).map_err(|err| format!("{err}"))?;
    if !meta.is_symlink() {
        return Ok(meta);
    }
    if meta.uid != uid && meta.uid != 0 {
        return Err(format!("a symbolic link owned by uid {}", meta.uid));
    }
    stat(path).map_err(|err| format!("{err}"))
}

/// Whether only `uid` (or root) can replace entries of a directory.
fn dir_is_safe(owner: u32, mode: u32, uid: u32) -> bool {
    const OTHERS_WRITE: u32 = 0o022;
    const STICKY: u32 = 0o1000;
    (owner == uid || owner == 0) && (mode & OTHERS_WRITE == 0 || mode & STICKY != 0)
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::net::UnixListener;

    use super::*;
    use crate::sys::current_uid;

    #[test]
    fn directory_safety() {
        let cases: &[(u32, u32, bool)] = &[
            (1000, 0o700, true),
            (0, 0o755, true),
            (0, 0o1777, true),
            (1000, 0o770, false),
            (1000, 0o777, false),
            (1001, 0o700, false),
        ];
        for (owner, mode, safe) in cases {
            assert_eq!(dir_is_safe(*owner, *mode, 1000), *safe, "{owner} {mode:o}");
        }
    }

    #[test]
    fn peers_of_another_user_are_refused() {
        assert_eq!(check_peer(Ok(1000), 1000), Ok(()));
        assert!(check_peer(Ok(0), 1000).is_err());
        assert!(check_peer(Err(Errno(libc::ENOTCONN)), 1000).is_err());
    }

    #[test]
    fn checks_the_real_socket() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        let path_str = path.to_str().unwrap();
        assert!(check_socket(path_str, current_uid()).is_err(), "absent");

        assert!(matches!(
            check_socket(path_str, current_uid()),
            Err(Refusal::Absent(_))
        ));
        let _listener = UnixListener::bind(&path).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(check_socket(path_str, current_uid()), Ok(()));
        assert!(check_socket(path_str, current_uid().wrapping_add(1)).is_err());

        // A symlink this user owns is followed; the target is checked.
        let link = dir.path().join("link.sock");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert_eq!(check_socket(link.to_str().unwrap(), current_uid()), Ok(()));

        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        assert!(
            check_socket(path_str, current_uid()).is_err(),
            "world-writable dir"
        );

        let file = dir.path().join("plain");
        fs::write(&file, b"").unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert!(
            check_socket(file.to_str().unwrap(), current_uid()).is_err(),
            "not a socket"
        );
    }
}
