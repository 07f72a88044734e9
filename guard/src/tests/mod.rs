//! The guard on its own: the parser's facts (`parser`), the rule kinds
//! and how the guard combines them (`rules`), unknown words (`unknown`)
//! and the bounds on its work (`bounds`), over rules the tests build.
//! The embedded default rules and the corpora are the gateway's (its
//! `config::tests::default_guard`), since the gateway's config builds them.

mod bounds;
mod commands;
mod parser;
mod rules;
mod unknown;

use hookgate_adapters::{Dialect, EventKind, HookEvent, Tool, ToolClass};

pub(super) use hookgate_adapters::sample::{event, shell_tool};

/// A blockable pre-tool event for `tool`, in `/home/dev/acme`.
pub(super) fn with_tool(tool: Tool) -> HookEvent {
    let mut e = event(Dialect::ClaudeCode, EventKind::PreToolUse);
    e.capabilities.deny = true;
    e.tool = Some(tool);
    e
}

pub(super) fn shell(command: &str) -> HookEvent {
    with_tool(shell_tool("Bash", command))
}

/// A file tool of `class` naming `path`.
pub(super) fn file_tool(name: &str, class: ToolClass, path: &str) -> Tool {
    let mut tool = Tool::new(name, class, serde_json::json!({}));
    tool.paths = vec![path.to_owned()];
    tool
}
