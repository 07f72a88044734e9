//! systemd socket activation: `gateway serve` started by a
//! `hookgate.socket` unit (or anything speaking the same protocol, such as
//! `systemd-socket-activate`) takes the listening socket it was handed
//! instead of binding one, so the first hook call after login or a reboot
//! starts the gateway and is answered by it.
//!
//! The protocol (`sd_listen_fds(3)`): `LISTEN_PID` is this process,
//! `LISTEN_FDS` the number of descriptors passed from fd 3 up,
//! `LISTEN_FDNAMES` their colon-separated names. hookgate takes one: the
//! only one passed, or the one named `hookgate` (`FileDescriptorName=` in
//! the unit). It must be a listening Unix stream socket bound to a path
//! (shims and the admin socket need one); anything else is refused with a
//! message saying what was found.
//!
//! The only `unsafe` here: taking ownership of the inherited descriptor,
//! and three read-only queries (`fstat`, `getsockopt`) before it.

#![allow(unsafe_code)]

use std::os::fd::{FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// The first descriptor passed (`SD_LISTEN_FDS_START`).
const FIRST_FD: RawFd = 3;
/// More than this many passed descriptors is a misconfigured unit.
const MAX_FDS: usize = 16;
/// The name that picks hookgate's socket among several.
pub(crate) const FD_NAME: &str = "hookgate";

/// Set once the inherited descriptor is owned: a second take would alias it.
static TAKEN: AtomicBool = AtomicBool::new(false);

/// Why an inherited socket cannot be used. Each says what was found.
#[derive(Debug, thiserror::Error)]
pub enum ActivationError {
    #[error("LISTEN_PID is `{0}`, not a process id")]
    BadPid(String),
    #[error("LISTEN_FDS is `{0}`, not a count of descriptors (at most {MAX_FDS})")]
    BadCount(String),
    #[error(
        "LISTEN_FDS={0} and none of LISTEN_FDNAMES is `{FD_NAME}`: set FileDescriptorName={FD_NAME} on hookgate's socket"
    )]
    Ambiguous(usize),
    #[error("inherited descriptor {fd} (socket activation): {what}")]
    Unusable { fd: RawFd, what: String },
    #[error("the inherited socket was already taken")]
    Taken,
}

/// The descriptor the environment passes to this process (`pid`), if
/// any. `env` reads a variable. Passed to another process (a
/// `LISTEN_PID` of a parent that did not clear it): none.
pub(crate) fn passed_fd(
    env: impl Fn(&str) -> Option<String>,
    pid: u32,
) -> Result<Option<RawFd>, ActivationError> {
    let (Some(listen_pid), Some(count)) = (env("LISTEN_PID"), env("LISTEN_FDS")) else {
        return Ok(None);
    };
    let listen_pid: u32 = listen_pid
        .trim()
        .parse()
        .map_err(|_| ActivationError::BadPid(listen_pid.clone()))?;
    if listen_pid != pid {
        return Ok(None);
    }
    let count: usize = count
        .trim()
        .parse()
        .ok()
        .filter(|n| *n <= MAX_FDS)
        .ok_or_else(|| ActivationError::BadCount(count.clone()))?;
    match count {
        0 => Ok(None),
        1 => Ok(Some(FIRST_FD)),
        n => {
            let names = env("LISTEN_FDNAMES").unwrap_or_default();
            let index = names
                .split(':')
                .take(n)
                .position(|name| name == FD_NAME)
                .ok_or(ActivationError::Ambiguous(n))?;
            // `index < n <= MAX_FDS`: the sum fits.
            Ok(Some(FIRST_FD + RawFd::try_from(index).unwrap_or(0)))
        }
    }
}

/// Takes `fd` once it is checked to be a listening Unix stream socket
/// bound to a path; returns it (non-blocking, close-on-exec) and its path.
pub(crate) fn take(fd: RawFd) -> Result<(UnixListener, PathBuf), ActivationError> {
    let unusable = |what: String| ActivationError::Unusable { fd, what };
    check(fd).map_err(unusable)?;
    if TAKEN.swap(true, Ordering::SeqCst) {
        return Err(ActivationError::Taken);
    }
    // SAFETY: `fd` is open (fstat succeeded in `check`), was passed to this
    // process to own by the activation protocol, and `TAKEN` makes this
    // the only `OwnedFd` ever made of it.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    set_cloexec(fd).map_err(|err| unusable(format!("cannot set close-on-exec: {err}")))?;
    let listener = UnixListener::from(owned);
    listener
        .set_nonblocking(true)
        .map_err(|err| unusable(format!("cannot make it non-blocking: {err}")))?;
    let path = listener
        .local_addr()
        .ok()
        .and_then(|addr| addr.as_pathname().map(PathBuf::from))
        .ok_or_else(|| unusable("a Unix socket with no path (abstract or unnamed)".into()))?;
    Ok((listener, path))
}

/// What is wrong with `fd` as hookgate's listening socket, if anything.
fn check(fd: RawFd) -> Result<(), String> {
    // SAFETY: `stat` is plain data; fstat only writes it.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: fstat on any integer is defined (EBADF when not open).
    if unsafe { libc::fstat(fd, &raw mut stat) } != 0 {
        return Err(format!("not open ({})", std::io::Error::last_os_error()));
    }
    if stat.st_mode & libc::S_IFMT != libc::S_IFSOCK {
        return Err("not a socket".into());
    }
    if sockopt(fd, libc::SO_TYPE)? != libc::SOCK_STREAM {
        return Err("not a stream socket (ListenStream=, not ListenDatagram=)".into());
    }
    if sockopt(fd, libc::SO_ACCEPTCONN)? == 0 {
        return Err("a socket that is not listening".into());
    }
    if family(fd)? != libc::AF_UNIX {
        return Err("not a Unix socket (ListenStream= must name a path)".into());
    }
    Ok(())
}

/// An integer socket option of `fd`.
fn sockopt(fd: RawFd, option: libc::c_int) -> Result<libc::c_int, String> {
    let mut value: libc::c_int = 0;
    let mut len = libc::socklen_t::try_from(std::mem::size_of::<libc::c_int>()).unwrap_or(4);
    // SAFETY: `value` and `len` are valid for writes of the sizes given.
    let rc = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            option,
            (&raw mut value).cast(),
            &raw mut len,
        )
    };
    if rc != 0 {
        return Err(format!(
            "getsockopt failed ({})",
            std::io::Error::last_os_error()
        ));
    }
    Ok(value)
}

/// The address family `fd` is bound in.
fn family(fd: RawFd) -> Result<libc::c_int, String> {
    // SAFETY: plain data, written by getsockname.
    let mut addr: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let mut len = libc::socklen_t::try_from(std::mem::size_of::<libc::sockaddr_storage>())
        .unwrap_or(libc::socklen_t::MAX);
    // SAFETY: `addr` is valid for `len` bytes of writes.
    let rc = unsafe { libc::getsockname(fd, (&raw mut addr).cast(), &raw mut len) };
    if rc != 0 {
        return Err(format!(
            "getsockname failed ({})",
            std::io::Error::last_os_error()
        ));
    }
    Ok(libc::c_int::from(addr.ss_family))
}

/// Marks `fd` close-on-exec: subscribers and shells the gateway starts
/// must not inherit its listening socket.
fn set_cloexec(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: fcntl F_GETFD/F_SETFD only read and set descriptor flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    /// Variables, and the descriptor or a piece of the error.
    type Case<'a> = (&'a [(&'a str, &'a str)], Result<Option<RawFd>, &'a str>);

    #[test]
    fn the_environment_names_the_descriptor() {
        let cases: &[Case<'_>] = &[
            (&[], Ok(None)),
            (&[("LISTEN_FDS", "1")], Ok(None)),
            (&[("LISTEN_PID", "42"), ("LISTEN_FDS", "1")], Ok(Some(3))),
            // Meant for another process: not ours.
            (&[("LISTEN_PID", "41"), ("LISTEN_FDS", "1")], Ok(None)),
            (&[("LISTEN_PID", "42"), ("LISTEN_FDS", "0")], Ok(None)),
            (
                &[
                    ("LISTEN_PID", "42"),
                    ("LISTEN_FDS", "3"),
                    ("LISTEN_FDNAMES", "metrics:hookgate:other"),
                ],
                Ok(Some(4)),
            ),
            (
                &[
                    ("LISTEN_PID", "42"),
                    ("LISTEN_FDS", "2"),
                    ("LISTEN_FDNAMES", "a:b"),
                ],
                Err("FileDescriptorName=hookgate"),
            ),
            (&[("LISTEN_PID", "42"), ("LISTEN_FDS", "2")], Err("none of")),
            (
                &[("LISTEN_PID", "x"), ("LISTEN_FDS", "1")],
                Err("not a process id"),
            ),
            (
                &[("LISTEN_PID", "42"), ("LISTEN_FDS", "-1")],
                Err("not a count"),
            ),
            (
                &[("LISTEN_PID", "42"), ("LISTEN_FDS", "99")],
                Err("not a count"),
            ),
        ];
        for (vars, expected) in cases {
            let got = passed_fd(env(vars), 42);
            match (got, expected) {
                (Ok(fd), Ok(want)) => assert_eq!(fd, *want, "{vars:?}"),
                (Err(err), Err(text)) => assert!(err.to_string().contains(text), "{err}"),
                (got, want) => panic!("{vars:?}: {got:?}, expected {want:?}"),
            }
        }
    }

    #[test]
    fn descriptors_that_are_not_listening_unix_sockets_are_named() {
        let tmp = crate::testing::private_tempdir();
        let file = std::fs::File::create(tmp.path().join("f")).unwrap();
        let bound = std::os::unix::net::UnixDatagram::bind(tmp.path().join("d")).unwrap();
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let listening = UnixListener::bind(tmp.path().join("l")).unwrap();
        use std::os::fd::AsRawFd as _;
        let cases = [
            (file.as_raw_fd(), Some("not a socket")),
            (bound.as_raw_fd(), Some("not a stream socket")),
            (a.as_raw_fd(), Some("not listening")),
            (tcp.as_raw_fd(), Some("not a Unix socket")),
            (listening.as_raw_fd(), None),
            (1_000_000, Some("not open")),
        ];
        for (fd, expected) in cases {
            match (check(fd), expected) {
                (Ok(()), None) => {}
                (Err(err), Some(text)) => assert!(err.contains(text), "{fd}: {err}"),
                (got, want) => panic!("{fd}: {got:?}, expected {want:?}"),
            }
        }
    }
}
