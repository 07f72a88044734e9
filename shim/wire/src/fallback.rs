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
//! Format: one line per fallback, `<unix_secs> <reason>\n` (see
//! [`encode_line`]), where `reason` is one of [`Reason::ALL`]. Readers
//! ([`parse_line`]) must count unknown reasons as "other": new ones may be
//! added, and an older gateway may read a newer shim's record.

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

/// Why the shim answered on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// No gateway at the socket, connection refused, the socket is not
    /// owned by this user, or it closed before taking the request.
    Unreachable,
    /// No reply within `HOOKGATE_TIMEOUT_MS`.
    Timeout,
    /// The reply was not a valid frame or had an exit code outside 0..=255.
    BadReply,
    /// stdin exceeded [`MAX_STDIN`](crate::MAX_STDIN).
    Oversize,
    /// The shim's command line is wrong (a misconfigured hook).
    Usage,
}

impl Reason {
    /// Every reason, in the order reports list them.
    pub const ALL: [Reason; 5] = [
        Reason::Unreachable,
        Reason::Timeout,
        Reason::BadReply,
        Reason::Oversize,
        Reason::Usage,
    ];

    /// The token in the record.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Unreachable => "unreachable",
            Reason::Timeout => "timeout",
            Reason::BadReply => "bad_reply",
            Reason::Oversize => "oversize",
            Reason::Usage => "usage",
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

/// The record line for one fallback, newline included. The shim writes it
/// with a single `write` on an `O_APPEND` file, so lines never interleave.
pub fn encode_line(unix_secs: u64, reason: Reason) -> String {
    format!("{unix_secs} {reason}\n")
}

/// One line of the record, as read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    /// When the shim fell back; `None` if the field is not a number (the
    /// line still counts: the reason is what reports show).
    pub unix_secs: Option<u64>,
    /// The reason, or the unknown token as written.
    pub reason: Result<Reason, &'a str>,
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
    fn every_reason_round_trips_through_a_line() {
        for reason in Reason::ALL {
            let line = encode_line(1700000000, reason);
            assert_eq!(line, format!("1700000000 {}\n", reason.as_str()));
            assert_eq!(
                parse_line(&line),
                Some(Entry {
                    unix_secs: Some(1700000000),
                    reason: Ok(reason),
                })
            );
        }
    }

    #[test]
    fn tokens_are_the_documented_ones() {
        let tokens: Vec<&str> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            tokens,
            ["unreachable", "timeout", "bad_reply", "oversize", "usage"]
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
            })
        );
        assert_eq!(
            parse_line("soon timeout extra fields"),
            Some(Entry {
                unix_secs: None,
                reason: Ok(Reason::Timeout),
            })
        );
        assert_eq!(parse_line("garbage"), None);
        assert_eq!(parse_line(""), None);
        assert_eq!(parse_line("   \n"), None);
    }
}
