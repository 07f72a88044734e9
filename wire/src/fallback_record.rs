//! The fallback record: the contract between the shim, which appends a line
//! each time it answers without the gateway, and the gateway, which counts
//! them for `gateway status`. Defined here so both sides share one suffix,
//! one list of reasons and one line format.
//!
//! Path: the socket path with [`RECORD_SUFFIX`] appended to its file name,
//! e.g. `$XDG_RUNTIME_DIR/hookgate/gateway.sock.fallbacks` ([`record_path`]).
//! A Windows named pipe has no record: a pipe name plus a suffix names
//! another pipe, not a file, so neither side looks for one there.
//!
//! Format: one line per fallback, `<unix_secs> <reason> <mode>\n` (see
//! [`encode_line`]), where `reason` is one of [`Reason::ALL`] and `mode`
//! the shim's fail mode for that call ([`Mode`]: whether the agent was let
//! through or blocked). Readers ([`parse_line`]) must count unknown reasons
//! as "other" and read a line without a mode (an older shim's) as of an
//! unknown mode: new reasons may be added, and an older gateway may read a
//! newer shim's record.

use alloc::format;
use alloc::string::String;
use core::fmt;
use core::str::FromStr;

/// Suffix added to the socket's file name to name the record.
pub const RECORD_SUFFIX: &str = ".fallbacks";

/// Where the record of the gateway at `socket` lives, or `None` when there
/// is none: `socket` is a named pipe, or has no file name (`/`, `..`).
pub fn record_path(socket: &str) -> Option<String> {
    if crate::socket::is_pipe_name(socket) {
        return None;
    }
    crate::path::with_name_suffix(socket, RECORD_SUFFIX)
}

/// File name prefix of the records kept in the user's state directory, for
/// fallbacks whose socket directory cannot hold one (squatted, missing or
/// another user's), so they are still counted somewhere the user owns.
pub const STATE_RECORD_PREFIX: &str = "shim-fallbacks-";

/// The state-directory record of the gateway at `socket`:
/// `<state dir>/shim-fallbacks-<hash of the socket path>` (see
/// `socket::state_dir`), one per socket so each gateway counts its own
/// shims only; `None` when the state directory is unknown.
pub fn state_record_path(env: impl Fn(&str) -> Option<String>, socket: &str) -> Option<String> {
    let dir = crate::socket::state_dir(env)?;
    Some(format!(
        "{dir}/{STATE_RECORD_PREFIX}{:016x}",
        fnv1a(socket.as_bytes())
    ))
}

/// 64-bit FNV-1a: a stable, dependency-free name for a socket path.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Why the shim answered on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// No gateway at the socket, connection refused, or it closed before
    /// taking the request.
    Unreachable,
    /// Something answers at the socket, but nothing proves this user runs
    /// it: the socket or its directory belongs to another user (a squatted
    /// directory), or the server process runs as another user.
    Untrusted,
    /// The gateway answered "busy": no connection slot within its queue
    /// wait.
    Busy,
    /// No reply within `HOOKGATE_TIMEOUT_MS`.
    Timeout,
    /// The reply was not a valid frame or had an exit code outside 0..=255.
    BadReply,
    /// stdin exceeded [`MAX_STDIN`](crate::MAX_STDIN).
    Oversize,
    /// The shim's command line is wrong (a misconfigured hook).
    Usage,
    /// Autostart could not start the gateway: its binary is missing or not
    /// executable, or it exited before serving (why: [`crate::start_record`]).
    AutostartFailed,
}

impl Reason {
    /// Every reason, in the order reports list them.
    pub const ALL: [Reason; 8] = [
        Reason::Unreachable,
        Reason::Untrusted,
        Reason::Busy,
        Reason::Timeout,
        Reason::BadReply,
        Reason::Oversize,
        Reason::Usage,
        Reason::AutostartFailed,
    ];

    /// The token in the record.
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Unreachable => "unreachable",
            Reason::Untrusted => "untrusted",
            Reason::Busy => "busy",
            Reason::Timeout => "timeout",
            Reason::BadReply => "bad_reply",
            Reason::Oversize => "oversize",
            Reason::Usage => "usage",
            Reason::AutostartFailed => "autostart_failed",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A reason token this side does not know (written by a newer shim, or
/// garbage). Readers count it as "other".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownReason;

impl fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown fallback reason")
    }
}

impl core::error::Error for UnknownReason {}

impl FromStr for Reason {
    type Err = UnknownReason;

    /// The reason named by a record token (exact match, as written by
    /// [`Reason::as_str`]).
    fn from_str(token: &str) -> Result<Reason, UnknownReason> {
        Reason::ALL
            .into_iter()
            .find(|reason| reason.as_str() == token)
            .ok_or(UnknownReason)
    }
}

/// What the shim's fallback reply did to the agent's action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Fail-open: the neutral reply, the action went ahead unchecked.
    Open,
    /// Fail-closed: the blocking reply, the action was refused.
    Closed,
}

impl Mode {
    /// The token in the record (the values of [`FAIL_MODE_VAR`](crate::FAIL_MODE_VAR)).
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Open => "open",
            Mode::Closed => "closed",
        }
    }

    fn from_token(token: &str) -> Option<Mode> {
        match token {
            "open" => Some(Mode::Open),
            "closed" => Some(Mode::Closed),
            _ => None,
        }
    }
}

/// The record line for one fallback, newline included. The shim writes it
/// with a single `write` on an `O_APPEND` file, so lines never interleave.
pub fn encode_line(unix_secs: u64, reason: Reason, mode: Mode) -> String {
    format!("{unix_secs} {reason} {}\n", mode.as_str())
}

/// One line of the record, as read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// When the shim fell back; `None` if the field is not a number (the
    /// line still counts: the reason is what reports show).
    pub unix_secs: Option<u64>,
    /// The reason, or the unknown token as written.
    pub reason: Result<Reason, &'a str>,
    /// The shim's fail mode; `None` from an older shim (no third field) or
    /// an unknown token.
    pub mode: Option<Mode>,
}

/// Reads one line (with or without its newline). Fields are separated by
/// whitespace and anything after the reason is ignored, so a future shim
/// may append fields. `None` for a line without both fields (blank or
/// garbage), which readers skip.
pub fn parse_line(line: &str) -> Option<Entry<'_>> {
    let mut fields = line.split_whitespace();
    let (secs, token) = (fields.next()?, fields.next()?);
    Some(Entry {
        unix_secs: secs.parse().ok(),
        reason: token.parse().map_err(|UnknownReason| token),
        mode: fields.next().and_then(Mode::from_token),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_path_appends_the_suffix() {
        assert_eq!(
            record_path("/run/user/1/hookgate/gateway.sock").as_deref(),
            Some("/run/user/1/hookgate/gateway.sock.fallbacks")
        );
        assert_eq!(record_path("/"), None);
        assert_eq!(record_path(r"\\.\pipe\hookgate-ada\gateway"), None);
    }

    #[test]
    fn state_records_are_per_socket() {
        let env = |name: &str| (name == "HOME").then(|| String::from("/home/ada"));
        let a = state_record_path(env, "/run/user/1/hookgate/gateway.sock").unwrap();
        let b = state_record_path(env, "/tmp/other.sock").unwrap();
        assert!(
            a.starts_with("/home/ada/.local/state/hookgate/shim-fallbacks-"),
            "{a}"
        );
        assert_ne!(a, b);
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(state_record_path(|_| None, "/x"), None);
    }

    #[test]
    fn every_reason_round_trips_through_a_line() {
        for reason in Reason::ALL {
            for mode in [Mode::Open, Mode::Closed] {
                let line = encode_line(1700000000, reason, mode);
                assert_eq!(
                    line,
                    format!("1700000000 {} {}\n", reason.as_str(), mode.as_str())
                );
                assert_eq!(
                    parse_line(&line),
                    Some(Entry {
                        unix_secs: Some(1700000000),
                        reason: Ok(reason),
                        mode: Some(mode),
                    })
                );
            }
        }
    }

    #[test]
    fn tokens_are_the_documented_ones() {
        let tokens: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            tokens,
            [
                "unreachable",
                "untrusted",
                "busy",
                "timeout",
                "bad_reply",
                "oversize",
                "usage",
                "autostart_failed"
            ]
        );
        assert_eq!("Timeout".parse::<Reason>(), Err(UnknownReason));
        assert_eq!("".parse::<Reason>(), Err(UnknownReason));
    }

    #[test]
    fn unknown_reasons_and_odd_lines_are_read_leniently() {
        assert_eq!(
            parse_line("1700000003 something_new"),
            Some(Entry {
                unix_secs: Some(1700000003),
                reason: Err("something_new"),
                mode: None,
            })
        );
        assert_eq!(
            parse_line("soon timeout closed extra fields"),
            Some(Entry {
                unix_secs: None,
                reason: Ok(Reason::Timeout),
                mode: Some(Mode::Closed),
            })
        );
        assert_eq!(parse_line("garbage"), None);
        assert_eq!(parse_line(""), None);
        assert_eq!(parse_line("   \n"), None);
    }
}
