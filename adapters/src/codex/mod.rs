//! Codex's hooks (0.171.0): Claude-shaped payloads (plus `turn_id` on turn
//! events, `model` and `permission_mode`) read with Claude Code's parser
//! through [`PROTOCOL`], answered from Codex's own strict output schemas
//! (`render`): Claude Code's replies are not all valid Codex replies, and
//! an invalid one is ignored whole (docs/agents.md, "Codex").

mod render;
mod tools;

use crate::Dialect;
use crate::adapter::Adapter;
use crate::claude_code::Protocol;

pub(crate) use render::render;

/// Codex's events and tools, read by Claude Code's parser.
pub(crate) const PROTOCOL: Protocol = Protocol::new(Dialect::Codex, tools::tool_class);

/// Its parse and render.
pub(crate) const ADAPTER: Adapter = Adapter {
    parse: |payload, _| PROTOCOL.parse(payload),
    render,
};

#[cfg(test)]
mod tests;
