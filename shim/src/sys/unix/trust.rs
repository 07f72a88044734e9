//! Whether a socket path can only be this user's gateway.
//!
//! The payload holds the user's code and the reply can allow anything, so
//! the shim must not talk to a socket another user could have put there.
//! Unix sockets carry their owner on the file, so the check is on the path,
//! before connecting.

use alloc::format;
use alloc::string::String;

use super::stat;
use hookgate_wire::path;

/// Refuses a socket another user could have put there. The socket must be
/// owned by `uid`, and its directory must be owned by `uid` or root and not
/// writable by others (unless sticky, like /tmp), so nobody else can swap
/// it between this check and the connect.
pub(crate) fn check_socket(socket: &str, uid: u32) -> Result<(), String> {
    let meta = stat(socket).map_err(|err| format!("socket: {err}"))?;
    if !meta.is_socket() {
        return Err("the socket path is not a socket".into());
    }
    if meta.uid != uid {
        return Err(format!(
            "the socket is owned by uid {}, not {uid}",
            meta.uid
        ));
    }
    let dir = stat(path::parent(socket)).map_err(|err| format!("socket directory: {err}"))?;
    if dir_is_safe(dir.uid, dir.mode, uid) {
        Ok(())
    } else {
        Err("the socket directory is writable by other users".into())
    }
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
    fn checks_the_real_socket() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        let path_str = path.to_str().unwrap();
        assert!(check_socket(path_str, current_uid()).is_err(), "absent");

        let _listener = UnixListener::bind(&path).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(check_socket(path_str, current_uid()), Ok(()));
        assert!(check_socket(path_str, current_uid().wrapping_add(1)).is_err());

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
