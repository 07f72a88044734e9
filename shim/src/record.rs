//! Why the shim answered on its own, and the record it leaves of it.
//!
//! A fallback is silent for the agent (fail-open replies are neutral), so
//! without a trace a dead gateway would look exactly like a permissive one.
//! The shim cannot tell the gateway (it is unreachable, that is the point),
//! so it appends to a file next to the socket instead.
//!
//! # The fallback record
//!
//! Path and line format are the contract with the gateway and live in
//! [`hookgate_wire::fallback`]: `<socket path>.fallbacks`
//! (`fallback::record_path`), one line `<unix_secs> <reason>\n` per
//! fallback.
//!
//! Safety and bounds: the line is written only if the socket's directory
//! exists and is owned by the current user; the file is opened
//! `O_APPEND|O_CREAT|O_NOFOLLOW|O_NONBLOCK`, mode 0600, and the line is
//! skipped if the file is not a regular file owned by the user or is already
//! over 1 MiB. Each line is one `write` on an `O_APPEND` file, so concurrent
//! shims do not interleave. Every error is ignored: the record must never
//! fail a hook. The gateway reads it for `gateway status` and rotates it
//! (renames or truncates it); the shim never does.
//!
//! # Not on Windows
//!
//! There the gateway listens on a named pipe, and a pipe name plus a suffix
//! is another pipe name, not a file (`fallback::record_path` says `None`).
//! So the Windows shim writes none (and the Windows gateway finds none);
//! its fallbacks show only in the agent's replies and, with
//! `HOOKGATE_DEBUG=1`, on stderr.

pub(crate) use hookgate_wire::fallback::Reason;

#[cfg(unix)]
pub(crate) use file::append;

/// Windows keeps no record (see "Not on Windows" above): nothing is
/// written.
#[cfg(windows)]
pub(crate) fn append(_socket: &str, _state_record: Option<&str>, _reason: Reason) -> bool {
    false
}

/// The message a fail-closed reply shows the user and model for `reason`.
/// Never contains payload content or paths.
pub(crate) fn message(reason: Reason) -> &'static str {
    match reason {
        Reason::Unreachable => {
            "hookgate blocked this: the hook gateway is not reachable (fail-closed); start it with `gateway serve`, check with `gateway doctor`"
        }
        Reason::Untrusted => {
            "hookgate blocked this: the hook socket or the server behind it belongs to another user (fail-closed); run `gateway status` to see why"
        }
        Reason::Busy => {
            "hookgate blocked this: the hook gateway is overloaded (fail-closed); check with `gateway doctor`"
        }
        Reason::Timeout => {
            "hookgate blocked this: the hook gateway did not answer in time (fail-closed); check with `gateway doctor`"
        }
        Reason::BadReply => {
            "hookgate blocked this: the hook gateway sent an invalid reply (fail-closed); check with `gateway doctor`"
        }
        Reason::Oversize => {
            "hookgate blocked this: the hook payload is larger than 8 MiB (fail-closed)"
        }
        Reason::Usage => "hookgate blocked this: gateway-shim has invalid arguments (fail-closed)",
    }
}

/// The record file next to the socket (Unix only).
#[cfg(unix)]
mod file {
    use hookgate_wire::fallback::{encode_line, record_path};
    use hookgate_wire::path;

    use super::Reason;
    use crate::sys::{self, File};

    /// The shim stops appending once the record is this large, so a gateway
    /// that is down for long (and never rotates) cannot fill the disk.
    pub(crate) const MAX_RECORD_BYTES: u64 = 1024 * 1024;

    /// Appends one line for `reason` to the record of the gateway at
    /// `socket` or, when that cannot be written (its directory is missing
    /// or not this user's: a squatted directory), to `state_record` in the
    /// user's state directory; or does nothing. Returns whether a line was
    /// written (for `HOOKGATE_DEBUG`).
    pub(crate) fn append(socket: &str, state_record: Option<&str>, reason: Reason) -> bool {
        let (now, uid) = (sys::unix_secs(), sys::current_uid());
        append_at(socket, state_record, reason, now, uid)
    }

    /// [`append`] for the user `uid` at `now` (Unix seconds).
    fn append_at(
        socket: &str,
        state_record: Option<&str>,
        reason: Reason,
        now: u64,
        uid: u32,
    ) -> bool {
        let next_to_socket = record_path(socket)
            .is_some_and(|path| try_append(&path, reason, now, uid).unwrap_or(false));
        next_to_socket
            || state_record.is_some_and(|path| {
                // The state directory (`~/.local/state/hookgate`) may not
                // exist yet: create it and up to two missing parents, 0700.
                let dir = path::parent(path);
                let parents = [path::parent(path::parent(dir)), path::parent(dir), dir];
                for dir in parents {
                    let _ = sys::mkdir_private(dir);
                }
                try_append(path, reason, now, uid).unwrap_or(false)
            })
    }

    /// Appends the line to the record at `path` if its directory and the
    /// file are this user's (`uid`).
    fn try_append(
        path: &str,
        reason: Reason,
        unix_secs: u64,
        uid: u32,
    ) -> Result<bool, sys::Errno> {
        let dir = sys::lstat(path::parent(path))?;
        if !dir.is_dir() || dir.uid != uid {
            return Ok(false);
        }
        let file = File::open_append(path)?;
        let meta = file.meta()?;
        if !meta.is_file() || meta.uid != uid || meta.size > MAX_RECORD_BYTES {
            return Ok(false);
        }
        file.write_all(encode_line(unix_secs, reason).as_bytes())?;
        Ok(true)
    }

    #[cfg(test)]
    mod tests {
        use std::fs;
        use std::os::unix::fs::PermissionsExt;

        use alloc::borrow::ToOwned;
        use alloc::string::String;

        use super::*;
        use crate::sys::current_uid;

        /// A socket path in a fresh private directory.
        fn socket_in(dir: &tempfile::TempDir) -> String {
            dir.path().join("gateway.sock").to_str().unwrap().to_owned()
        }

        #[test]
        fn appends_lines_private_to_the_user() {
            let dir = tempfile::tempdir().unwrap();
            let socket = socket_in(&dir);
            assert!(append_at(
                &socket,
                None,
                Reason::Timeout,
                1700000000,
                current_uid()
            ));
            assert!(append_at(
                &socket,
                None,
                Reason::Unreachable,
                1700000001,
                current_uid()
            ));
            let path = record_path(&socket).unwrap();
            let text = fs::read_to_string(&path).unwrap();
            assert_eq!(text, "1700000000 timeout\n1700000001 unreachable\n");
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }

        #[test]
        fn skips_missing_or_foreign_directories() {
            let dir = tempfile::tempdir().unwrap();
            let missing = dir.path().join("absent").join("gateway.sock");
            assert!(!append_at(
                missing.to_str().unwrap(),
                None,
                Reason::Timeout,
                1,
                current_uid()
            ));

            let socket = socket_in(&dir);
            let other_uid = current_uid().wrapping_add(1);
            assert!(!append_at(&socket, None, Reason::Timeout, 1, other_uid));
            assert!(!fs::exists(record_path(&socket).unwrap()).unwrap());
        }

        #[test]
        fn a_missing_socket_directory_records_in_the_state_directory() {
            let dir = tempfile::tempdir().unwrap();
            let socket = dir.path().join("absent").join("gateway.sock");
            let socket = socket.to_str().unwrap();
            // As `~/.local/state/hookgate` in a home without `.local`.
            let state = dir.path().join(".local").join("state").join("hookgate");
            let record = state.join("shim-fallbacks");
            let record = record.to_str().unwrap();
            assert!(!append_at(
                socket,
                None,
                Reason::Untrusted,
                1,
                current_uid()
            ));
            assert!(append_at(
                socket,
                Some(record),
                Reason::Untrusted,
                7,
                current_uid()
            ));
            assert_eq!(fs::read_to_string(record).unwrap(), "7 untrusted\n");
            let mode = fs::metadata(&state).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "created private");
            // Another user's state directory is never written.
            let other_uid = current_uid().wrapping_add(1);
            assert!(!append_at(socket, Some(record), Reason::Busy, 8, other_uid));
        }

        #[test]
        fn stops_at_the_size_cap() {
            let dir = tempfile::tempdir().unwrap();
            let socket = socket_in(&dir);
            let path = record_path(&socket).unwrap();
            fs::write(&path, vec![b'x'; MAX_RECORD_BYTES as usize + 1]).unwrap();
            assert!(!append_at(&socket, None, Reason::Timeout, 1, current_uid()));
            assert_eq!(fs::metadata(&path).unwrap().len(), MAX_RECORD_BYTES + 1);
        }

        #[test]
        fn never_follows_a_symlink() {
            let dir = tempfile::tempdir().unwrap();
            let socket = socket_in(&dir);
            let target = dir.path().join("target");
            fs::write(&target, b"").unwrap();
            std::os::unix::fs::symlink(&target, record_path(&socket).unwrap()).unwrap();
            assert!(!append_at(&socket, None, Reason::Timeout, 1, current_uid()));
            assert_eq!(fs::read(&target).unwrap(), b"");
        }
    }
}
