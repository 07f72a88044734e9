//! Files: `stat`, the records' files (fallbacks, start failure), whether
//! the gateway is executable, and the working directory.

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

    /// Opens `path` to replace its content, creating it 0600, never through
    /// a symlink nor blocking on a FIFO (the start-failure record).
    pub(crate) fn open_replace(path: &str) -> Result<File, Errno> {
        let path = c_path(path)?;
        let flags =
            libc::O_WRONLY | libc::O_CREAT | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
        let mode: libc::c_uint = 0o600;
        // SAFETY: `path` is NUL-terminated; the mode is passed because
        // O_CREAT is set.
        let fd = unsafe { libc::open(path.as_ptr().cast(), flags, mode) };
        if fd < 0 {
            return Err(Errno::last());
        }
        Ok(File(fd))
    }

    /// Opens `path` to read, never through a symlink nor blocking on a
    /// FIFO.
    pub(crate) fn open_read(path: &str) -> Result<File, Errno> {
        let path = c_path(path)?;
        let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
        // SAFETY: `path` is NUL-terminated.
        let fd = unsafe { libc::open(path.as_ptr().cast(), flags) };
        if fd < 0 {
            return Err(Errno::last());
        }
        Ok(File(fd))
    }

    /// Cuts the file to its first `len` bytes.
    pub(crate) fn truncate(&self, len: u64) -> Result<(), Errno> {
        let len = libc::off_t::try_from(len).map_err(|_| Errno(libc::EINVAL))?;
        // SAFETY: `self.0` is an open fd we own.
        if unsafe { libc::ftruncate(self.0, len) } != 0 {
            return Err(Errno::last());
        }
        Ok(())
    }

    /// Reads from the start of a regular file until its end or `max` bytes.
    pub(crate) fn read_up_to(&self, max: usize) -> Result<Vec<u8>, Errno> {
        let mut buf: Vec<u8> = alloc::vec![0; max];
        let mut len = 0;
        while len < max {
            let rest = buf.get_mut(len..).unwrap_or_default();
            match io::read(self.0, rest) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(err) if err.interrupted() => {}
                Err(err) => return Err(err),
            }
        }
        buf.truncate(len);
        Ok(buf)
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

/// Whether `path` is a regular file this process may execute (what
/// `execve` would need), following symlinks.
pub(crate) fn is_executable(path: &str) -> bool {
    if !stat(path).is_ok_and(|meta| meta.is_file()) {
        return false;
    }
    let Ok(path) = c_path(path) else {
        return false;
    };
    // SAFETY: `path` is NUL-terminated.
    unsafe { libc::access(path.as_ptr().cast(), libc::X_OK) == 0 }
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
    fn files_are_replaced_and_read_back_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record");
        let path = path.to_str().unwrap();
        let file = File::open_replace(path).unwrap();
        file.write_all(b"a longer first text").unwrap();
        drop(file);
        let file = File::open_replace(path).unwrap();
        file.truncate(0).unwrap();
        file.write_all(b"second").unwrap();
        drop(file);
        let read = File::open_read(path).unwrap();
        assert_eq!(read.read_up_to(100).unwrap(), b"second");
        let read = File::open_read(path).unwrap();
        assert_eq!(read.read_up_to(3).unwrap(), b"sec");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(path, &link).unwrap();
        assert!(File::open_read(link.to_str().unwrap()).is_err());
    }

    #[test]
    fn only_executable_files_are_executable() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("gw");
        std::fs::write(&file, b"#!/bin/sh\n").unwrap();
        let path = file.to_str().unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        // Even root may execute nothing without an x bit.
        assert!(!is_executable(path));
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(is_executable(path));
        assert!(!is_executable(dir.path().to_str().unwrap()), "a directory");
        assert!(!is_executable("/definitely/absent"));
    }

    #[test]
    fn cwd_matches_std() {
        let expected = std::env::current_dir().unwrap();
        assert_eq!(cwd().unwrap(), expected.to_str().unwrap().as_bytes());
    }
}
