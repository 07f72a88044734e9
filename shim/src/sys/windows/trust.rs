//! Whether the pipe's server runs as this user.
//!
//! The payload holds the user's code and the reply can allow anything, so
//! the shim must not talk to a pipe another user serves. The pipe namespace
//! is machine-wide: any user can create `\\.\pipe\hookgate-<user>\gateway`
//! while the gateway is down. The gateway's owner-only DACL protects its
//! own pipe from other users' clients, not the shim from another user's
//! server; so after connecting, the shim asks Windows which process serves
//! the pipe (`GetNamedPipeServerProcessId`) and compares the user in that
//! process's token with its own. A server it cannot check is refused
//! ("unreachable"), like a Unix socket it cannot `stat`.

use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle, OwnedHandle, RawHandle};
use std::ptr;

use windows_sys::Win32::Foundation::HANDLE;
use windows_sys::Win32::Security::{
    GetLengthSid, GetTokenInformation, IsValidSid, TOKEN_QUERY, TOKEN_USER, TokenUser,
};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, OpenProcess, OpenProcessToken, PROCESS_QUERY_LIMITED_INFORMATION,
};

/// Accepts the server process `pid` only if it runs as this process's user.
pub(super) fn check_server(pid: u32) -> Result<(), String> {
    // SAFETY: GetCurrentProcess has no preconditions; its pseudo handle
    // needs no closing and is valid for the whole life of the process.
    let own = user_of(unsafe { GetCurrentProcess() })
        .map_err(|err| format!("this process's user: {err}"))?;
    let process =
        open_process(pid).map_err(|err| format!("the pipe's server (process {pid}): {err}"))?;
    let server = user_of(process.as_raw_handle())
        .map_err(|err| format!("the pipe's server's user (process {pid}): {err}"))?;
    if server == own {
        Ok(())
    } else {
        Err(format!(
            "the pipe's server (process {pid}) runs as another user"
        ))
    }
}

/// `OpenProcess` with just enough access to open its token.
fn open_process(pid: u32) -> io::Result<OwnedHandle> {
    // SAFETY: OpenProcess has no preconditions.
    let handle = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
    if handle.is_null() {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a non-null result is a process handle nobody else owns.
    Ok(unsafe { OwnedHandle::from_raw_handle(handle) })
}

/// The user SID (as bytes, which compare as `EqualSid` does) of the
/// process behind `process`.
fn user_of(process: RawHandle) -> io::Result<Vec<u8>> {
    let mut token: HANDLE = ptr::null_mut();
    // SAFETY: `process` is a valid process handle; `token` is writable.
    if unsafe { OpenProcessToken(process, TOKEN_QUERY, &mut token) } == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the call succeeded, so `token` is a handle nobody else owns.
    let token = unsafe { OwnedHandle::from_raw_handle(token) };
    token_user(&token)
}

/// The user SID in `token`.
fn token_user(token: &OwnedHandle) -> io::Result<Vec<u8>> {
    let mut needed = 0u32;
    // SAFETY: a null buffer of length 0 only asks for the size; `needed`
    // is writable. The call "fails" with ERROR_INSUFFICIENT_BUFFER.
    unsafe {
        GetTokenInformation(
            token.as_raw_handle(),
            TokenUser,
            ptr::null_mut(),
            0,
            &mut needed,
        )
    };
    let size = usize::try_from(needed).unwrap_or(0);
    if size < size_of::<TOKEN_USER>() {
        return Err(io::Error::last_os_error());
    }
    // TOKEN_USER holds a pointer to the SID, which follows it in the same
    // buffer: u64s keep the buffer aligned for it.
    let mut buf = vec![0u64; size.div_ceil(size_of::<u64>())];
    // SAFETY: `buf` is writable for at least `needed` bytes and aligned for
    // a TOKEN_USER; `needed` is writable.
    let ok = unsafe {
        GetTokenInformation(
            token.as_raw_handle(),
            TokenUser,
            buf.as_mut_ptr().cast(),
            needed,
            &mut needed,
        )
    };
    if ok == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the call succeeded, so `buf` starts with a TOKEN_USER.
    let sid = unsafe { &*buf.as_ptr().cast::<TOKEN_USER>() }.User.Sid;
    // SAFETY: `sid` points into `buf`, which is alive; IsValidSid reads it
    // as a SID and checks its revision and sub-authority count.
    if unsafe { IsValidSid(sid) } == 0 {
        return Err(io::Error::other("the token holds an invalid user SID"));
    }
    // SAFETY: `sid` is a valid SID, which is GetLengthSid bytes long.
    let len = usize::try_from(unsafe { GetLengthSid(sid) }).unwrap_or(0);
    // SAFETY: those `len` bytes are inside `buf`, alive and initialized.
    Ok(unsafe { std::slice::from_raw_parts(sid.cast::<u8>(), len) }.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_its_own_user() {
        assert_eq!(check_server(std::process::id()), Ok(()));
        // SAFETY: as in check_server.
        let sid = user_of(unsafe { GetCurrentProcess() }).unwrap();
        // S-1-...: revision 1, then the sub-authority count.
        assert_eq!(sid[0], 1);
        assert_eq!(sid.len(), 8 + 4 * usize::from(sid[1]));
    }

    #[test]
    fn a_missing_process_is_refused() {
        // Process ids are multiples of 4 on Windows: this one never exists.
        let pid = u32::MAX - 2;
        let refused = check_server(pid).unwrap_err();
        // The server's process, not our own user lookup, is what failed.
        assert!(
            refused.starts_with(&format!("the pipe's server (process {pid})")),
            "{refused}"
        );
    }
}
