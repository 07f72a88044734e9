//! The config file exactly as written: serde types with spans, so every
//! later check can point at the line of the key it rejects.
//!
//! `deny_unknown_fields` everywhere: a misspelt key is an error, never a
//! silently ignored setting. Values are checked in `validate`.

use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConfig {
    #[serde(default)]
    pub(super) server: RawServer,
    #[serde(default)]
    pub(super) subscriber: Vec<RawSubscriber>,
    pub(super) http: Option<super::http::RawHttp>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawServer {
    pub(super) socket: Option<Spanned<String>>,
    pub(super) max_connections: Option<Spanned<i64>>,
    pub(super) queue_wait_ms: Option<Spanned<i64>>,
    pub(super) read_timeout_ms: Option<Spanned<i64>>,
    pub(super) shutdown_grace_ms: Option<Spanned<i64>>,
    pub(super) on_unparsed: Option<Spanned<RawFailMode>>,
    pub(super) memory_budget_mib: Option<Spanned<i64>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawFailMode {
    Open,
    Closed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawMode {
    Decide,
    Observe,
    Shadow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawOnError {
    Allow,
    Deny,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawBuiltin {
    Audit,
    Guard,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSubscriber {
    pub(super) name: Spanned<String>,
    pub(super) endpoint: Option<Spanned<String>>,
    pub(super) builtin: Option<Spanned<RawBuiltin>>,
    pub(super) mode: Option<Spanned<RawMode>>,
    pub(super) timeout_ms: Option<Spanned<i64>>,
    pub(super) on_error: Option<Spanned<RawOnError>>,
    pub(super) priority: Option<Spanned<i64>>,
    pub(super) agents: Option<Vec<Spanned<String>>>,
    pub(super) events: Option<Vec<Spanned<String>>>,
    pub(super) tools: Option<Vec<Spanned<String>>>,
    /// Remote: consecutive failures that open the circuit breaker (0: never).
    pub(super) breaker_failures: Option<Spanned<i64>>,
    /// Remote: how long an open breaker skips the subscriber.
    pub(super) breaker_cooldown_ms: Option<Spanned<i64>>,
    /// Observe and audit: how many events may wait for the worker.
    pub(super) queue_size: Option<Spanned<i64>>,
    /// Built-in `audit`: rotate past this size (KiB), keeping `keep` files.
    pub(super) max_size_kib: Option<Spanned<i64>>,
    pub(super) keep: Option<Spanned<i64>>,
    /// Built-in `audit`: the JSON-lines file.
    pub(super) path: Option<Spanned<String>>,
    /// Built-in `guard`: the rules.
    pub(super) rules: Option<Spanned<Vec<RawRule>>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawAction {
    Deny,
    Ask,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum RawAccess {
    Read,
    Write,
    Any,
}

/// One guard rule: one kind (`shell`, `file_path`, `mcp_tool`, `command`,
/// `path`, `fetch`), its modifiers, an action and a reason.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRule {
    pub(super) shell: Option<Spanned<String>>,
    pub(super) file_path: Option<Spanned<String>>,
    pub(super) mcp_tool: Option<Spanned<String>>,
    /// Command names (`rm`, `python*`).
    pub(super) command: Option<Spanned<Vec<String>>>,
    pub(super) subcommand: Option<Spanned<Vec<String>>>,
    pub(super) flags: Option<Spanned<Vec<String>>>,
    pub(super) operand: Option<Spanned<String>>,
    /// A path regex, with `unless` and `access`.
    pub(super) path: Option<Spanned<String>>,
    pub(super) unless: Option<Spanned<String>>,
    pub(super) access: Option<Spanned<RawAccess>>,
    /// Fetcher names, with the interpreters in `into`.
    pub(super) fetch: Option<Spanned<Vec<String>>>,
    pub(super) into: Option<Spanned<Vec<String>>>,
    pub(super) action: Option<Spanned<RawAction>>,
    pub(super) reason: Spanned<String>,
}
