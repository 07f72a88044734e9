//! The start-failure record: why the last start of a gateway for a socket
//! failed, so a broken autostart is explained where the user looks (the
//! fail-closed message, `gateway status`, `gateway doctor`) and not only in
//! `gateway.log`.
//!
//! Path: the socket path with [`RECORD_SUFFIX`] appended to its file name
//! ([`record_path`]; `None` for a named pipe, as for the fallback record).
//! Written by the gateway when `gateway serve` fails before it serves (an
//! invalid config, a socket it cannot bind), and by the shim when autostart
//! cannot even run it (the binary missing or not executable) or it exited
//! without writing one. Removed by the gateway once it serves. The file
//! holds one line, `<unix_secs> <reason>\n` ([`encode`]), the whole file
//! replaced on each write (the last failure is what matters); the reason is
//! [`sanitize`]d: one line of printable text, at most [`MAX_REASON`] bytes.
//! Readers bound what they read by [`MAX_RECORD`] and ignore anything they
//! cannot parse.

use alloc::format;
use alloc::string::String;

/// Suffix added to the socket's file name to name the record.
pub const RECORD_SUFFIX: &str = ".start-failed";
/// The longest reason kept (a config error with its path and position).
pub const MAX_REASON: usize = 480;
/// The most a reader reads of the record: one line, the reason capped.
pub const MAX_RECORD: usize = MAX_REASON + 32;

/// Where the record of the gateway at `socket` lives (`None`: a named pipe,
/// or no file name).
pub fn record_path(socket: &str) -> Option<String> {
    if crate::socket::is_pipe_name(socket) {
        return None;
    }
    crate::path::with_name_suffix(socket, RECORD_SUFFIX)
}

/// `reason` as the record keeps it: control characters (newlines, terminal
/// escapes) become spaces, runs of spaces one, trimmed, cut at a character
/// boundary to at most [`MAX_REASON`] bytes (with `…` when cut).
pub fn sanitize(reason: &str) -> String {
    let mut out = String::with_capacity(reason.len().min(MAX_REASON));
    let mut space = false;
    for c in reason.trim().chars() {
        let c = if c.is_control() { ' ' } else { c };
        if c == ' ' {
            if space {
                continue;
            }
            space = true;
        } else {
            space = false;
        }
        if out.len() + c.len_utf8() > MAX_REASON - '…'.len_utf8() {
            out.push('…');
            return out;
        }
        out.push(c);
    }
    String::from(out.trim_end())
}

/// The record's text for a failure at `unix_secs`.
pub fn encode(unix_secs: u64, reason: &str) -> String {
    format!("{unix_secs} {}\n", sanitize(reason))
}

/// One record, as read back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure<'a> {
    /// When the start failed (Unix seconds).
    pub unix_secs: u64,
    /// Why, as written.
    pub reason: &'a str,
}

/// Reads a record's text; `None` when it is not one (empty, no time, no
/// reason).
pub fn parse(text: &str) -> Option<Failure<'_>> {
    let line = text.lines().next()?;
    let (secs, reason) = line.split_once(' ')?;
    let reason = reason.trim();
    if reason.is_empty() {
        return None;
    }
    Some(Failure {
        unix_secs: secs.parse().ok()?,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_sits_next_to_the_socket() {
        assert_eq!(
            record_path("/run/user/1/hookgate/gateway.sock").as_deref(),
            Some("/run/user/1/hookgate/gateway.sock.start-failed")
        );
        assert_eq!(record_path(r"\\.\pipe\hookgate-ada\gateway"), None);
    }

    #[test]
    fn records_round_trip_as_one_printable_line() {
        let text = encode(
            1_700_000_000,
            "invalid config at /h/.config/hookgate/gateway.toml:1:14:\n  \x1b[31mexpected `=`\x1b[0m\r\n",
        );
        assert_eq!(text.lines().count(), 1);
        let failure = parse(&text).unwrap();
        assert_eq!(failure.unix_secs, 1_700_000_000);
        assert_eq!(
            failure.reason,
            "invalid config at /h/.config/hookgate/gateway.toml:1:14: [31mexpected `=` [0m"
        );
        assert!(!failure.reason.chars().any(char::is_control));
    }

    #[test]
    fn long_reasons_are_cut_at_a_character_boundary() {
        let long = "é".repeat(MAX_REASON);
        let kept = sanitize(&long);
        assert!(kept.len() <= MAX_REASON, "{}", kept.len());
        assert!(kept.ends_with('…'));
        assert!(encode(1, &long).len() <= MAX_RECORD);
    }

    #[test]
    fn anything_else_is_no_record() {
        for text in ["", "\n", "12", "12 ", "soon broken", "12  \n"] {
            assert_eq!(parse(text), None, "{text:?}");
        }
    }
}
