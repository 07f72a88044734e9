//! Where the gateway's socket lives, resolved the same way by the shim and
//! the gateway so a user never has to configure both.
//!
//! Order: `$HOOKGATE_SOCKET`; else `$XDG_RUNTIME_DIR/hookgate/gateway.sock`
//! (the per-user runtime directory, private by construction); else
//! `<tmp>/hookgate-<uid>/gateway.sock`, whose directory the gateway creates
//! 0700 and refuses to use if another user owns it.

use std::path::PathBuf;

/// Environment variable that overrides the socket path.
pub const SOCKET_ENV: &str = "HOOKGATE_SOCKET";
/// File name of the socket inside its directory.
pub const SOCKET_FILE: &str = "gateway.sock";

/// The socket path for the current user, given a way to read environment
/// variables (injected so tests need not mutate the process environment).
pub fn resolve(env: impl Fn(&str) -> Option<String>, uid: u32) -> PathBuf {
    if let Some(path) = env(SOCKET_ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    if let Some(runtime) = env("XDG_RUNTIME_DIR").filter(|p| !p.is_empty()) {
        return PathBuf::from(runtime).join("hookgate").join(SOCKET_FILE);
    }
    let tmp = env("TMPDIR")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp"));
    tmp.join(format!("hookgate-{uid}")).join(SOCKET_FILE)
}

/// The socket path for this process's user and environment.
#[cfg(unix)]
pub fn default_path() -> PathBuf {
    resolve(|name| std::env::var(name).ok(), current_uid())
}

/// The real user id of this process.
#[cfg(unix)]
pub fn current_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    #[allow(unsafe_code)]
    unsafe {
        libc::getuid()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn resolution_order() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (
                &[
                    ("HOOKGATE_SOCKET", "/x/s.sock"),
                    ("XDG_RUNTIME_DIR", "/run/user/1"),
                ],
                "/x/s.sock",
            ),
            (
                &[("HOOKGATE_SOCKET", ""), ("XDG_RUNTIME_DIR", "/run/user/1")],
                "/run/user/1/hookgate/gateway.sock",
            ),
            (
                &[("TMPDIR", "/var/tmp")],
                "/var/tmp/hookgate-42/gateway.sock",
            ),
            (&[], "/tmp/hookgate-42/gateway.sock"),
        ];
        for (env, expected) in cases {
            assert_eq!(resolve(env_of(env), 42), PathBuf::from(expected), "{env:?}");
        }
    }
}
