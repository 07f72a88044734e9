//! The Win32 calls behind the named pipe's security: user SIDs of
//! processes, the owner-only security descriptor, the process ids at the
//! two ends of a pipe. The gateway's only `unsafe` code; each block says
//! why it is sound.
//!
//! Handles are owned by `OwnedHandle` (closed on every path), buffers by
//! `Vec`, and what Windows allocates with `LocalAlloc` is copied and freed
//! before the function returns, so nothing here outlives a call unowned.

#![allow(unsafe_code)]

use std::ffi::c_void;
use std::fmt;
use std::io;
use std::os::windows::io::{AsRawHandle, FromRawHandle as _, OwnedHandle};
use std::path::Path;
use std::ptr;

use tokio::net::windows::named_pipe::{NamedPipeServer, ServerOptions};
use windows_sys::Win32::Foundation::{HANDLE, LocalFree};
use windows_sys::Win32::Security::Authorization::{
    ConvertSidToStringSidW, ConvertStringSecurityDescriptorToSecurityDescriptorW, SDDL_REVISION_1,
};
use windows_sys::Win32::Security::{
    EqualSid, GetSecurityDescriptorLength, GetTokenInformation, IsValidSid, PSECURITY_DESCRIPTOR,
    SECURITY_ATTRIBUTES, TOKEN_QUERY, TOKEN_USER, TokenUser,
};
use windows_sys::Win32::System::Pipes::{GetNamedPipeClientProcessId, GetNamedPipeServerProcessId};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, OpenProcess, OpenProcessToken, PROCESS_QUERY_LIMITED_INFORMATION,
};

/// A `TOKEN_USER` larger than this is not a real one (a SID is at most 68
/// bytes).
const MAX_TOKEN_USER: u32 = 1024;

/// A user's SID: the `TOKEN_USER` of a process token, owned. Stored as
/// `u64`s so the structure's pointer field is aligned.
pub(super) struct UserSid {
    token_user: Vec<u64>,
}

impl UserSid {
    /// The user this process runs as.
    pub(super) fn current() -> io::Result<UserSid> {
        // SAFETY: GetCurrentProcess returns a pseudo handle that needs no
        // closing and is valid for the life of the process.
        let process = unsafe { GetCurrentProcess() };
        token_user(process)
    }

    /// The user process `pid` runs as.
    pub(super) fn of_process(pid: u32) -> io::Result<UserSid> {
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

/// A security descriptor whose DACL grants one user full access and
/// nobody else anything, protected from inherited entries:
/// `D:P(A;;GA;;;<SID>)`. Kept in self-relative form, which is
/// position-independent, so a plain byte copy of it stays valid.
pub(super) struct OwnerOnly {
    descriptor: Vec<u64>,
}

impl OwnerOnly {
    pub(super) fn new(user: &UserSid) -> io::Result<OwnerOnly> {
        let sddl = format!("D:P(A;;GA;;;{user})");
        let wide: Vec<u16> = sddl.encode_utf16().chain(Some(0)).collect();
        let mut sd: PSECURITY_DESCRIPTOR = ptr::null_mut();
        // SAFETY: a NUL-terminated string in; on success `sd` is a
        // self-relative descriptor allocated with LocalAlloc, copied and
        // freed below.
        let ok = unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                wide.as_ptr(),
                SDDL_REVISION_1,
                &mut sd,
                ptr::null_mut(),
            )
        };
        if ok == 0 || sd.is_null() {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `sd` is the valid descriptor just returned.
        let len = unsafe { GetSecurityDescriptorLength(sd) } as usize;
        let mut descriptor = vec![0u64; len.div_ceil(8)];
        // SAFETY: `sd` holds `len` bytes, `descriptor` at least as many;
        // the two do not overlap. Then `sd` is freed, once.
        unsafe {
            ptr::copy_nonoverlapping(sd.cast::<u8>(), descriptor.as_mut_ptr().cast::<u8>(), len);
            LocalFree(sd);
        }
        Ok(OwnerOnly { descriptor })
    }

    /// Creates an instance of pipe `path` with this descriptor; the first
    /// instance of the name only when `first` (else it fails). Duplex,
    /// byte mode, local clients only.
    pub(super) fn create_pipe(&self, path: &Path, first: bool) -> io::Result<NamedPipeServer> {
        let mut attributes = SECURITY_ATTRIBUTES {
            nLength: size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: self.descriptor.as_ptr().cast_mut().cast(),
            bInheritHandle: 0,
        };
        let mut options = ServerOptions::new();
        options
            .first_pipe_instance(first)
            .reject_remote_clients(true);
        // SAFETY: `attributes` is a valid SECURITY_ATTRIBUTES whose
        // descriptor (a self-relative one, see `new`) outlives the call;
        // CreateNamedPipeW copies it into the pipe and only reads it.
        unsafe {
            options.create_with_security_attributes_raw(path, ptr::from_mut(&mut attributes).cast())
        }
    }
}

impl fmt::Debug for OwnerOnly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OwnerOnly")
    }
}

/// The process id of the client connected to `pipe`.
pub(super) fn client_pid(pipe: &impl AsRawHandle) -> io::Result<u32> {
    let mut pid = 0u32;
    // SAFETY: a valid pipe handle, borrowed for the call; `pid` written.
    if unsafe { GetNamedPipeClientProcessId(pipe.as_raw_handle(), &mut pid) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(pid)
}

/// The process id of the server `pipe` is connected to.
pub(super) fn server_pid(pipe: &impl AsRawHandle) -> io::Result<u32> {
    let mut pid = 0u32;
    // SAFETY: a valid pipe handle, borrowed for the call; `pid` written.
    if unsafe { GetNamedPipeServerProcessId(pipe.as_raw_handle(), &mut pid) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(pid)
}
