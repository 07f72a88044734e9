//! Gemini CLI's hooks (0.61.0): Claude-shaped payloads (`hook_event_name`,
//! `session_id`, `tool_name`, `tool_input`) plus a top-level ISO
//! `timestamp`, under Gemini's own event names (`BeforeTool`,
//! `AfterAgent`, ...), answered in Gemini's own reply format
//! (`decision: "deny"`, `hookSpecificOutput.tool_input`, ...): Claude
//! Code's `permissionDecision` is ignored there.
//!
//! What each event is and can express is its table in `hookgate-dialect`
//! ([`hookgate_dialect::events`]), `tools` the tool-name → class table; `parse` reads the payload with
//! Claude Code's parser and finishes Gemini's own fields, `render` writes
//! Gemini's reply (docs/agents.md, "Gemini CLI").

mod parse;
mod render;
mod tools;

use crate::Dialect;
use crate::adapter::Adapter;
use crate::claude_code::Protocol;

pub(crate) use parse::parse;
pub(crate) use render::render;

/// Gemini CLI's events and tools, read by Claude Code's parser.
pub(crate) const PROTOCOL: Protocol = Protocol::new(Dialect::GeminiCli, tools::tool_class);

/// Its parse and render.
pub(crate) const ADAPTER: Adapter = Adapter {
    parse: |payload, _| parse(payload),
    render,
};

#[cfg(test)]
mod tests;
