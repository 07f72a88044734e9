//! Writing the hook's answer: stdout, stderr, exit code, and nothing else.
//!
//! Agents parse stdout (Claude Code and Cursor as JSON, Cline as JSON), so
//! the shim never writes anything to stdout but the reply. Write errors are
//! ignored: an agent that closed its pipes is no longer listening, and the
//! exit code still tells it the outcome.

use std::io::{self, Write};
use std::process::ExitCode;

/// Writes a reply's bytes, stdout first.
pub(crate) fn emit(stdout: &[u8], stderr: &[u8]) {
    write_all(&mut io::stdout().lock(), stdout);
    write_all(&mut io::stderr().lock(), stderr);
}

/// One diagnostic line on stderr, prefixed with the program name.
pub(crate) fn note(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "gateway-shim: {line}");
}

fn write_all(out: &mut impl Write, bytes: &[u8]) {
    if !bytes.is_empty() {
        let _ = out.write_all(bytes).and_then(|()| out.flush());
    }
}

/// The process exit code for a reply's `exit_code`. Gateway replies are
/// checked to be in 0..=255 before they get here (anything else is a bad
/// reply: truncating 256 to 0 would turn it into "allow"); an out-of-range
/// fallback code would be an adapters bug and becomes 1, which every agent
/// reads as a non-blocking hook error.
pub(crate) fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
