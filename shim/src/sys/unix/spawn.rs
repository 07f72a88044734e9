//! Starting the gateway detached: the autostart's OS side.
//!
//! Single instance by a lock: an exclusive `flock` on a file in the
//! socket's private directory, taken without waiting. The gateway inherits
//! the locked descriptor, so the lock is held for as long as it runs and
//! released by the kernel when it exits (even killed): a second shim
//! meanwhile finds it taken and only waits for the socket.
//!
//! The same lock says when a started gateway is gone: it is free again
//! once the gateway exits (or its exec failed), so a shim waiting for the
//! socket learns at once that nothing will ever answer there
//! ([`lock_is_free`]).
//!
//! Detached by a double fork: the child calls `setsid` (a new session, no
//! controlling terminal: closing the agent's terminal sends it no SIGHUP)
//! and forks the gateway, then exits at once so the shim reaps it and the
//! gateway is adopted by init. The gateway gets `/dev/null` as stdin, its
//! log file as stdout and stderr, `/` as working directory, and none of
//! the shim's other descriptors (the agent's pipes must see EOF when the
//! shim exits, or the agent would wait for the gateway).

use alloc::vec::Vec;

use libc::c_int;

use super::{Errno, c_path};

/// Whether this shim started the gateway.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Started {
    /// Forked and exec'd (whether it comes up is for the socket to say).
    Spawned,
    /// The lock is taken: another shim is starting it, or it runs.
    Locked,
}

/// Highest descriptor closed in the gateway before exec.
const MAX_FD: c_int = 1024;

/// Starts `program args…` detached with exactly the `NAME=value`
/// variables `env`, holding `lock`, logging to `log`.
pub(crate) fn start_detached(
    program: &str,
    args: &[&str],
    env: &[&str],
    lock: &str,
    log: &str,
) -> Result<Started, Errno> {
    let program = c_path(program)?;
    let mut owned: Vec<Vec<u8>> = Vec::with_capacity(args.len());
    for arg in args {
        owned.push(c_path(arg)?);
    }
    let mut argv: Vec<*const libc::c_char> = Vec::with_capacity(owned.len() + 2);
    argv.push(program.as_ptr().cast());
    argv.extend(owned.iter().map(|a| a.as_ptr().cast::<libc::c_char>()));
    argv.push(core::ptr::null());
    let mut owned_env: Vec<Vec<u8>> = Vec::with_capacity(env.len());
    for var in env {
        owned_env.push(c_path(var)?);
    }
    let mut envp: Vec<*const libc::c_char> = Vec::with_capacity(owned_env.len() + 1);
    envp.extend(owned_env.iter().map(|v| v.as_ptr().cast::<libc::c_char>()));
    envp.push(core::ptr::null());
    let lock = c_path(lock)?;
    let log = c_path(log)?;
    let devnull = c_path("/dev/null")?;
    let root = c_path("/")?;

    // No O_CLOEXEC: the gateway keeps it, and with it the lock.
    let flags = libc::O_RDWR | libc::O_CREAT | libc::O_NOFOLLOW;
    // SAFETY: NUL-terminated path; the mode is passed because of O_CREAT.
    let lock_fd = unsafe { libc::open(lock.as_ptr().cast(), flags, 0o600 as libc::c_uint) };
    if lock_fd < 0 {
        return Err(Errno::last());
    }
    // SAFETY: `lock_fd` is open.
    if unsafe { libc::flock(lock_fd, libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let err = Errno::last();
        // SAFETY: we own `lock_fd`.
        unsafe { libc::close(lock_fd) };
        return if err.would_block() {
            Ok(Started::Locked)
        } else {
            Err(err)
        };
    }

    // Everything the children touch is prepared above: between fork and
    // exec they only make async-signal-safe calls.
    // SAFETY: fork has no preconditions; each branch is handled below.
    let child = unsafe { libc::fork() };
    if child < 0 {
        let err = Errno::last();
        // SAFETY: we own `lock_fd`.
        unsafe { libc::close(lock_fd) };
        return Err(err);
    }
    if child == 0 {
        // SAFETY: in the child, only async-signal-safe calls, then _exit.
        unsafe {
            libc::setsid();
            let grandchild = libc::fork();
            if grandchild == 0 {
                exec_gateway(&argv, &envp, lock_fd, &devnull, &log, &root);
            }
            libc::_exit(0);
        }
    }
    // The child exits at once; reap it so it leaves no zombie.
    let mut status: c_int = 0;
    // SAFETY: `child` is our child; `status` is writable.
    while unsafe { libc::waitpid(child, &mut status, 0) } < 0 && Errno::last().interrupted() {}
    // The gateway holds its own copy of the descriptor, and the lock.
    // SAFETY: we own `lock_fd`.
    unsafe { libc::close(lock_fd) };
    Ok(Started::Spawned)
}

/// Whether nobody holds `lock` (taken and released at once to find
/// out): the gateway that held it has exited. `false` when it is held, and
/// when it cannot be told (no such file, another error): only a sure
/// "gone" ends a wait early.
pub(crate) fn lock_is_free(lock: &str) -> bool {
    let Ok(lock) = c_path(lock) else {
        return false;
    };
    let flags = libc::O_RDWR | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NONBLOCK;
    // SAFETY: NUL-terminated path; no O_CREAT, so no mode.
    let fd = unsafe { libc::open(lock.as_ptr().cast(), flags) };
    if fd < 0 {
        return false;
    }
    // SAFETY: `fd` is open; closing it releases the lock if we took it.
    unsafe {
        let free = libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) == 0;
        libc::close(fd);
        free
    }
}

/// The grandchild: descriptors set up, then exec; `_exit(127)` if exec
/// fails.
///
/// # Safety
/// Only call in a freshly forked child; `argv` and `envp` must be
/// null-terminated arrays of NUL-terminated strings, the paths
/// NUL-terminated.
unsafe fn exec_gateway(
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
    lock_fd: c_int,
    devnull: &[u8],
    log: &[u8],
    root: &[u8],
) -> ! {
    // SAFETY: the caller's contract; all calls are async-signal-safe.
    unsafe {
        let null = libc::open(devnull.as_ptr().cast(), libc::O_RDWR);
        let out = libc::open(
            log.as_ptr().cast(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_NOFOLLOW,
            0o600 as libc::c_uint,
        );
        let out = if out < 0 { null } else { out };
        libc::dup2(null, 0);
        libc::dup2(out, 1);
        libc::dup2(out, 2);
        for fd in 3..MAX_FD {
            if fd != lock_fd {
                libc::close(fd);
            }
        }
        libc::chdir(root.as_ptr().cast());
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::execve(argv[0], argv.as_ptr(), envp.as_ptr());
        libc::_exit(127)
    }
}

/// Sleeps for `ms` milliseconds (less if a signal comes).
pub(crate) fn sleep_ms(ms: u64) {
    let ts = libc::timespec {
        tv_sec: (ms / 1000) as libc::time_t,
        tv_nsec: ((ms % 1000) * 1_000_000) as libc::c_long,
    };
    // SAFETY: `ts` is a valid timespec; the remainder is not wanted.
    unsafe { libc::nanosleep(&ts, core::ptr::null_mut()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lock held by a live process is not free; once it exits, it is.
    #[test]
    fn the_lock_frees_when_its_holder_exits() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("gateway.autostart.lock");
        let lock = lock.to_str().unwrap();
        assert!(!lock_is_free(lock), "no lock file: cannot tell");
        let log = dir.path().join("log");
        let env = ["PATH=/usr/bin:/bin"];
        let started = start_detached("/bin/sleep", &["0.3"], &env, lock, log.to_str().unwrap());
        assert_eq!(started, Ok(Started::Spawned));
        assert!(!lock_is_free(lock), "held by the sleeping process");
        let again = start_detached("/bin/sleep", &["1"], &env, lock, log.to_str().unwrap());
        assert_eq!(again, Ok(Started::Locked));
        let mut waited = 0;
        while !lock_is_free(lock) {
            assert!(waited < 200, "never freed");
            sleep_ms(20);
            waited += 1;
        }
    }

    /// A program that cannot be executed frees the lock at once.
    #[test]
    fn a_failed_exec_frees_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let lock = dir.path().join("gateway.autostart.lock");
        let lock = lock.to_str().unwrap();
        let log = dir.path().join("log");
        let started = start_detached("/definitely/absent", &[], &[], lock, log.to_str().unwrap());
        assert_eq!(started, Ok(Started::Spawned));
        let mut waited = 0;
        while !lock_is_free(lock) {
            assert!(waited < 200, "never freed");
            sleep_ms(5);
            waited += 1;
        }
    }
}
