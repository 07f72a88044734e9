//! Starting the gateway on demand: a shim that finds no gateway starts one
//! and answers this very call through it, within its deadline.
//!
//! On when the hook command sets `HOOKGATE_AUTOSTART=1` and names the
//! gateway binary by its absolute path in `HOOKGATE_GATEWAY` (what
//! `gateway install` writes). Only "unreachable" (no socket, connection
//! refused) triggers it; a busy, slow or untrusted gateway is left alone.
//! The shim then runs `$HOOKGATE_GATEWAY serve --socket <its socket>`
//! detached (`sys::start_detached`: double fork, `setsid`, single instance
//! by a lock file in the socket's directory, log in
//! `<socket dir>/gateway.log`) and retries the call every
//! [`POLL_MS`] until the deadline; if the gateway is not up by then, the
//! call falls back as before (and is recorded).

use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use hookgate_wire::Reply;

use crate::call::{self, Failure};
use crate::sys;

/// `1` turns autostart on.
pub(crate) const AUTOSTART_ENV: &str = "HOOKGATE_AUTOSTART";
/// The gateway binary's absolute path.
pub(crate) const GATEWAY_ENV: &str = "HOOKGATE_GATEWAY";
/// How often the shim tries the socket again while the gateway starts.
const POLL_MS: u64 = 20;

/// The variables the started gateway gets (where its config, state and
/// temporary files are, its log filter). Nothing else of the agent's
/// environment: agents hand hooks their API keys, and a long-lived daemon
/// has no use for them.
const GATEWAY_ENV_NAMES: [&str; 12] = [
    "HOME",
    "PATH",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "TMPDIR",
    "XDG_RUNTIME_DIR",
    "XDG_CONFIG_HOME",
    "XDG_STATE_HOME",
    "XDG_DATA_HOME",
    "RUST_LOG",
];

/// The gateway to start, when autostart is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Autostart {
    gateway: String,
    /// `NAME=value` for each of [`GATEWAY_ENV_NAMES`] that is set.
    env: Vec<String>,
}

impl Autostart {
    /// Autostart's settings; `None` when off or when the gateway path is
    /// not absolute (a relative one would depend on the agent's PATH and
    /// working directory, which is what install pins away).
    pub(crate) fn from_env(env: impl Fn(&str) -> Option<String>) -> Option<Autostart> {
        if env(AUTOSTART_ENV).as_deref() != Some("1") {
            return None;
        }
        let gateway = env(GATEWAY_ENV).filter(|p| p.starts_with('/'))?;
        let env = GATEWAY_ENV_NAMES
            .iter()
            .filter_map(|name| env(name).map(|value| alloc::format!("{name}={value}")))
            .collect();
        Some(Autostart { gateway, env })
    }
}

/// [`call::call`], starting the gateway first when it is unreachable and
/// `autostart` is on.
pub(crate) fn call(
    autostart: Option<&Autostart>,
    socket: &str,
    frame: Vec<u8>,
    deadline: Duration,
) -> Result<Reply, Failure> {
    let first = call::call(socket, frame.clone(), deadline);
    let Some(autostart) = autostart else {
        return first;
    };
    if !matches!(first, Err(Failure::Unreachable(_))) || !start(autostart, socket) {
        return first;
    }
    let poll = Duration::from_millis(POLL_MS);
    loop {
        if sys::now() + poll >= deadline {
            return first;
        }
        sleep_ms(POLL_MS);
        match call::call(socket, frame.clone(), deadline) {
            Err(Failure::Unreachable(_)) => continue,
            other => return other,
        }
    }
}

/// Starts the gateway for `socket` unless another shim holds the lock
/// (then it is starting, or runs). `false` when nothing can be started.
#[cfg(unix)]
fn start(autostart: &Autostart, socket: &str) -> bool {
    use alloc::format;
    use hookgate_wire::path;

    let dir = path::parent(socket);
    // The state directory (`~/.local/state/hookgate`) may not exist yet:
    // create it and up to two missing parents, 0700 (as the record does).
    for dir in [path::parent(path::parent(dir)), path::parent(dir), dir] {
        let _ = sys::mkdir_private(dir);
    }
    // Lock and log only in a directory of this user's.
    match sys::lstat(dir) {
        Ok(meta) if meta.is_dir() && meta.uid == sys::current_uid() => {}
        _ => return false,
    }
    let lock = format!("{dir}/gateway.autostart.lock");
    let log = format!("{dir}/gateway.log");
    let args = ["serve", "--socket", socket];
    let env: Vec<&str> = autostart.env.iter().map(String::as_str).collect();
    sys::start_detached(&autostart.gateway, &args, &env, &lock, &log).is_ok()
}

#[cfg(unix)]
fn sleep_ms(ms: u64) {
    sys::sleep_ms(ms);
}

#[cfg(not(unix))]
fn sleep_ms(ms: u64) {
    std::thread::sleep(Duration::from_millis(ms));
}

#[cfg(not(unix))]
fn start(_autostart: &Autostart, _socket: &str) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use alloc::borrow::ToOwned;

    use super::*;

    #[test]
    fn on_only_with_the_switch_and_an_absolute_gateway() {
        let cases: &[(&[(&str, &str)], bool)] = &[
            (
                &[("HOOKGATE_AUTOSTART", "1"), ("HOOKGATE_GATEWAY", "/bin/gw")],
                true,
            ),
            (
                &[("HOOKGATE_AUTOSTART", "0"), ("HOOKGATE_GATEWAY", "/bin/gw")],
                false,
            ),
            (
                &[("HOOKGATE_AUTOSTART", "1"), ("HOOKGATE_GATEWAY", "gw")],
                false,
            ),
            (&[("HOOKGATE_AUTOSTART", "1")], false),
            (&[("HOOKGATE_GATEWAY", "/bin/gw")], false),
        ];
        for (env, on) in cases {
            let got = Autostart::from_env(|name| {
                env.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            });
            assert_eq!(got.is_some(), *on, "{env:?}");
        }
    }

    #[test]
    fn the_gateway_gets_only_the_variables_it_needs() {
        let env = [
            ("HOOKGATE_AUTOSTART", "1"),
            ("HOOKGATE_GATEWAY", "/bin/gw"),
            ("HOME", "/home/ada"),
            ("OPENAI_API_KEY", "sk-secret"),
            ("XDG_RUNTIME_DIR", "/run/user/1"),
        ];
        let got = Autostart::from_env(|name| {
            env.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        })
        .unwrap();
        assert_eq!(got.env, ["HOME=/home/ada", "XDG_RUNTIME_DIR=/run/user/1"]);
    }
}
