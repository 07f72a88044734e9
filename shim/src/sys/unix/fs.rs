//! Files: `stat`, the fallback record's file and the working directory.

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use libc::c_int;

use super::{Errno, c_path, io};

/// What the shim checks about a file: its type, owner and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Meta {
    pub(crate) mode: u32,
    pub(crate) uid: u32,
    pub(crate) size: u64,
}

impl Meta {
    fn from_stat(st: &libc::stat) -> Meta {
        Meta {
            mode: st.st_mode,
            uid: st.st_uid,
            size: u64::try_from(st.st_size).unwrap_or(0),
        }
    }

    fn is(&self, kind: libc::mode_t) -> bool {
        self.mode & libc::S_IFMT == kind
    }

    pub(crate) fn is_socket(&self) -> bool {
        self.is(libc::S_IFSOCK)
    }

    pub(crate) fn is_dir(&self) -> bool {
        self.is(libc::S_IFDIR)
    }

    pub(crate) fn is_file(&self) -> bool {
        self.is(libc::S_IFREG)
    }

    pub(crate) fn is_symlink(&self) -> bool {
        self.is(libc::S_IFLNK)
    }
}

/// `stat(2)`: follows symlinks, like `std::fs::metadata`.
pub(crate) fn stat(path: &str) -> Result<Meta, Errno> {
    stat_with(path, libc::stat)
}

/// `lstat(2)`: a symlink itself, like `std::fs::symlink_metadata`.
pub(crate) fn lstat(path: &str) -> Result<Meta, Errno> {
    stat_with(path, libc::lstat)
}

fn stat_with(
    path: &str,
    call: unsafe extern "C" fn(*const libc::c_char, *mut libc::stat) -> c_int,
) -> Result<Meta, Errno> {
    let path = c_path(path)?;
    let mut st = MaybeUninit::<libc::stat>::uninit();
    // SAFETY: `path` is NUL-terminated; `st` is valid for writes of one
    // `stat`, which `call` (stat or lstat) fills when it returns 0.
    if unsafe { call(path.as_ptr().cast(), st.as_mut_ptr()) } != 0 {
        return Err(Errno::last());
    }
    // SAFETY: the call returned 0, so it initialized `st`.
    Ok(Meta::from_stat(unsafe { st.assume_init_ref() }))
}

/// `mkdir(path, 0700)`; an existing entry is `EEXIST`.
pub(crate) fn mkdir_private(path: &str) -> Result<(), Errno> {
    let path = c_path(path)?;
    // SAFETY: `path` is NUL-terminated.
    if unsafe { libc::mkdir(path.as_ptr().cast(), 0o700) } != 0 {
        return Err(Errno::last());
    }
    Ok(())
}

/// An open file, closed on drop.
#[derive(Debug)]
pub(crate) struct File(c_int);

impl File {
    /// Opens `path` to append, creating it 0600, never through a symlink
    /// (`O_NOFOLLOW`) and never blocking on a FIFO planted there.
    pub(crate) fn open_append(path: &str) -> Result<File, Errno> {
        let path = c_path(path)?;
        let flags = libc::O_WRONLY
            | libc::O_APPEND
            | libc::O_CREAT
            | libc::O_NOFOLLOW
            | libc::O_NONBLOCK
            | libc::O_CLOEXEC;
        let mode: libc::c_uint = 0o600;
        // SAFETY: `path` is NUL-terminated; the mode is passed because
        // O_CREAT is set.
        let fd = unsafe { libc::open(path.as_ptr().cast(), flags, mode) };
        if fd < 0 {
            return Err(Errno::last());
        }
        Ok(File(fd))
    }

    /// `fstat(2)` of the open file.
    pub(crate) fn meta(&self) -> Result<Meta, Errno> {
        let mut st = MaybeUninit::<libc::stat>::uninit();
        // SAFETY: `self.0` is an open fd we own; `st` is valid for writes.
        if unsafe { libc::fstat(self.0, st.as_mut_ptr()) } != 0 {
            return Err(Errno::last());
        }
        // SAFETY: fstat returned 0, so it initialized `st`.
        Ok(Meta::from_stat(unsafe { st.assume_init_ref() }))
    }

    pub(crate) fn write_all(&self, bytes: &[u8]) -> Result<(), Errno> {
        io::write_all(self.0, bytes)
    }
}

impl Drop for File {
    fn drop(&mut self) {
        // SAFETY: we own the fd and nothing uses it after this.
        unsafe { libc::close(self.0) };
    }
}

/// The working directory's bytes, or `None` if it cannot be read.
pub(crate) fn cwd() -> Option<Vec<u8>> {
    let mut buf: Vec<u8> = Vec::new();
    let mut size = 512;
    // Linux caps paths at PATH_MAX (4096); the cap only stops a runaway.
    while size <= 1 << 20 {
        buf.resize(size, 0);
        // SAFETY: `buf` is valid and writable for `buf.len()` bytes; on
        // success getcwd writes a NUL-terminated path into it.
        let ptr = unsafe { libc::getcwd(buf.as_mut_ptr().cast(), buf.len()) };
        if !ptr.is_null() {
            let len = buf.iter().position(|&b| b == 0)?;
            buf.truncate(len);
            return Some(buf);
        }
        if Errno::last().0 != libc::ERANGE {
            return None;
        }
        size *= 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_tells_kinds_apart() {
        let dir = tempfile::tempdir().unwrap();
        let dir_path = dir.path().to_str().unwrap();
        assert!(stat(dir_path).unwrap().is_dir());
        let file = dir.path().join("f");
        std::fs::write(&file, b"abc").unwrap();
        let meta = stat(file.to_str().unwrap()).unwrap();
        assert!(meta.is_file() && !meta.is_dir() && !meta.is_socket());
        assert_eq!(meta.size, 3);
        assert_eq!(stat("/definitely/absent"), Err(Errno(libc::ENOENT)));
    }

    #[test]
    fn cwd_matches_std() {
        let expected = std::env::current_dir().unwrap();
        assert_eq!(cwd().unwrap(), expected.to_str().unwrap().as_bytes());
    }
}
