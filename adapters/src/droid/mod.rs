//! Factory Droid's hooks (0.225.2): Claude Code's protocol (payload
//! fields, reply JSON, exit codes), with Droid's own events, tool names
//! and losses. Its user config, `~/.factory/hooks.json`, is keyed by event
//! name at the top level.
//!
//! `events` is the table of what each event is and can express (rows of
//! Claude Code's [`EventSpec`](crate::claude_code::events::EventSpec)),
//! `tools` the tool-name → class table; parsing and rendering are Claude
//! Code's, driven by these two (docs/agents.md, "Factory Droid").

mod events;
mod tools;

use crate::Dialect;
use crate::claude_code::Protocol;

/// Parsed and rendered by `crate::parse` / `crate::render` through this.
pub(crate) const PROTOCOL: Protocol = Protocol {
    dialect: Dialect::Droid,
    events: &events::EVENTS,
    tool_class: tools::tool_class,
};

#[cfg(test)]
mod tests;
