//! The canonical hook event: what every agent's payload becomes.
//!
//! Plain data with no serde derives on purpose: the wire formats are the
//! agents' JSON (parsed privately per dialect) and the `hookgate.v1` proto
//! (converted in the gateway). Nothing serializes this type directly.

use crate::{Capabilities, Dialect, EventKind};

/// Broad class of a tool, so a policy can say "every shell tool".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolClass {
    Shell,
    Mcp,
    FileRead,
    FileWrite,
    Search,
    Web,
    Subagent,
    Other,
}

/// The tool a tool event is about.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The name as the agent calls it (`Bash`, `Shell`, `run_commands`).
    pub name: String,
    pub class: ToolClass,
    /// The tool's input; an object for most tools. Cursor's MCP events send
    /// it as a JSON string, which the adapter decodes.
    pub input: serde_json::Value,
    /// Shell tools: the command line (several commands joined by `\n`).
    pub command: Option<String>,
    pub mcp_server: Option<String>,
    pub file_path: Option<String>,
    /// Every file path the call names (the file of a read or edit, the
    /// path or glob of a search, each file of a multi-file tool, the
    /// path-like arguments of an MCP tool), `file_path` included. Found by
    /// [`crate::paths::named_in`] plus what an adapter knows of its tools.
    pub paths: Vec<String>,
    /// The input names more paths than hookgate reads ([`crate::paths::MAX_PATHS`]),
    /// or one nested deeper ([`crate::paths::MAX_DEPTH`]): `paths` is not all
    /// of them, and the guard denies what it cannot check.
    pub paths_overflow: bool,
    /// Post-tool events: the output, as text (JSON values are serialized).
    pub output: Option<String>,
    pub error: Option<String>,
    pub duration_ms: Option<u64>,
    /// The agent's id for this tool call.
    pub call_id: Option<String>,
}

/// Stop and subagent-stop details.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StopInfo {
    pub status: Option<String>,
    pub loop_count: Option<u32>,
    /// The agent is already continuing because a stop hook asked it to.
    pub continuing: bool,
}

/// One hook event in canonical form.
#[derive(Debug, Clone, PartialEq)]
pub struct HookEvent {
    pub dialect: Dialect,
    pub agent_version: Option<String>,
    /// The agent's own event name, exactly as sent.
    pub native_event: String,
    pub kind: EventKind,
    /// Does the agent wait for the hook's answer before it goes on?
    pub blocking: bool,
    pub capabilities: Capabilities,
    pub session_id: Option<String>,
    pub cwd: Option<String>,
    pub workspace_roots: Vec<String>,
    pub transcript_path: Option<String>,
    pub model: Option<String>,
    pub tool: Option<Tool>,
    pub prompt: Option<String>,
    /// Agent response or thought text.
    pub text: Option<String>,
    pub stop: Option<StopInfo>,
    /// Free-form reason or source (session end reason, start source,
    /// notification message, task error message).
    pub reason: Option<String>,
    pub subagent_id: Option<String>,
    /// The W3C trace context the agent sent with the event, if any.
    pub trace: Option<TraceContext>,
}

/// A W3C trace context (`traceparent`, `tracestate`) as the agent sent it,
/// length-capped but otherwise unchecked: the gateway validates it before
/// making it the parent of its spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    pub traceparent: String,
    pub tracestate: Option<String>,
}

impl TraceContext {
    /// W3C caps: a `traceparent` is 55 characters today (room left for a
    /// future version), a `tracestate` at most 512.
    pub const MAX_TRACEPARENT: usize = 128;
    pub const MAX_TRACESTATE: usize = 512;

    /// From the two values, dropping either when over its cap (a missing
    /// or oversized `traceparent` means no context).
    pub fn from_values(
        traceparent: Option<&str>,
        tracestate: Option<&str>,
    ) -> Option<TraceContext> {
        let traceparent =
            traceparent.filter(|t| !t.is_empty() && t.len() <= Self::MAX_TRACEPARENT)?;
        Some(TraceContext {
            traceparent: traceparent.to_owned(),
            tracestate: tracestate
                .filter(|t| !t.is_empty() && t.len() <= Self::MAX_TRACESTATE)
                .map(str::to_owned),
        })
    }
}

impl HookEvent {
    /// An event of `kind` with nothing else known yet: not blocking, no
    /// capabilities, no fields. Adapters fill in what their payload says.
    pub fn new(dialect: Dialect, native_event: impl Into<String>, kind: EventKind) -> HookEvent {
        HookEvent {
            dialect,
            agent_version: None,
            native_event: native_event.into(),
            kind,
            blocking: false,
            capabilities: Capabilities::default(),
            session_id: None,
            cwd: None,
            workspace_roots: Vec::new(),
            transcript_path: None,
            model: None,
            tool: None,
            prompt: None,
            text: None,
            stop: None,
            reason: None,
            subagent_id: None,
            trace: None,
        }
    }
}

impl Tool {
    /// A tool call with only its name, class and input known.
    /// Its paths are the ones [`crate::paths::named_in`] finds in `input`.
    pub fn new(name: impl Into<String>, class: ToolClass, input: serde_json::Value) -> Tool {
        let named = crate::paths::find(&input);
        Tool {
            name: name.into(),
            class,
            paths: named.paths,
            paths_overflow: named.overflow,
            input,
            command: None,
            mcp_server: None,
            file_path: None,
            output: None,
            error: None,
            duration_ms: None,
            call_id: None,
        }
    }
}

impl ToolClass {
    /// Every class, in a stable order.
    pub const ALL: [ToolClass; 8] = [
        ToolClass::Shell,
        ToolClass::Mcp,
        ToolClass::FileRead,
        ToolClass::FileWrite,
        ToolClass::Search,
        ToolClass::Web,
        ToolClass::Subagent,
        ToolClass::Other,
    ];

    /// The snake_case name used in config filters.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolClass::Shell => "shell",
            ToolClass::Mcp => "mcp",
            ToolClass::FileRead => "file_read",
            ToolClass::FileWrite => "file_write",
            ToolClass::Search => "search",
            ToolClass::Web => "web",
            ToolClass::Subagent => "subagent",
            ToolClass::Other => "other",
        }
    }

    /// Parses a snake_case name.
    pub fn from_name(name: &str) -> Option<ToolClass> {
        ToolClass::ALL
            .into_iter()
            .find(|class| class.as_str() == name)
    }
}
