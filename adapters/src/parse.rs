//! Payload bytes to canonical event: dispatch to the dialect's adapter.

use crate::{
    Dialect, HookEvent, ParseError, claude_code, cline, codex, cursor, droid, gemini_cli, qwen_code,
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
    }
}
