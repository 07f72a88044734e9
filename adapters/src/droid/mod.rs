//! Factory Droid's hooks (0.225.2): Claude Code's protocol (payload
//! fields, reply JSON, exit codes), with Droid's own events, tool names
//! and losses. Its user config, `~/.factory/hooks.json`, is keyed by event
//! name at the top level.
//!
//! What each event is and can express is its table in `hookgate-dialect`
//! ([`hookgate_dialect::events`]), `tools` the tool-name → class table; parsing and rendering are Claude
//! Code's, driven by these two (docs/agents.md, "Factory Droid").

mod tools;

use crate::Dialect;
use crate::adapter::Adapter;
use crate::claude_code::Protocol;

/// Parsed and rendered by `crate::parse` / `crate::render` through this.
pub(crate) const PROTOCOL: Protocol = Protocol::new(Dialect::Droid, tools::tool_class);

/// Its parse and render.
pub(crate) const ADAPTER: Adapter = Adapter {
    parse: |payload, _| PROTOCOL.parse(payload),
    render: |event, decision| PROTOCOL.render(event, decision),
};

#[cfg(test)]
mod tests;
