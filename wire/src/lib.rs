//! The frames gateway-shim and the gateway exchange over the local socket.
//!
//! Defined once, here, on the other contract alone (`hookgate_dialect`,
//! whose [`Reply`] a reply frame carries): the shim must stay free of
//! tokio and serde, and the gateway must not guess at the shim's bytes.
//! The crate is sans-I/O at its core ([`Header::decode`], [`Request::decode`],
//! [`ReplyFrame::decode`] work on byte slices) and needs only `alloc`, so the
//! shim (a `no_std` binary) shares it. It has no features: the shim and the
//! gateway link the same crate, so one `cargo build --workspace` builds
//! both. The gateway reads with tokio and decodes here.
//!
//! A frame is a 10-byte header followed by a body:
//!
//! ```text
//! magic "HKGT" | version u8 | kind u8 | body length u32 (big endian)
//! ```
//!
//! Bodies are sequences of fields; a byte string is a u32 length and the
//! bytes, a list is a u32 count and its items. One connection carries one
//! request and one reply, and, from a shim that sends [`DEADLINE_VAR`],
//! one acknowledgement after the reply was written for the agent (an empty
//! [`FrameKind::Ack`] frame; a gateway that does not wait for it has closed
//! the connection, and the shim ignores the failed write).
//!
//! A call the gateway holds for a person (the built-in `approval`) is
//! announced to the shim with [`FrameKind::Hold`] frames before the reply,
//! only when the shim said how long it may be held ([`HOLD_UNTIL_VAR`]):
//! older shims never see one, and their calls are held only within their
//! own deadline.
//!
//! Modules: `frame` holds the frame types and their layout, `codec` the
//! field encoding they share, `error` what a bad frame is; [`socket`] says
//! where the socket lives, [`path`] does path arithmetic on strings for the
//! `no_std` shim, [`fallback_record`] how the shim records answering
//! without the gateway, and [`start_record`] why the last start of a
//! gateway failed.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

mod codec;
mod error;
pub mod fallback_record;
mod frame;
pub mod path;
pub mod socket;
pub mod start_record;
#[cfg(test)]
mod tests;

pub use error::WireError;
pub use frame::{FrameKind, Header, Hold, Reply, ReplyFrame, Request};

/// First bytes of every frame, so a stray client fails fast and clearly.
pub const MAGIC: [u8; 4] = *b"HKGT";
/// Bumped on any incompatible change of the body layout.
pub const PROTOCOL_VERSION: u8 = 1;
/// Size of the fixed frame header.
pub const HEADER_LEN: usize = 10;
/// The most stdin the shim forwards. Claude Code sends whole file contents
/// in `Write` tool inputs, so this is generous; the rest is bounded by it.
pub const MAX_STDIN: usize = 8 * 1024 * 1024;
/// Largest request body: stdin plus argv, cwd and environment.
pub const MAX_REQUEST_BODY: usize = MAX_STDIN + 256 * 1024;
/// Largest reply body. Replies carry at most a rewritten tool input and
/// context (agents cap context at 10,000–50,000 characters).
pub const MAX_REPLY_BODY: usize = MAX_STDIN + 64 * 1024;
/// The variable in which the shim forwards the fail mode it resolved for
/// this hook call (`open` or `closed`: its flag, else its `HOOKGATE_FAIL`,
/// else open), so the gateway answers a payload it cannot understand the
/// way the shim would.
pub const FAIL_MODE_VAR: &str = "HOOKGATE_FAIL";
/// The variable in which the shim forwards when it will answer by itself:
/// its deadline, in milliseconds since the Unix epoch (the wall clock both
/// processes share; the shim's own deadline is monotonic). A shim that
/// sends it also acknowledges the reply ([`FrameKind::Ack`]); the gateway
/// cuts its fan-out short of it and records whether the reply arrived in
/// time. Shims before it send neither, and are still served.
pub const DEADLINE_VAR: &str = "HOOKGATE_DEADLINE_UNIX_MS";
/// The variable in which a shim that accepts holds forwards the latest it
/// will ever wait for this call, in milliseconds since the Unix epoch: its
/// start plus its own hold maximum (`HOOKGATE_HOLD_MAX_MS` or
/// `--hold-max-ms`, as installed). Absent: the shim takes no
/// [`FrameKind::Hold`] frame, and the gateway sends none.
pub const HOLD_UNTIL_VAR: &str = "HOOKGATE_HOLD_UNTIL_UNIX_MS";
/// The longest a shim may be told to hold a call: one hour.
pub const MAX_HOLD_MS: u64 = 3_600_000;
/// Most hold frames a shim reads for one call: keep-alives are a few a
/// minute, and a gateway that sends more is broken.
pub const MAX_HOLD_FRAMES: usize = 4096;
/// Most argv entries or environment variables in a request.
pub const MAX_LIST_ITEMS: usize = 1024;
