//! systemd socket activation: `gateway serve` started by a
//! `hookgate.socket` unit (or anything speaking the same protocol, such as
//! `systemd-socket-activate`) takes the listening socket it was handed
//! instead of binding one, so the first hook call after login or a reboot
//! starts the gateway and is answered by it.
//!
//! The protocol (`sd_listen_fds(3)`): `LISTEN_PID` is this process,
//! `LISTEN_FDS` the number of descriptors passed from fd 3 up,
//! `LISTEN_FDNAMES` their colon-separated names. hookgate takes up to two:
//! its socket, the only one passed or the one named `hookgate`
//! (`FileDescriptorName=` in the unit), which must be a listening Unix
//! stream socket bound to a path (shims and the admin socket need one);
//! and the HTTP hook port, the one named `hookgate-http`
//! (`hookgate-http.socket`), which must be a listening TCP socket on a
//! loopback address. Held by the service manager from login, that port
//! cannot be taken by another local user while the gateway is not running
//! (`http::port`). Anything else is refused with a message saying what
//! was found.
//!
//! The only `unsafe` here: taking ownership of an inherited descriptor,
//! and three read-only queries (`fstat`, `getsockopt`) before it.

#![allow(unsafe_code)]

use std::net::{SocketAddr, TcpListener};
use std::os::fd::{FromRawFd as _, OwnedFd, RawFd};
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// The first descriptor passed (`SD_LISTEN_FDS_START`).
const FIRST_FD: RawFd = 3;
/// More than this many passed descriptors is a misconfigured unit.
const MAX_FDS: usize = 16;
/// The name that picks hookgate's socket among several.
pub(crate) const FD_NAME: &str = "hookgate";
/// The name of the HTTP hook port's socket.
pub(crate) const HTTP_FD_NAME: &str = "hookgate-http";

/// Bit `fd - FIRST_FD` is set once that inherited descriptor is owned: a
/// second take would alias it.
static TAKEN: AtomicU32 = AtomicU32::new(0);

/// The descriptors passed to this process, by their use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Passed {
    /// The Unix socket shims connect to.
    pub(crate) socket: Option<RawFd>,
    /// The HTTP hook port.
    pub(crate) http: Option<RawFd>,
}

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

/// The descriptors the environment passes to this process (`pid`), if
/// any. `env` reads a variable. Passed to another process (a `LISTEN_PID`
/// of a parent that did not clear it): none.
pub(crate) fn passed_fds(
    env: impl Fn(&str) -> Option<String>,
    pid: u32,
) -> Result<Passed, ActivationError> {
    let (Some(listen_pid), Some(count)) = (env("LISTEN_PID"), env("LISTEN_FDS")) else {
        return Ok(Passed::default());
    };
    let listen_pid: u32 = listen_pid
        .trim()
        .parse()
        .map_err(|_| ActivationError::BadPid(listen_pid.clone()))?;
    if listen_pid != pid {
        return Ok(Passed::default());
    }
    let count: usize = count
        .trim()
        .parse()
        .ok()
        .filter(|n| *n <= MAX_FDS)
        .ok_or_else(|| ActivationError::BadCount(count.clone()))?;
    let names = env("LISTEN_FDNAMES").unwrap_or_default();
    let named = |wanted: &str| {
        names
            .split(':')
            .take(count)
            .position(|name| name == wanted)
            // `index < count <= MAX_FDS`: the sum fits.
            .map(|index| FIRST_FD + RawFd::try_from(index).unwrap_or(0))
    };
    let http = named(HTTP_FD_NAME);
    let socket = match (count, named(FD_NAME)) {
        (0, _) => None,
        (_, Some(fd)) => Some(fd),
        (1, None) if http.is_none() => Some(FIRST_FD),
        // Only the HTTP port: the socket is bound as usual.
        (_, None) if http.is_some() => None,
        (n, None) => return Err(ActivationError::Ambiguous(n)),
    };
    Ok(Passed { socket, http })
}

/// The HTTP hook port's listening socket a service manager passed to this
/// process (named `hookgate-http`), checked to be a listening TCP socket
/// on a loopback address, and its address.
pub fn inherited_http() -> Result<Option<(TcpListener, SocketAddr)>, ActivationError> {
    let env = |name: &str| std::env::var(name).ok();
    let Some(fd) = passed_fds(env, std::process::id())?.http else {
        return Ok(None);
    };
    let unusable = |what: String| ActivationError::Unusable { fd, what };
    check(fd, Family::Tcp).map_err(unusable)?;
    let listener = TcpListener::from(own(fd)?);
    listener
        .set_nonblocking(true)
        .map_err(|err| unusable(format!("cannot make it non-blocking: {err}")))?;
    let addr = listener
        .local_addr()
        .map_err(|err| unusable(format!("no local address: {err}")))?;
    if !addr.ip().is_loopback() {
        return Err(unusable(format!(
            "the HTTP hook socket listens on {addr}, not on a loopback address (ListenStream=127.0.0.1:PORT)"
        )));
    }
    Ok(Some((listener, addr)))
}

/// Owns the checked descriptor `fd`, close-on-exec, once only.
fn own(fd: RawFd) -> Result<OwnedFd, ActivationError> {
    let bit = u32::try_from(fd - FIRST_FD)
        .ok()
        .and_then(|shift| 1u32.checked_shl(shift))
        .ok_or(ActivationError::Unusable {
            fd,
            what: "not a passed descriptor".into(),
        })?;
    if TAKEN.fetch_or(bit, Ordering::SeqCst) & bit != 0 {
        return Err(ActivationError::Taken);
    }
    // SAFETY: `fd` is open (fstat succeeded in `check`), was passed to this
    // process to own by the activation protocol, and `TAKEN` makes this
    // the only `OwnedFd` ever made of it.
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    set_cloexec(fd).map_err(|err| ActivationError::Unusable {
        fd,
        what: format!("cannot set close-on-exec: {err}"),
    })?;
    Ok(owned)
}

/// Takes `fd` once it is checked to be a listening Unix stream socket
/// bound to a path; returns it (non-blocking, close-on-exec) and its path.
pub(crate) fn take(fd: RawFd) -> Result<(UnixListener, PathBuf), ActivationError> {
    let unusable = |what: String| ActivationError::Unusable { fd, what };
    check(fd, Family::Unix).map_err(unusable)?;
    let listener = UnixListener::from(own(fd)?);
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

/// Which listening socket a descriptor must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// hookgate's socket: a Unix socket.
    Unix,
    /// The HTTP hook port: TCP over IPv4 or IPv6.
    Tcp,
}

/// What is wrong with `fd` as one of hookgate's listening sockets, if
/// anything.
fn check(fd: RawFd, want: Family) -> Result<(), String> {
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
    let family = family(fd)?;
    match want {
        Family::Unix if family != libc::AF_UNIX => {
            Err("not a Unix socket (ListenStream= must name a path)".into())
        }
        Family::Tcp if family != libc::AF_INET && family != libc::AF_INET6 => {
            Err("not a TCP socket (the HTTP hook socket's ListenStream= is 127.0.0.1:PORT)".into())
        }
        _ => Ok(()),
    }
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

    /// Variables, and the descriptors (socket, HTTP port) or a piece of
    /// the error.
    type Case<'a> = (
        &'a [(&'a str, &'a str)],
        Result<(Option<RawFd>, Option<RawFd>), &'a str>,
    );

    #[test]
    fn the_environment_names_the_descriptors() {
        let cases: &[Case<'_>] = &[
            (&[], Ok((None, None))),
            (&[("LISTEN_FDS", "1")], Ok((None, None))),
            (
                &[("LISTEN_PID", "42"), ("LISTEN_FDS", "1")],
                Ok((Some(3), None)),
            ),
            // Meant for another process: not ours.
            (
                &[("LISTEN_PID", "41"), ("LISTEN_FDS", "1")],
                Ok((None, None)),
            ),
            (
                &[("LISTEN_PID", "42"), ("LISTEN_FDS", "0")],
                Ok((None, None)),
            ),
            (
                &[
                    ("LISTEN_PID", "42"),
                    ("LISTEN_FDS", "3"),
                    ("LISTEN_FDNAMES", "metrics:hookgate:other"),
                ],
                Ok((Some(4), None)),
            ),
            // hookgate.socket and hookgate-http.socket, in either order.
            (
                &[
                    ("LISTEN_PID", "42"),
                    ("LISTEN_FDS", "2"),
                    ("LISTEN_FDNAMES", "hookgate:hookgate-http"),
                ],
                Ok((Some(3), Some(4))),
            ),
            (
                &[
                    ("LISTEN_PID", "42"),
                    ("LISTEN_FDS", "2"),
                    ("LISTEN_FDNAMES", "hookgate-http:hookgate"),
                ],
                Ok((Some(4), Some(3))),
            ),
            // The HTTP port alone: the socket is bound as usual.
            (
                &[
                    ("LISTEN_PID", "42"),
                    ("LISTEN_FDS", "1"),
                    ("LISTEN_FDNAMES", "hookgate-http"),
                ],
                Ok((None, Some(3))),
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
            let got = passed_fds(env(vars), 42).map(|p| (p.socket, p.http));
            match (got, expected) {
                (Ok(fds), Ok(want)) => assert_eq!(fds, *want, "{vars:?}"),
                (Err(err), Err(text)) => assert!(err.to_string().contains(text), "{err}"),
                (got, want) => panic!("{vars:?}: {got:?}, expected {want:?}"),
            }
        }
    }

    #[test]
    fn descriptors_that_are_not_the_listening_socket_wanted_are_named() {
        let tmp = crate::testing::private_tempdir();
        let file = std::fs::File::create(tmp.path().join("f")).unwrap();
        let bound = std::os::unix::net::UnixDatagram::bind(tmp.path().join("d")).unwrap();
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let listening = UnixListener::bind(tmp.path().join("l")).unwrap();
        use std::os::fd::AsRawFd as _;
        let cases = [
            (file.as_raw_fd(), Family::Unix, Some("not a socket")),
            (bound.as_raw_fd(), Family::Unix, Some("not a stream socket")),
            (a.as_raw_fd(), Family::Unix, Some("not listening")),
            (tcp.as_raw_fd(), Family::Unix, Some("not a Unix socket")),
            (listening.as_raw_fd(), Family::Unix, None),
            (1_000_000, Family::Unix, Some("not open")),
            (tcp.as_raw_fd(), Family::Tcp, None),
            (listening.as_raw_fd(), Family::Tcp, Some("not a TCP socket")),
        ];
        for (fd, family, expected) in cases {
            match (check(fd, family), expected) {
                (Ok(()), None) => {}
                (Err(err), Some(text)) => assert!(err.contains(text), "{fd}: {err}"),
                (got, want) => panic!("{fd}: {got:?}, expected {want:?}"),
            }
        }
    }
}
