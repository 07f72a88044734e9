//! The guard on the embedded default rules: the corpora (shared with the
//! integration test that sends them through the real shim and gateway),
//! then the parser's facts and bounds, and the rule kinds one by one.

mod corpus;
mod parser;
mod rules;

use hookgate_adapters::{Dialect, EventKind, HookEvent, Tool, ToolClass};

use super::Guard;
use crate::config::{Config, DEFAULT_TOML, EMBEDDED_NAME, Env, SubscriberKind};
use crate::testing::{event, shell_tool};

/// The home directory the corpora are written for.
pub(super) const HOME: &str = "/home/dev";

/// The guard of the embedded default config, for a user whose home is
/// [`HOME`].
pub(super) fn default_guard() -> Guard {
    let env = Env {
        home: Some(HOME.into()),
        ..Env::default()
    };
    let config = Config::parse(EMBEDDED_NAME, DEFAULT_TOML, &env).unwrap();
    config
        .subscribers
        .into_iter()
        .find_map(|s| match s.kind {
            SubscriberKind::Guard { guard, .. } => Some(guard),
            _ => None,
        })
        .expect("the default config has a guard")
}

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
