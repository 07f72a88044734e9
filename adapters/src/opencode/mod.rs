//! OpenCode 1.x, through the plugin hookgate ships
//! (`gateway/src/install/opencode/hookgate.js`): OpenCode has no command
//! hooks, so the plugin sends each hook call as a Claude-shaped document
//! (`hook_event_name`, `session_id`, `cwd`, `tool_name`, `tool_input`,
//! `tool_use_id`, `tool_response`, `prompt`) under OpenCode's own hook
//! names, and applies Claude Code's reply format itself.
//!
//! What each hook can express through the plugin is its table in
//! `hookgate-dialect` ([`hookgate_dialect::events`]), `tools` the tool-name
//! → class table; parsing and rendering are Claude
//! Code's, driven by these two (docs/agents.md, "OpenCode").

mod tools;

use crate::Dialect;
use crate::adapter::Adapter;
use crate::claude_code::Protocol;

/// Parsed and rendered by `crate::parse` / `crate::render` through this.
pub(crate) const PROTOCOL: Protocol = Protocol::new(Dialect::OpenCode, tools::tool_class);

/// Its parse and render.
pub(crate) const ADAPTER: Adapter = Adapter {
    parse: |payload, _| PROTOCOL.parse(payload),
    render: |event, decision| PROTOCOL.render(event, decision),
};

#[cfg(test)]
mod tests;
