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
//!
//! A start that cannot work ends the wait at once instead of costing every
//! hook call the whole deadline: a gateway binary that is missing or not
//! executable is never spawned, and a gateway that exits before serving
//! (an invalid config) frees the start lock, which the shim checks between
//! tries. The call then falls back with [`Failure::AutostartFailed`] and
//! the reason from the start-failure record (`hookgate_wire::start_record`: the
//! gateway writes why it stopped; the shim writes it when the gateway could
//! not run or left none), which the fail-closed reply, `gateway status` and
//! `gateway doctor` show.

use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use crate::call::{self, Answered, Failure};
#[cfg(unix)]
use crate::record;
#[cfg(unix)]
use crate::sys;

/// `1` turns autostart on.
pub(crate) const AUTOSTART_ENV: &str = "HOOKGATE_AUTOSTART";
/// The gateway binary's absolute path.
pub(crate) const GATEWAY_ENV: &str = "HOOKGATE_GATEWAY";
/// How often the shim tries the socket (and the start lock) again while
/// the gateway starts: a try is a `connect` and a `flock`, microseconds.
#[cfg(unix)]
const POLL_MS: u64 = 5;

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
    hold_limit: Option<Duration>,
) -> Result<Answered, Failure> {
    let first = call::call(socket, frame.clone(), deadline, hold_limit);
    match autostart {
        Some(autostart) if matches!(first, Err(Failure::Unreachable(_))) => {
            start_and_call(autostart, socket, frame, (deadline, hold_limit), first)
        }
        _ => first,
    }
}

/// Windows has no autostart: the first answer stands.
#[cfg(not(unix))]
fn start_and_call(
    _autostart: &Autostart,
    _socket: &str,
    _frame: Vec<u8>,
    _deadlines: (Duration, Option<Duration>),
    first: Result<Answered, Failure>,
) -> Result<Answered, Failure> {
    first
}

/// Starts the gateway (unless one is starting), then tries the call every
/// [`POLL_MS`] until it is answered, the gateway is gone, or the deadline
/// is near (then `first` stands).
#[cfg(unix)]
fn start_and_call(
    autostart: &Autostart,
    socket: &str,
    frame: Vec<u8>,
    (deadline, hold_limit): (Duration, Option<Duration>),
    first: Result<Answered, Failure>,
) -> Result<Answered, Failure> {
    let started = match start(autostart, socket) {
        Start::Waiting(started) => started,
        Start::Impossible => return first,
        Start::Failed(why) => return Err(Failure::AutostartFailed(why)),
    };
    let poll = Duration::from_millis(POLL_MS);
    loop {
        if sys::now() + poll >= deadline {
            return first;
        }
        sys::sleep_ms(POLL_MS);
        match call::call(socket, frame.clone(), deadline, hold_limit) {
            Err(Failure::Unreachable(_)) if started.gone() => {
                return Err(Failure::AutostartFailed(started.why(socket)));
            }
            Err(Failure::Unreachable(_)) => continue,
            other => return other,
        }
    }
}

/// What asking for a gateway came to.
#[cfg(unix)]
enum Start {
    /// A gateway is starting (this shim's or another's): wait for it.
    Waiting(Started),
    /// Nothing can be started here (the socket's directory is not this
    /// user's): the call falls back as if autostart were off.
    Impossible,
    /// It cannot start, and this says why (also in the record).
    Failed(String),
}

/// A start in progress: the lock that says whether its gateway still runs.
#[cfg(unix)]
struct Started {
    lock: String,
    /// When it was asked for (Unix seconds): an older record is stale.
    at: u64,
}

#[cfg(unix)]
impl Started {
    /// Whether the gateway is gone (it exited, or never ran): nobody holds
    /// the start lock any more.
    fn gone(&self) -> bool {
        sys::lock_is_free(&self.lock)
    }

    /// Why it is gone: the record the gateway left, else this shim's own
    /// words (written to the record for status and doctor).
    fn why(&self, socket: &str) -> String {
        if let Some(reason) = record::read_start_failure(socket, self.at) {
            return reason;
        }
        let reason = alloc::format!(
            "the gateway exited before serving (see {}/gateway.log)",
            hookgate_wire::path::parent(socket)
        );
        record::write_start_failure(socket, &reason);
        reason
    }
}

/// Starts the gateway for `socket` unless another shim holds the lock
/// (then it is starting, or runs).
#[cfg(unix)]
fn start(autostart: &Autostart, socket: &str) -> Start {
    use alloc::format;
    use hookgate_wire::path;

    if !sys::is_executable(&autostart.gateway) {
        let why = match sys::stat(&autostart.gateway) {
            Err(_) => format!("the gateway {} does not exist", autostart.gateway),
            Ok(_) => format!(
                "the gateway {} is not an executable file",
                autostart.gateway
            ),
        };
        record::write_start_failure(socket, &why);
        return Start::Failed(why);
    }
    let dir = path::parent(socket);
    // The state directory (`~/.local/state/hookgate`) may not exist yet:
    // create it and up to two missing parents, 0700 (as the record does).
    for dir in [path::parent(path::parent(dir)), path::parent(dir), dir] {
        let _ = sys::mkdir_private(dir);
    }
    // Lock and log only in a directory of this user's.
    match sys::lstat(dir) {
        Ok(meta) if meta.is_dir() && meta.uid == sys::current_uid() => {}
        _ => return Start::Impossible,
    }
    let lock = format!("{dir}/gateway.autostart.lock");
    let log = format!("{dir}/gateway.log");
    let args = ["serve", "--socket", socket];
    let env: Vec<&str> = autostart.env.iter().map(String::as_str).collect();
    let at = sys::unix_secs();
    match sys::start_detached(&autostart.gateway, &args, &env, &lock, &log) {
        Ok(_) => Start::Waiting(Started { lock, at }),
        Err(_) => Start::Impossible,
    }
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
