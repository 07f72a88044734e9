//! What both Cline dialects read the same way: `clineVersion`, the
//! `userPromptSubmit`/`preCompact` objects, and the canonical event's
//! header. The SDK hosts grew out of the extension, so these parts of the
//! payload kept their shape; each dialect module adds only what differs.

use crate::json::Fields;
use crate::{Capabilities, Dialect, EventKind, HookEvent, ParseError};

/// The event with what every Cline payload says (dialect, version, event
/// name, and its table's kind, capabilities and blocking) and nothing
/// else; each dialect fills in the rest.
pub(super) fn event_header(
    dialect: Dialect,
    fields: &Fields<'_>,
    native: &str,
    (kind, capabilities, blocking): (EventKind, Capabilities, bool),
) -> Result<HookEvent, ParseError> {
    Ok(HookEvent {
        agent_version: fields.opt_string("clineVersion")?,
        blocking,
        capabilities,
        ..HookEvent::new(dialect, native, kind)
    })
}

/// `<object>.<key>` as a string; absent when either is.
pub(super) fn nested_string<'a>(
    fields: &Fields<'a>,
    object: &'a str,
    key: &str,
) -> Result<Option<String>, ParseError> {
    match fields.opt_object(object)? {
        Some(inner) => inner.opt_string(key),
        None => Ok(None),
    }
}

/// The prompt of a prompt-submit event (`userPromptSubmit.prompt`).
pub(super) fn submitted_prompt(fields: &Fields<'_>) -> Result<Option<String>, ParseError> {
    nested_string(fields, "userPromptSubmit", "prompt")
}

/// The strategy of a pre-compact event (`preCompact.compactionStrategy`).
pub(super) fn compaction_strategy(fields: &Fields<'_>) -> Result<Option<String>, ParseError> {
    nested_string(fields, "preCompact", "compactionStrategy")
}
