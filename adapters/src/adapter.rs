//! One [`Adapter`] value per dialect: its parse and its render, so
//! [`crate::parse`] and [`crate::render`] dispatch in one line (through
//! `crate::dispatch`, which picks the value). What each event is and can
//! express is not here but in the dialect's events table in
//! `hookgate-dialect` ([`hookgate_dialect::events`]), which the shim's
//! fallback replies read too.

use crate::{Capabilities, Decision, Dialect, EventKind, HookEvent, ParseError, Rendered};

/// A dialect's entry points.
#[derive(Debug)]
pub(crate) struct Adapter {
    /// Parses a payload. The event the shim was given on its command line
    /// comes along for the dialect whose payloads name none (Copilot CLI's
    /// camelCase hooks); the others read the event from the payload.
    pub(crate) parse: fn(&[u8], Option<&str>) -> Result<HookEvent, ParseError>,
    /// Renders a merged decision as the agent's reply to the event.
    pub(crate) render: fn(&HookEvent, &Decision) -> Rendered,
}

/// `native`'s kind, capabilities and whether the agent waits for the
/// answer, by `dialect`'s table (an unknown event: `Other`, none, no), for
/// the adapters that build the event themselves.
pub(crate) fn behaviour(dialect: Dialect, native: &str) -> (EventKind, Capabilities, bool) {
    let spec = dialect.descriptor().spec(native);
    (spec.kind, spec.capabilities(), spec.blocking)
}
