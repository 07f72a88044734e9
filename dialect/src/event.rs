//! The canonical event kinds and the answers an agent can act on: the
//! agent-neutral columns of every agent's events table ([`crate::events`]).
//! Here, not in `hookgate-adapters` (which re-exports them), because the
//! tables the shim's fallback replies come from are here.

/// What happened, in agent-neutral terms. The snake_case names
/// ([`EventKind::as_str`]) are what users write in config filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    SessionStart,
    SessionResume,
    SessionEnd,
    PromptSubmit,
    PreToolUse,
    PostToolUse,
    ToolFailure,
    FileRead,
    FileEdit,
    AgentResponse,
    AgentThought,
    Stop,
    SubagentStart,
    SubagentStop,
    PreCompact,
    PostCompact,
    Notification,
    PermissionRequest,
    TaskComplete,
    TaskError,
    TaskAbort,
    ConfigChange,
    /// Anything else, including events hookgate does not know yet.
    Other,
}

/// Which answers the agent acts on for this event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Capabilities {
    pub deny: bool,
    pub ask: bool,
    pub context: bool,
    pub input_rewrite: bool,
    pub halt: bool,
    pub followup: bool,
}

impl Capabilities {
    /// Can the agent act on any answer at all? For Cursor and Cline this is
    /// exactly when the agent waits for and reads the hook's reply.
    pub fn any(self) -> bool {
        self != Capabilities::default()
    }
}

impl EventKind {
    /// Every kind, in a stable order.
    pub const ALL: [EventKind; 23] = [
        EventKind::SessionStart,
        EventKind::SessionResume,
        EventKind::SessionEnd,
        EventKind::PromptSubmit,
        EventKind::PreToolUse,
        EventKind::PostToolUse,
        EventKind::ToolFailure,
        EventKind::FileRead,
        EventKind::FileEdit,
        EventKind::AgentResponse,
        EventKind::AgentThought,
        EventKind::Stop,
        EventKind::SubagentStart,
        EventKind::SubagentStop,
        EventKind::PreCompact,
        EventKind::PostCompact,
        EventKind::Notification,
        EventKind::PermissionRequest,
        EventKind::TaskComplete,
        EventKind::TaskError,
        EventKind::TaskAbort,
        EventKind::ConfigChange,
        EventKind::Other,
    ];

    /// The snake_case name used in config files and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::SessionStart => "session_start",
            EventKind::SessionResume => "session_resume",
            EventKind::SessionEnd => "session_end",
            EventKind::PromptSubmit => "prompt_submit",
            EventKind::PreToolUse => "pre_tool_use",
            EventKind::PostToolUse => "post_tool_use",
            EventKind::ToolFailure => "tool_failure",
            EventKind::FileRead => "file_read",
            EventKind::FileEdit => "file_edit",
            EventKind::AgentResponse => "agent_response",
            EventKind::AgentThought => "agent_thought",
            EventKind::Stop => "stop",
            EventKind::SubagentStart => "subagent_start",
            EventKind::SubagentStop => "subagent_stop",
            EventKind::PreCompact => "pre_compact",
            EventKind::PostCompact => "post_compact",
            EventKind::Notification => "notification",
            EventKind::PermissionRequest => "permission_request",
            EventKind::TaskComplete => "task_complete",
            EventKind::TaskError => "task_error",
            EventKind::TaskAbort => "task_abort",
            EventKind::ConfigChange => "config_change",
            EventKind::Other => "other",
        }
    }

    /// Parses a snake_case name.
    pub fn from_name(name: &str) -> Option<EventKind> {
        EventKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }
}
