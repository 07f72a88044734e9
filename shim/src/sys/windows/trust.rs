//! Whether the pipe's server runs as this user.
//!
//! The payload holds the user's code and the reply can allow anything, so
//! the shim must not talk to a pipe another user serves. The pipe namespace
//! is machine-wide: any user can create `\\.\pipe\hookgate-<user>\gateway`
//! while the gateway is down. The gateway's owner-only DACL protects its
//! own pipe from other users' clients, not the shim from another user's
//! server; so after connecting, the shim asks Windows which process serves
//! the pipe (`GetNamedPipeServerProcessId`) and compares the user in that
//! process's token with its own. A server it cannot check is refused
//! ("unreachable"), like a Unix socket it cannot `stat`.

use hookgate_identity::UserSid;

/// Accepts the server process `pid` only if it runs as this process's user.
pub(super) fn check_server(pid: u32) -> Result<(), String> {
    let own = UserSid::current().map_err(|err| format!("this process's user: {err}"))?;
    let server = UserSid::of_process(pid)
        .map_err(|err| format!("the pipe's server (process {pid}): {err}"))?;
    if server == own {
        Ok(())
    } else {
        Err(format!(
            "the pipe's server (process {pid}) runs as another user"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_its_own_user() {
        assert_eq!(check_server(std::process::id()), Ok(()));
    }

    #[test]
    fn a_missing_process_is_refused() {
        // Process ids are multiples of 4 on Windows: this one never exists.
        let pid = u32::MAX - 2;
        let refused = check_server(pid).unwrap_err();
        // The server's process, not our own user lookup, is what failed.
        assert!(
            refused.starts_with(&format!("the pipe's server (process {pid})")),
            "{refused}"
        );
    }
}
