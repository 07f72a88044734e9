//! Another local user inside the test process: code run on a thread whose
//! effective uid and gid are another user's (`nobody`), so the sockets it
//! makes are that user's as far as the kernel is concerned (the owner in
//! `/proc/net/tcp`, the `SO_PEERCRED` of a socket it listens on, the
//! owner of a socket file it binds).
//!
//! Linux keeps credentials per thread: the raw `setresuid`/`setresgid`
//! system calls change only the calling thread (glibc's wrappers would
//! change every thread of the process). The thread never switches back;
//! it ends with the work. Needs root; the tests say why they skip
//! otherwise (`support::cannot_switch_users`).

#![allow(unsafe_code, reason = "two raw system calls, on a thread of their own")]

use std::thread::JoinHandle;

use crate::support::nobody_ids;

/// Runs `work` on a new thread as `nobody` (effective uid and gid), and
/// hands back the thread; [`as_nobody`] waits for it.
pub(crate) fn spawn_as_nobody<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> JoinHandle<T> {
    let (uid, gid) = nobody_ids().expect("a nobody user (checked by cannot_switch_users)");
    std::thread::spawn(move || {
        become_user(uid, gid);
        work()
    })
}

/// Runs `work` as `nobody` on a thread of its own and returns its result.
pub(crate) fn as_nobody<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    spawn_as_nobody(work).join().expect("the thread as nobody")
}

/// This thread's effective (and filesystem) ids become `uid`/`gid`; the
/// real and saved ids stay, and no other thread changes.
fn become_user(uid: u32, gid: u32) {
    let keep = libc::c_long::from(-1i32);
    // SAFETY: plain system calls taking integers; gid first, while the
    // thread still has the privilege to change it.
    let rc = unsafe { libc::syscall(libc::SYS_setresgid, keep, libc::c_long::from(gid), keep) };
    assert_eq!(rc, 0, "setresgid: {}", std::io::Error::last_os_error());
    // SAFETY: as above.
    let rc = unsafe { libc::syscall(libc::SYS_setresuid, keep, libc::c_long::from(uid), keep) };
    assert_eq!(rc, 0, "setresuid: {}", std::io::Error::last_os_error());
}

#[test]
fn a_thread_as_nobody_makes_nobodys_sockets_and_no_other_thread_changes() {
    if let Some(reason) = crate::support::cannot_switch_users() {
        eprintln!("SKIPPED a_thread_as_nobody_makes_nobodys_sockets: {reason}");
        return;
    }
    use std::os::unix::fs::MetadataExt as _;
    let (uid, _) = nobody_ids().expect("checked above");
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .expect("chmod 777");
    let path = dir.path().join("s.sock");
    let bound = path.clone();
    let listener = as_nobody(move || std::os::unix::net::UnixListener::bind(bound));
    let _listener = listener.expect("nobody binds in a 0777 directory");
    assert_eq!(std::fs::metadata(&path).unwrap().uid(), uid);
    assert_eq!(std::fs::metadata("/proc/thread-self").unwrap().uid(), 0);
}
