//! Where the gateway's socket lives, resolved the same way by the shim and
//! the gateway so a user never has to configure both.
//!
//! Order: `$HOOKGATE_SOCKET`; else `$XDG_RUNTIME_DIR/hookgate/gateway.sock`
//! (the per-user runtime directory, private by construction); else the
//! user's state directory, `$XDG_STATE_HOME/hookgate/gateway.sock` or
//! `$HOME/.local/state/hookgate/gateway.sock` (no other user can create
//! anything in a home directory, so nobody can squat it, as anyone can in
//! a shared `/tmp`), if the path fits a socket address; only then
//! `<tmp>/hookgate-<uid>/gateway.sock`, whose directory the gateway creates
//! 0700 and refuses to use if another user owns it.
//!
//! On Windows the "socket" is a named pipe: `$HOOKGATE_SOCKET` (a pipe name
//! such as `\\.\pipe\my-gateway`), else `\\.\pipe\hookgate-<user>\gateway`
//! ([`resolve_pipe`]). The pipe namespace is machine-wide, so the user name
//! only avoids collisions; privacy comes from the pipe's owner-only DACL and
//! the peer checks on both ends.
//!
//! [`resolve`] works on strings (`no_std` + `alloc`): the shim uses it as
//! it is, the gateway turns the result into a `PathBuf`.

use alloc::format;
use alloc::string::String;

/// Environment variable that overrides the socket path.
pub const SOCKET_ENV: &str = "HOOKGATE_SOCKET";
/// File name of the socket inside its directory.
pub const SOCKET_FILE: &str = "gateway.sock";

/// The socket path for the current user, given a way to read environment
/// variables (injected so tests need not mutate the process environment).
pub fn resolve(env: impl Fn(&str) -> Option<String>, uid: u32) -> String {
    if let Some(path) = env(SOCKET_ENV).filter(|p| !p.is_empty()) {
        return path;
    }
    if let Some(runtime) = env("XDG_RUNTIME_DIR").filter(|p| !p.is_empty()) {
        return join(&join(&runtime, "hookgate"), SOCKET_FILE);
    }
    if let Some(state) = state_dir(&env) {
        let socket = join(&state, SOCKET_FILE);
        if socket.len() <= MAX_SOCKET_PATH {
            return socket;
        }
    }
    let tmp = env("TMPDIR")
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| String::from("/tmp"));
    join(&join(&tmp, &format!("hookgate-{uid}")), SOCKET_FILE)
}

/// The longest socket path a Unix socket address holds (`sun_path` is 108
/// bytes on Linux, 104 on macOS and the BSDs, NUL included): the smaller.
pub const MAX_SOCKET_PATH: usize = 103;

/// hookgate's directory in the user's state directory:
/// `$XDG_STATE_HOME/hookgate`, else `$HOME/.local/state/hookgate`; `None`
/// when neither is an absolute path (a relative one would depend on the
/// working directory).
pub fn state_dir(env: impl Fn(&str) -> Option<String>) -> Option<String> {
    let absolute = |p: &String| p.starts_with('/');
    if let Some(state) = env("XDG_STATE_HOME").filter(absolute) {
        return Some(join(&state, "hookgate"));
    }
    let home = env("HOME").filter(absolute)?;
    Some(join(&join(&home, ".local/state"), "hookgate"))
}

/// `dir/name`, without doubling a trailing separator (like `Path::join`
/// for a relative `name`).
fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// Prefix of every local named pipe's name on Windows.
pub const PIPE_PREFIX: &str = r"\\.\pipe\";

/// Whether `name` is a local named pipe's name: `\\.\pipe\` (any case)
/// followed by at least one character.
pub fn is_pipe_name(name: &str) -> bool {
    name.len() > PIPE_PREFIX.len()
        && name
            .get(..PIPE_PREFIX.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(PIPE_PREFIX))
}

/// The named pipe for the current Windows user, given a way to read
/// environment variables: `$HOOKGATE_SOCKET`, else
/// `\\.\pipe\hookgate-<USERNAME>\gateway`. A backslash in the user name
/// (which would start a new name component) becomes `_`.
pub fn resolve_pipe(env: impl Fn(&str) -> Option<String>) -> String {
    if let Some(path) = env(SOCKET_ENV).filter(|p| !p.is_empty()) {
        return path;
    }
    let user: String = env("USERNAME")
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| String::from("user"))
        .chars()
        .map(|c| if c == '\\' || c == '/' { '_' } else { c })
        .collect();
    format!("{PIPE_PREFIX}hookgate-{user}\\gateway")
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
    use std::path::PathBuf;

    use super::*;

    fn env_of<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    /// A home whose socket path would not fit a socket address.
    const LONG_HOME: &str =
        "/home/a-user-with-a-very-long-home-directory-path/that/goes/on/and/on/and/on";

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
                &[("XDG_RUNTIME_DIR", "/run/user/1/")],
                "/run/user/1/hookgate/gateway.sock",
            ),
            (
                &[("TMPDIR", "/var/tmp")],
                "/var/tmp/hookgate-42/gateway.sock",
            ),
            (
                &[("TMPDIR", "/var/tmp/")],
                "/var/tmp/hookgate-42/gateway.sock",
            ),
            (&[], "/tmp/hookgate-42/gateway.sock"),
            // No runtime directory: the user's state directory, not /tmp,
            // which anyone can squat.
            (
                &[("HOME", "/home/ada"), ("TMPDIR", "/var/tmp")],
                "/home/ada/.local/state/hookgate/gateway.sock",
            ),
            (
                &[("XDG_STATE_HOME", "/st"), ("HOME", "/home/ada")],
                "/st/hookgate/gateway.sock",
            ),
            (
                &[("XDG_STATE_HOME", "relative"), ("HOME", "/home/ada")],
                "/home/ada/.local/state/hookgate/gateway.sock",
            ),
            (&[("HOME", "relative")], "/tmp/hookgate-42/gateway.sock"),
            (&[("HOME", LONG_HOME)], "/tmp/hookgate-42/gateway.sock"),
        ];
        for (env, expected) in cases {
            assert_eq!(resolve(env_of(env), 42), *expected, "{env:?}");
        }
    }

    #[test]
    fn pipe_resolution() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (
                &[("HOOKGATE_SOCKET", r"\\.\pipe\mine"), ("USERNAME", "ada")],
                r"\\.\pipe\mine",
            ),
            (&[("USERNAME", "ada")], r"\\.\pipe\hookgate-ada\gateway"),
            (
                &[("HOOKGATE_SOCKET", ""), ("USERNAME", r"CORP\ada/x")],
                r"\\.\pipe\hookgate-CORP_ada_x\gateway",
            ),
            (&[], r"\\.\pipe\hookgate-user\gateway"),
        ];
        for (env, expected) in cases {
            assert_eq!(resolve_pipe(env_of(env)), *expected, "{env:?}");
        }
    }

    #[test]
    fn pipe_names() {
        for (name, is_pipe) in [
            (r"\\.\pipe\x", true),
            (r"\\.\PIPE\hookgate-ada\gateway", true),
            (r"\\.\pipe\", false),
            (r"\\?\pipe\x", false),
            ("/tmp/gateway.sock", false),
            ("", false),
        ] {
            assert_eq!(is_pipe_name(name), is_pipe, "{name}");
        }
    }

    /// The string joins agree with `Path::join`, which the gateway used.
    #[test]
    fn joins_like_path_join() {
        for dir in ["/run/user/1", "/run/user/1/", "rel", "rel/", "/"] {
            assert_eq!(
                PathBuf::from(join(dir, "hookgate")),
                PathBuf::from(dir).join("hookgate"),
                "{dir}"
            );
        }
    }
}
