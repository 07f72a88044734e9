//! Gemini CLI's hooks (0.61.0): Claude-shaped payloads (`hook_event_name`,
//! `session_id`, `tool_name`, `tool_input`) plus a top-level ISO
//! `timestamp`, under Gemini's own event names (`BeforeTool`,
//! `AfterAgent`, ...), answered in Gemini's own reply format
//! (`decision: "deny"`, `hookSpecificOutput.tool_input`, ...): Claude
//! Code's `permissionDecision` is ignored there.
//!
//! `events` is the one table of what each event is and can express,
//! `tools` the tool-name → class table; `parse` reads the payload with
//! Claude Code's parser and finishes Gemini's own fields, `render` writes
//! Gemini's reply (docs/agents.md, "Gemini CLI").

mod events;
mod parse;
mod render;
mod tools;

use crate::Dialect;
use crate::claude_code::Protocol;

pub(crate) use parse::parse;
pub(crate) use render::render;

/// Gemini CLI's events and tools, read by Claude Code's parser.
pub(crate) const PROTOCOL: Protocol = Protocol {
    dialect: Dialect::GeminiCli,
    events: &events::EVENTS,
    tool_class: tools::tool_class,
};

#[cfg(test)]
mod tests;
