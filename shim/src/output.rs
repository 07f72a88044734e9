//! Writing the hook's answer: stdout, stderr, exit code, and nothing else.
//!
//! Agents parse stdout (Claude Code and Cursor as JSON, Cline as JSON), so
//! the shim never writes anything to stdout but the reply. Write errors
//! change nothing in the answer: an agent that closed its pipes is no
//! longer listening, and the exit code still tells it the outcome; only
//! the acknowledgement to the gateway depends on stdout taking the reply.

use alloc::format;

use crate::sys;

/// Writes a reply's bytes, stdout first; whether stdout took them (an
/// agent that closed it, having given up on the hook, did not get them).
pub(crate) fn emit(stdout: &[u8], stderr: &[u8]) -> bool {
    let written = sys::write_stdout(stdout).is_ok();
    let _ = sys::write_stderr(stderr);
    written
}

/// One diagnostic line on stderr, prefixed with the program name, in one
/// write.
pub(crate) fn note(line: &str) {
    let _ = sys::write_stderr(format!("gateway-shim: {line}\n").as_bytes());
}

/// The process exit code for a reply's `exit_code`. Gateway replies are
/// checked to be in 0..=255 before they get here (anything else is a bad
/// reply: truncating 256 to 0 would turn it into "allow"); an out-of-range
/// fallback code would be an adapters bug and becomes 1, which every agent
/// reads as a non-blocking hook error.
pub(crate) fn exit_code(code: i32) -> u8 {
    u8::try_from(code).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_outside_a_byte_become_one() {
        let cases = [(0, 0), (2, 2), (255, 255), (256, 1), (-1, 1)];
        for (code, expected) in cases {
            assert_eq!(exit_code(code), expected, "{code}");
        }
    }
}
