//! A Windows user SID, read from a process token: the `unsafe` calls
//! behind it, each block saying why it is sound. Handles are owned by
//! `OwnedHandle` (closed on every path), the `TOKEN_USER` by a `Vec`, and
//! what Windows allocates for the string form is copied and freed before
//! the call returns.

#![allow(unsafe_code)]

use std::ffi::c_void;
use std::fmt;
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle as _, OwnedHandle};
use std::ptr;

use windows_sys::Win32::Foundation::{HANDLE, LocalFree};
use windows_sys::Win32::Security::Authorization::ConvertSidToStringSidW;
use windows_sys::Win32::Security::{
    EqualSid, GetTokenInformation, IsValidSid, TOKEN_QUERY, TOKEN_USER, TokenUser,
};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, OpenProcess, OpenProcessToken, PROCESS_QUERY_LIMITED_INFORMATION,
};

/// A `TOKEN_USER` larger than this is not a real one (a SID is at most 68
/// bytes).
const MAX_TOKEN_USER: u32 = 1024;

/// A user's SID: the `TOKEN_USER` of a process token, owned. Stored as
/// `u64`s so the structure's pointer field is aligned.
pub struct UserSid {
    token_user: Vec<u64>,
}

impl UserSid {
    /// The user this process runs as.
    pub fn current() -> io::Result<UserSid> {
        // SAFETY: GetCurrentProcess returns a pseudo handle that needs no
        // closing and is valid for the life of the process.
        let process = unsafe { GetCurrentProcess() };
        token_user(process)
    }

    /// The user process `pid` runs as.
    pub fn of_process(pid: u32) -> io::Result<UserSid> {
        // SAFETY: plain call; a null result is an error, anything else a
        // process handle we own from here on.
        let process = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
        if process.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a valid handle just opened and owned by nobody else.
        let process = unsafe { OwnedHandle::from_raw_handle(process) };
        token_user(process.as_raw_handle())
    }

    /// The SID inside the `TOKEN_USER`.
    fn sid(&self) -> *mut c_void {
        // SAFETY: `token_user` holds a `TOKEN_USER` written by
        // GetTokenInformation (checked in `token_user`), 8-byte aligned;
        // its `Sid` points into the same buffer, which `self` keeps alive.
        unsafe { (*self.token_user.as_ptr().cast::<TOKEN_USER>()).User.Sid }
    }
}

impl PartialEq for UserSid {
    fn eq(&self, other: &UserSid) -> bool {
        // SAFETY: both SIDs are valid (checked with IsValidSid when read)
        // and alive for the call.
        unsafe { EqualSid(self.sid(), other.sid()) != 0 }
    }
}

impl fmt::Display for UserSid {
    /// The SID's string form, `S-1-5-21-...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut wide: *mut u16 = ptr::null_mut();
        // SAFETY: a valid SID in; on success `wide` is a NUL-terminated
        // string allocated with LocalAlloc, read once and freed below.
        if unsafe { ConvertSidToStringSidW(self.sid(), &mut wide) } == 0 || wide.is_null() {
            return f.write_str("<unprintable SID>");
        }
        // SAFETY: NUL-terminated, so the scan stops inside the allocation.
        let text = unsafe {
            let len = (0..).take_while(|&i| *wide.add(i) != 0).count();
            String::from_utf16_lossy(std::slice::from_raw_parts(wide, len))
        };
        // SAFETY: allocated by ConvertSidToStringSidW, freed once.
        unsafe { LocalFree(wide.cast()) };
        f.write_str(&text)
    }
}

impl fmt::Debug for UserSid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UserSid({self})")
    }
}

/// The `TOKEN_USER` of `process`'s token.
fn token_user(process: HANDLE) -> io::Result<UserSid> {
    let mut token: HANDLE = ptr::null_mut();
    // SAFETY: `process` is a valid process handle for the call; on success
    // `token` is a handle we own.
    if unsafe { OpenProcessToken(process, TOKEN_QUERY, &mut token) } == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a valid handle just opened and owned by nobody else.
    let token = unsafe { OwnedHandle::from_raw_handle(token) };
    let mut needed = 0u32;
    // SAFETY: a size query: null buffer of length 0, `needed` written.
    unsafe {
        GetTokenInformation(
            token.as_raw_handle(),
            TokenUser,
            ptr::null_mut(),
            0,
            &mut needed,
        )
    };
    if needed == 0 || needed > MAX_TOKEN_USER {
        return Err(io::Error::other(format!(
            "unexpected TOKEN_USER size {needed}"
        )));
    }
    let mut token_user = vec![0u64; (needed as usize).div_ceil(8)];
    // SAFETY: the buffer holds at least `needed` bytes, as announced.
    let ok = unsafe {
        GetTokenInformation(
            token.as_raw_handle(),
            TokenUser,
            token_user.as_mut_ptr().cast(),
            needed,
            &mut needed,
        )
    };
    if ok == 0 {
        return Err(io::Error::last_os_error());
    }
    let user = UserSid { token_user };
    // SAFETY: the SID pointer was just written by GetTokenInformation.
    if unsafe { IsValidSid(user.sid()) } == 0 {
        return Err(io::Error::other("the token's user SID is invalid"));
    }
    Ok(user)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_user_is_a_sid() {
        let us = UserSid::current().unwrap();
        assert_eq!(UserSid::of_process(std::process::id()).unwrap(), us);
        assert!(us.to_string().starts_with("S-1-"), "{us}");
    }

    #[test]
    fn a_missing_process_has_no_user() {
        // Process ids are multiples of 4 on Windows: this one never exists.
        assert!(UserSid::of_process(u32::MAX - 2).is_err());
    }
}
