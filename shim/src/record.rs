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
//! [`hookgate_wire::fallback_record`]: `<socket path>.fallbacks`
//! (`fallback_record::record_path`), one line `<unix_secs> <reason> <mode>\n` per
//! fallback (the mode says whether the agent was let through or blocked).
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

use alloc::format;
use alloc::string::String;

pub(crate) use hookgate_wire::fallback_record::{Mode, Reason};

#[cfg(unix)]
pub(crate) use file::{append, read_start_failure, write_start_failure};

/// Windows keeps no record (see "Not on Windows" above): nothing is
/// written.
#[cfg(windows)]
pub(crate) fn append(
    _socket: &str,
    _state_record: Option<&str>,
    _reason: Reason,
    _mode: Mode,
) -> bool {
    false
}

/// The message a fail-closed reply shows the user and model for `reason`.
/// Never contains payload content; for a failed autostart, `why` (the
/// start-failure record's reason, which may name the config file) is
/// added, so the user learns what to fix where they look.
pub(crate) fn message(reason: Reason, why: &str) -> String {
    match reason {
        Reason::AutostartFailed => format!(
            "hookgate blocked this: the hook gateway could not be started (fail-closed): {why}; check with `gateway doctor`"
        ),
        other => String::from(fixed_message(other)),
    }
}

fn fixed_message(reason: Reason) -> &'static str {
    match reason {
        Reason::AutostartFailed => {
            "hookgate blocked this: the hook gateway could not be started (fail-closed)"
        }
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
    use alloc::string::String;

    use hookgate_wire::fallback_record::{encode_line, record_path};
    use hookgate_wire::{path, start_record as start};

    use super::{Mode, Reason};
    use crate::sys::{self, File};

    /// The shim stops appending once the record is this large, so a gateway
    /// that is down for long (and never rotates) cannot fill the disk.
    pub(crate) const MAX_RECORD_BYTES: u64 = 1024 * 1024;

    /// Appends one line for `reason` to the record of the gateway at
    /// `socket` or, when that cannot be written (its directory is missing
    /// or not this user's: a squatted directory), to `state_record` in the
    /// user's state directory; or does nothing. Returns whether a line was
    /// written (for `HOOKGATE_DEBUG`).
    pub(crate) fn append(
        socket: &str,
        state_record: Option<&str>,
        reason: Reason,
        mode: Mode,
    ) -> bool {
        let line = encode_line(sys::unix_secs(), reason, mode);
        append_at(socket, state_record, &line, sys::current_uid())
    }

    /// [`append`] of `line` for the user `uid`.
    fn append_at(socket: &str, state_record: Option<&str>, line: &str, uid: u32) -> bool {
        let next_to_socket =
            record_path(socket).is_some_and(|path| try_append(&path, line, uid).unwrap_or(false));
        next_to_socket
            || state_record.is_some_and(|path| {
                // The state directory (`~/.local/state/hookgate`) may not
                // exist yet: create it and up to two missing parents, 0700.
                let dir = path::parent(path);
                let parents = [path::parent(path::parent(dir)), path::parent(dir), dir];
                for dir in parents {
                    let _ = sys::mkdir_private(dir);
                }
                try_append(path, line, uid).unwrap_or(false)
            })
    }

    /// The start-failure record of the gateway at `socket`
    /// (`hookgate_wire::start_record`) when written at or after `since` (Unix
    /// seconds; an older one is about an earlier start): its reason.
    pub(crate) fn read_start_failure(socket: &str, since: u64) -> Option<String> {
        let path = start::record_path(socket)?;
        let file = File::open_read(&path).ok()?;
        let meta = file.meta().ok()?;
        if !meta.is_file() || meta.uid != sys::current_uid() {
            return None;
        }
        let bytes = file.read_up_to(start::MAX_RECORD).ok()?;
        let text = core::str::from_utf8(&bytes).ok()?;
        let failure = start::parse(text)?;
        (failure.unix_secs >= since).then(|| String::from(failure.reason))
    }

    /// Replaces the start-failure record of the gateway at `socket` with
    /// `reason`, if the socket's directory is this user's; errors are
    /// ignored (the reply does not depend on it).
    pub(crate) fn write_start_failure(socket: &str, reason: &str) {
        let Some(path) = start::record_path(socket) else {
            return;
        };
        let uid = sys::current_uid();
        if !sys::lstat(path::parent(&path)).is_ok_and(|dir| dir.is_dir() && dir.uid == uid) {
            return;
        }
        let Ok(file) = File::open_replace(&path) else {
            return;
        };
        if !file
            .meta()
            .is_ok_and(|meta| meta.is_file() && meta.uid == uid)
        {
            return;
        }
        let text = start::encode(sys::unix_secs(), reason);
        let _ = file
            .truncate(0)
            .and_then(|()| file.write_all(text.as_bytes()));
    }

    /// Appends the line to the record at `path` if its directory and the
    /// file are this user's (`uid`).
    fn try_append(path: &str, line: &str, uid: u32) -> Result<bool, sys::Errno> {
        let dir = sys::lstat(path::parent(path))?;
        if !dir.is_dir() || dir.uid != uid {
            return Ok(false);
        }
        let file = File::open_append(path)?;
        let meta = file.meta()?;
        if !meta.is_file() || meta.uid != uid || meta.size > MAX_RECORD_BYTES {
            return Ok(false);
        }
        file.write_all(line.as_bytes())?;
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

        fn line(secs: u64, reason: Reason) -> String {
            encode_line(secs, reason, Mode::Open)
        }

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
                &line(1700000000, Reason::Timeout),
                current_uid()
            ));
            assert!(append_at(
                &socket,
                None,
                &line(1700000001, Reason::Unreachable),
                current_uid()
            ));
            let path = record_path(&socket).unwrap();
            let text = fs::read_to_string(&path).unwrap();
            assert_eq!(
                text,
                "1700000000 timeout open\n1700000001 unreachable open\n"
            );
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
                &line(1, Reason::Timeout),
                current_uid()
            ));

            let socket = socket_in(&dir);
            let other_uid = current_uid().wrapping_add(1);
            assert!(!append_at(
                &socket,
                None,
                &line(1, Reason::Timeout),
                other_uid
            ));
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
                &line(1, Reason::Untrusted),
                current_uid()
            ));
            assert!(append_at(
                socket,
                Some(record),
                &line(7, Reason::Untrusted),
                current_uid()
            ));
            assert_eq!(fs::read_to_string(record).unwrap(), "7 untrusted open\n");
            let mode = fs::metadata(&state).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "created private");
            // Another user's state directory is never written.
            let other_uid = current_uid().wrapping_add(1);
            assert!(!append_at(
                socket,
                Some(record),
                &line(8, Reason::Busy),
                other_uid
            ));
        }

        #[test]
        fn stops_at_the_size_cap() {
            let dir = tempfile::tempdir().unwrap();
            let socket = socket_in(&dir);
            let path = record_path(&socket).unwrap();
            fs::write(&path, vec![b'x'; MAX_RECORD_BYTES as usize + 1]).unwrap();
            assert!(!append_at(
                &socket,
                None,
                &line(1, Reason::Timeout),
                current_uid()
            ));
            assert_eq!(fs::metadata(&path).unwrap().len(), MAX_RECORD_BYTES + 1);
        }

        #[test]
        fn the_start_failure_is_written_and_read_back_when_recent() {
            let dir = tempfile::tempdir().unwrap();
            let socket = socket_in(&dir);
            assert_eq!(read_start_failure(&socket, 0), None);
            write_start_failure(&socket, "invalid config at /c.toml:1:14\nexpected");
            let now = sys::unix_secs();
            assert_eq!(
                read_start_failure(&socket, now.saturating_sub(5)).as_deref(),
                Some("invalid config at /c.toml:1:14 expected")
            );
            assert_eq!(read_start_failure(&socket, now + 5), None, "stale");
            write_start_failure(&socket, "short");
            assert_eq!(read_start_failure(&socket, 0).as_deref(), Some("short"));
        }

        #[test]
        fn never_follows_a_symlink() {
            let dir = tempfile::tempdir().unwrap();
            let socket = socket_in(&dir);
            let target = dir.path().join("target");
            fs::write(&target, b"").unwrap();
            std::os::unix::fs::symlink(&target, record_path(&socket).unwrap()).unwrap();
            assert!(!append_at(
                &socket,
                None,
                &line(1, Reason::Timeout),
                current_uid()
            ));
            assert_eq!(fs::read(&target).unwrap(), b"");
        }
    }
}
