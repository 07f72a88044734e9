//! Qwen Code's hooks (0.24.4): Claude Code's protocol (payload fields,
//! reply JSON, exit codes), with Qwen's own events, tool names and losses.
//! Payloads add `timestamp`, `permission_mode` and `prompt_id`.
//!
//! `events` is the table of what each event is and can express (rows of
//! Claude Code's [`EventSpec`](crate::claude_code::events::EventSpec)),
//! `tools` the tool-name → class table; parsing and rendering are Claude
//! Code's, driven by these two (docs/agents.md, "Qwen Code").

mod events;
mod tools;

use crate::Dialect;
use crate::claude_code::Protocol;

/// Parsed and rendered by `crate::parse` / `crate::render` through this.
pub(crate) const PROTOCOL: Protocol = Protocol {
    dialect: Dialect::QwenCode,
    events: &events::EVENTS,
    tool_class: tools::tool_class,
};

#[cfg(test)]
mod tests;
