//! Payload bytes to canonical event: dispatch to the dialect's adapter.

use crate::dispatch::adapter;
use crate::{Detected, Dialect, HookEvent, ParseError};

/// Parses `payload` as `dialect` (usually from [`crate::detect`]).
///
/// Unknown events and unknown fields are not errors: an unknown event
/// becomes [`crate::EventKind::Other`] (non-blocking, no capabilities).
/// Malformed input gives a [`ParseError`] naming the field.
pub fn parse(dialect: Dialect, payload: &[u8]) -> Result<HookEvent, ParseError> {
    (adapter(dialect).parse)(payload, None)
}

/// Parses `payload` as `detected` says: its dialect, and for a dialect
/// whose payloads name no event (Copilot CLI's camelCase hooks) the event
/// the shim was given on its command line.
pub fn parse_detected(detected: &Detected, payload: &[u8]) -> Result<HookEvent, ParseError> {
    (adapter(detected.dialect).parse)(payload, detected.native_event.as_deref())
}
