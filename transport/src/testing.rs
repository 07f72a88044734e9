//! Test support: private directories and socket paths, as the daemon's
//! own tests make them (`hookgate-daemon`'s `testing`).

/// A temporary directory only this user can use, as the gateway requires
/// of its socket directory (`tempdir()` may follow the umask).
pub(crate) fn private_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    dir
}

/// Where a test gateway listens: `name` inside `dir`; on Windows a pipe
/// named after `dir` (pipes share one machine-wide namespace, so the
/// temporary directory's unique name keeps tests apart).
#[cfg(windows)]
pub(crate) fn socket_path(dir: &tempfile::TempDir, name: &str) -> std::path::PathBuf {
    let unique = dir.path().file_name().unwrap().to_string_lossy();
    let prefix = hookgate_wire::socket::PIPE_PREFIX;
    std::path::PathBuf::from(format!(r"{prefix}hookgate-test{unique}\{name}"))
}
