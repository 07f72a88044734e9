//! Claude Code's hook dialect: `hook_event_name` in PascalCase, answers as
//! exit codes plus a stdout JSON whose shape depends on the event
//! (the rendering rules and their sources are in docs/agents.md).
//!
//! What each event is and can express is one table in `hookgate-dialect`
//! ([`hookgate_dialect::events`]); `parse` and `render` both read it, and
//! so do the shim's fallback replies: they cannot disagree.

pub(crate) mod output;
mod parse;
mod render;

use hookgate_dialect::events::EventSpec;

use crate::adapter::Adapter;
use crate::{Decision, Dialect, HookEvent, ParseError, Rendered, ToolClass};

/// An agent that speaks Claude Code's hook protocol (payload fields, reply
/// JSON, exit codes) with its own events and tool names: Claude Code
/// itself, Qwen Code, Factory Droid. What differs is data, never code.
#[derive(Debug)]
pub(crate) struct Protocol {
    pub(crate) dialect: Dialect,
    /// The agent's tool names → hookgate's tool classes.
    pub(crate) tool_class: fn(&str) -> ToolClass,
}

impl Protocol {
    /// An agent's protocol, read by Claude Code's parser through its
    /// dialect's events table.
    pub(crate) const fn new(dialect: Dialect, tool_class: fn(&str) -> ToolClass) -> Protocol {
        Protocol {
            dialect,
            tool_class,
        }
    }

    /// The row for `native_event` ([`hookgate_dialect::events::UNKNOWN`]
    /// when absent).
    pub(crate) fn spec(&self, native_event: &str) -> &'static EventSpec {
        self.dialect.descriptor().spec(native_event)
    }

    pub(crate) fn parse(&self, payload: &[u8]) -> Result<HookEvent, ParseError> {
        parse::parse_as(self, payload)
    }

    pub(crate) fn render(&self, event: &HookEvent, decision: &Decision) -> Rendered {
        render::render_as(self, event, decision)
    }
}

/// The class of tool `name` by `table`, for the agents whose tool names
/// are a plain list; `mcp__<server>__<tool>` names are MCP tools.
pub(crate) fn class_in(table: &[(&str, ToolClass)], name: &str) -> ToolClass {
    match table.iter().find(|(tool, _)| *tool == name) {
        Some((_, class)) => *class,
        None if name.starts_with("mcp__") => ToolClass::Mcp,
        None => ToolClass::Other,
    }
}

/// Claude Code's own profile.
pub(crate) const CLAUDE_CODE: Protocol = Protocol::new(Dialect::ClaudeCode, parse::tool_class);

/// Claude Code's parse and render.
pub(crate) const ADAPTER: Adapter = Adapter {
    parse: |payload, _| parse(payload),
    render,
};

/// Parses one Claude Code payload.
pub(crate) fn parse(payload: &[u8]) -> Result<HookEvent, ParseError> {
    CLAUDE_CODE.parse(payload)
}

/// Renders `decision` as Claude Code's reply to `event`.
pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    CLAUDE_CODE.render(event, decision)
}

#[cfg(test)]
mod tests;
