//! The Win32 calls behind the named pipe's security: the owner-only
//! security descriptor, the process ids at the two ends of a pipe (whose
//! users `hookgate_identity` reads). The transport's only `unsafe` code;
//! each block says why it is sound.
//!
//! Handles are owned by `OwnedHandle` (closed on every path), buffers by
//! `Vec`, and what Windows allocates with `LocalAlloc` is copied and freed
//! before the function returns, so nothing here outlives a call unowned.

#![allow(unsafe_code)]

use std::fmt;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::path::Path;
use std::ptr;

pub(super) use hookgate_identity::UserSid;
use tokio::net::windows::named_pipe::{NamedPipeServer, ServerOptions};
use windows_sys::Win32::Foundation::LocalFree;
use windows_sys::Win32::Security::Authorization::{
    ConvertStringSecurityDescriptorToSecurityDescriptorW, SDDL_REVISION_1,
};
use windows_sys::Win32::Security::{
    GetSecurityDescriptorLength, PSECURITY_DESCRIPTOR, SECURITY_ATTRIBUTES,
};
use windows_sys::Win32::System::Pipes::{GetNamedPipeClientProcessId, GetNamedPipeServerProcessId};

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
