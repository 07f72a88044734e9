//! Payload bytes to canonical event: dispatch to the dialect's adapter.

use crate::{
    Detected, Dialect, HookEvent, ParseError, ParseErrorKind, claude_code, cline, codex, copilot,
    cursor, droid, gemini_cli, qwen_code,
};

/// Parses `payload` as `dialect` (usually from [`crate::detect`]).
///
/// Unknown events and unknown fields are not errors: an unknown event
/// becomes [`crate::EventKind::Other`] (non-blocking, no capabilities).
/// Malformed input gives a [`ParseError`] naming the field.
pub fn parse(dialect: Dialect, payload: &[u8]) -> Result<HookEvent, ParseError> {
    match dialect {
        Dialect::ClaudeCode => claude_code::parse(payload),
        Dialect::Cursor => cursor::parse(payload),
        Dialect::ClineSdk => cline::parse_sdk(payload),
        Dialect::ClineLegacy => cline::parse_legacy(payload),
        Dialect::QwenCode => qwen_code::PROTOCOL.parse(payload),
        Dialect::Droid => droid::PROTOCOL.parse(payload),
        Dialect::GeminiCli => gemini_cli::parse(payload),
        Dialect::Codex => codex::PROTOCOL.parse(payload),
        Dialect::CopilotPascal => copilot::parse_pascal(payload),
        // Only `permissionRequest` names itself; see `parse_detected`.
        Dialect::CopilotCamel => {
            match hookgate_dialect::sniff::scan(payload)
                .and_then(|top| top.string_value("hookName"))
            {
                Some(event) => copilot::parse_camel(payload, &event),
                None => Err(no_event_name()),
            }
        }
    }
}

/// Parses `payload` as `detected` says: its dialect, and for a dialect
/// whose payloads name no event (Copilot CLI's camelCase hooks) the event
/// the shim was given on its command line.
pub fn parse_detected(detected: &Detected, payload: &[u8]) -> Result<HookEvent, ParseError> {
    match (detected.dialect, detected.native_event.as_deref()) {
        (Dialect::CopilotCamel, Some(event)) => copilot::parse_camel(payload, event),
        (Dialect::CopilotCamel, None) => Err(no_event_name()),
        (dialect, _) => parse(dialect, payload),
    }
}

/// A camelCase Copilot payload without the event on the shim's command line.
fn no_event_name() -> ParseError {
    ParseError::new(
        Dialect::CopilotCamel,
        ParseErrorKind::MissingField("event name (register `gateway-shim copilot <event>`)".into()),
    )
}
