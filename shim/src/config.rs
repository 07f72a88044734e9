//! The shim's settings, read from the environment the agent gave it.
//!
//! Hooks are configured as a command line in each agent's settings file, so
//! environment variables are the one knob every agent lets users set:
//!
//! - `HOOKGATE_SOCKET`: the gateway's socket or, on Windows, named pipe
//!   (see `hookgate_wire::socket`);
//! - `HOOKGATE_TIMEOUT_MS`: the total deadline, default 5000 ms;
//! - `HOOKGATE_FAIL`: `open` (default) or `closed`;
//! - `HOOKGATE_HOLD_MAX_MS`: the longest, from its start, this shim waits
//!   for a call the gateway holds for a person (default 0: it takes no
//!   holds); `--hold-max-ms=N` on its command line wins;
//! - `HOOKGATE_DEBUG=1`: one diagnostic line on stderr for each fallback.
//!
//! A bad value never stops the hook: the default is used and one note goes
//! to stderr, so the mistake is visible in the agent's hook log.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use hookgate_dialect::FailMode;

use crate::sys;

/// Total deadline env variable.
pub(crate) const TIMEOUT_ENV: &str = "HOOKGATE_TIMEOUT_MS";
/// Fail mode env variable.
pub(crate) const FAIL_ENV: &str = "HOOKGATE_FAIL";
/// Hold maximum env variable.
pub(crate) const HOLD_MAX_ENV: &str = "HOOKGATE_HOLD_MAX_MS";
/// Debug diagnostics env variable.
pub(crate) const DEBUG_ENV: &str = "HOOKGATE_DEBUG";

/// Default total deadline, from process start to the reply. Every agent's
/// own hook timeout is at least 10 s (Claude Code 600 s, Cline 30 s, Gemini
/// CLI 60 s), and agents run hooks on every tool call, so a hung gateway must
/// cost at most a few seconds per call, not the agent's timeout.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_millis(5000);
/// Largest accepted `HOOKGATE_TIMEOUT_MS`: Claude Code's default hook timeout.
pub(crate) const MAX_TIMEOUT_MS: u64 = 600_000;
/// How long connecting may take. A local socket connects at once or not at
/// all; a connect that blocks means the gateway's backlog is full (on
/// Windows: every pipe instance is busy), which is "unreachable", not a slow
/// answer.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_millis(1000);

/// Settings from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Config {
    pub(crate) socket: String,
    /// The fallback record in the user's state directory, for fallbacks
    /// whose socket directory cannot hold one (see `record`).
    pub(crate) state_record: Option<String>,
    pub(crate) timeout: Duration,
    /// From `HOOKGATE_FAIL`; a command-line flag wins over it.
    pub(crate) fail_mode: Option<FailMode>,
    /// The longest a held call is waited for, from the shim's start
    /// (`None`: holds are refused).
    pub(crate) hold_max: Option<Duration>,
    pub(crate) debug: bool,
    /// One line per bad value, for stderr.
    pub(crate) notes: Vec<String>,
}

impl Config {
    /// Reads the settings through `env` (injected so tests need not mutate
    /// the process environment).
    pub(crate) fn from_env(env: impl Fn(&str) -> Option<String>) -> Config {
        let mut notes = Vec::new();
        let timeout = match env(TIMEOUT_ENV).filter(|v| !v.is_empty()) {
            None => DEFAULT_TIMEOUT,
            Some(value) => match value.trim().parse::<u64>() {
                Ok(ms) if (1..=MAX_TIMEOUT_MS).contains(&ms) => Duration::from_millis(ms),
                _ => {
                    notes.push(format!(
                        "{TIMEOUT_ENV} must be milliseconds in 1..={MAX_TIMEOUT_MS}; using {} ms",
                        DEFAULT_TIMEOUT.as_millis()
                    ));
                    DEFAULT_TIMEOUT
                }
            },
        };
        let fail_mode = match env(FAIL_ENV).filter(|v| !v.is_empty()) {
            None => None,
            Some(value) => match value.trim().to_ascii_lowercase().as_str() {
                "open" => Some(FailMode::Open),
                "closed" => Some(FailMode::Closed),
                _ => {
                    notes.push(format!(
                        "{FAIL_ENV} must be `open` or `closed`; failing open"
                    ));
                    None
                }
            },
        };
        let hold_max = match env(HOLD_MAX_ENV).filter(|v| !v.is_empty()) {
            None => None,
            Some(value) => match parse_hold_max(&value) {
                Some(hold_max) => hold_max,
                None => {
                    notes.push(format!(
                        "{HOLD_MAX_ENV} must be milliseconds in 0..={}; taking no holds",
                        hookgate_wire::MAX_HOLD_MS
                    ));
                    None
                }
            },
        };
        let debug = env(DEBUG_ENV).is_some_and(|v| v == "1");
        let socket = sys::socket_path(&env);
        Config {
            state_record: if cfg!(unix) {
                hookgate_wire::fallback_record::state_record_path(&env, &socket)
            } else {
                None
            },
            socket,
            timeout,
            fail_mode,
            hold_max,
            debug,
            notes,
        }
    }
}

/// A hold maximum as written (`HOOKGATE_HOLD_MAX_MS`, `--hold-max-ms`):
/// `Some(None)` for 0 (no holds), `None` when it is not milliseconds in
/// `0..=MAX_HOLD_MS`.
pub(crate) fn parse_hold_max(value: &str) -> Option<Option<Duration>> {
    match value.trim().parse::<u64>() {
        Ok(0) => Some(None),
        Ok(ms) if ms <= hookgate_wire::MAX_HOLD_MS => Some(Some(Duration::from_millis(ms))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use alloc::borrow::ToOwned;

    use super::*;

    fn config(pairs: &[(&str, &str)]) -> Config {
        Config::from_env(|name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn defaults() {
        let config = config(&[("HOOKGATE_SOCKET", "/x/gateway.sock")]);
        assert_eq!(config.socket, "/x/gateway.sock");
        assert_eq!(config.timeout, DEFAULT_TIMEOUT);
        assert_eq!(config.fail_mode, None);
        assert!(!config.debug);
        assert!(config.notes.is_empty());
    }

    #[test]
    fn timeouts() {
        let cases: &[(&str, u64, bool)] = &[
            ("300", 300, false),
            (" 1500 ", 1500, false),
            ("600000", 600_000, false),
            ("", 5000, false),
            ("0", 5000, true),
            ("600001", 5000, true),
            ("-5", 5000, true),
            ("5s", 5000, true),
        ];
        for (value, ms, noted) in cases {
            let config = config(&[(TIMEOUT_ENV, value)]);
            assert_eq!(config.timeout, Duration::from_millis(*ms), "{value:?}");
            assert_eq!(!config.notes.is_empty(), *noted, "{value:?}");
        }
    }

    #[test]
    fn fail_modes() {
        let cases: &[(&str, Option<FailMode>, bool)] = &[
            ("open", Some(FailMode::Open), false),
            ("closed", Some(FailMode::Closed), false),
            ("CLOSED", Some(FailMode::Closed), false),
            ("", None, false),
            ("shut", None, true),
        ];
        for (value, mode, noted) in cases {
            let config = config(&[(FAIL_ENV, value)]);
            assert_eq!(config.fail_mode, *mode, "{value:?}");
            assert_eq!(!config.notes.is_empty(), *noted, "{value:?}");
        }
    }

    #[test]
    fn hold_maximums() {
        let cases: &[(&str, Option<u64>, bool)] = &[
            ("120000", Some(120_000), false),
            ("0", None, false),
            ("", None, false),
            ("3600000", Some(3_600_000), false),
            ("3600001", None, true),
            ("2m", None, true),
        ];
        for (value, ms, noted) in cases {
            let config = config(&[(HOLD_MAX_ENV, value)]);
            assert_eq!(config.hold_max, ms.map(Duration::from_millis), "{value:?}");
            assert_eq!(!config.notes.is_empty(), *noted, "{value:?}");
        }
    }

    #[test]
    fn debug_only_when_one() {
        assert!(config(&[(DEBUG_ENV, "1")]).debug);
        assert!(!config(&[(DEBUG_ENV, "0")]).debug);
        assert!(!config(&[(DEBUG_ENV, "yes")]).debug);
    }
}
