//! The reply to give when no decision can be had: the gateway is down, too
//! slow, or the payload could not be parsed.
//!
//! Dependency-free: the shim renders these replies itself. `Open` is each
//! agent's neutral reply (the agent goes on as if no hook ran); `Closed`
//! blocks whatever the event lets a hook block, in the way that agent obeys
//! (Claude Code: exit 2 or a JSON decision; Cursor: exit 2; Cline: a
//! `cancel` JSON on stdout, since Cline ignores exit codes).

use crate::{Dialect, FailMode, Reply};

/// The reply for `dialect` and `native_event` (when known) under `mode`.
/// `message` explains the block to the user and model (closed mode only).
pub fn fallback(dialect: Option<Dialect>, native_event: Option<&str>, mode: FailMode, message: &str) -> Reply {
    let _ = (dialect, native_event, mode, message);
    Reply::default() // IMPLEMENT
}
