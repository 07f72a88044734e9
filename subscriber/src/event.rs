//! The typed event a handler receives: one hook call of any agent, in the
//! gateway's canonical form (`hookgate.v1.HookEvent`), with the shell
//! commands as hookgate's guard parsed them.

use std::time::Duration;

use hookgate_proto::v1;
use tokio::time::Instant;

pub use hookgate_proto::v1::{
    Agent, Caller, Capabilities, Dialect, EventKind as Kind, ShellCommand, StopInfo as Stop,
    ToolClass,
};

/// One hook event, the same shape whatever agent raised it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Event {
    /// The gateway's id for the event (also in its audit log).
    pub id: String,
    pub agent: Agent,
    pub dialect: Dialect,
    pub kind: Kind,
    /// The agent's own event name (`PreToolUse`, `beforeShellExecution`).
    pub native_event: String,
    pub agent_version: Option<String>,
    /// Does the agent wait for the answer?
    pub blocking: bool,
    /// The answers the agent can act on for this event.
    pub capabilities: Capabilities,
    pub session_id: Option<String>,
    pub cwd: Option<String>,
    pub workspace_roots: Vec<String>,
    pub transcript_path: Option<String>,
    pub model: Option<String>,
    pub tool: Option<Tool>,
    pub prompt: Option<String>,
    pub text: Option<String>,
    pub stop: Option<Stop>,
    pub reason: Option<String>,
    pub subagent_id: Option<String>,
    /// The machine and user the gateway runs for: a label, not a proof.
    pub caller: Caller,
    /// A shell tool's simple commands as the guard parsed them: wrappers
    /// (`sudo`, `env`, `sh -c '…'`) unwrapped, quotes removed, `~` and
    /// literal variables expanded; a part that cannot be known is U+FFFD.
    pub commands: Vec<ShellCommand>,
    /// The guard read the whole line (parsed cleanly, every word known).
    pub commands_resolved: bool,
    /// The payload exactly as the agent sent it.
    pub raw_json: String,
    /// When the gateway stops waiting for the answer.
    pub deadline: Option<Instant>,
}

/// The tool a tool event is about.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Tool {
    /// As the agent calls it (`Bash`, `run_commands`).
    pub name: String,
    pub class: ToolClass,
    /// The tool's input as JSON text, in the agent's own shape.
    pub input_json: String,
    /// A shell tool's command line.
    pub command: Option<String>,
    pub mcp_server: Option<String>,
    pub file_path: Option<String>,
    pub output: Option<String>,
    pub error: Option<String>,
    pub duration_ms: Option<u64>,
    pub call_id: Option<String>,
}

impl Tool {
    /// The tool's input, parsed (`None` when it is not JSON).
    pub fn input(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.input_json).ok()
    }

    /// The file paths the tool names (file tools).
    pub fn paths(&self) -> Vec<&str> {
        self.file_path.iter().map(String::as_str).collect()
    }
}

impl Event {
    /// The typed form of a `hookgate.v1.HookEvent`; unknown enum values (a
    /// newer gateway's) are the unspecified / other value.
    pub fn from_proto(m: v1::HookEvent, deadline: Option<Instant>) -> Event {
        let tool = m.tool.map(|t| Tool {
            class: ToolClass::try_from(t.class).unwrap_or(ToolClass::Other),
            name: t.name,
            input_json: t.input_json,
            command: t.command,
            mcp_server: t.mcp_server,
            file_path: t.file_path,
            output: t.output,
            error: t.error,
            duration_ms: t.duration_ms,
            call_id: t.call_id,
        });
        let (commands, commands_resolved) = m
            .shell
            .map(|s| (s.commands, s.resolved))
            .unwrap_or_default();
        Event {
            id: m.id,
            agent: Agent::try_from(m.agent).unwrap_or(Agent::Unspecified),
            dialect: Dialect::try_from(m.dialect).unwrap_or(Dialect::Unspecified),
            kind: Kind::try_from(m.kind).unwrap_or(Kind::Other),
            native_event: m.native_event,
            agent_version: m.agent_version,
            blocking: m.blocking,
            capabilities: m.capabilities.unwrap_or_default(),
            session_id: m.session_id,
            cwd: m.cwd,
            workspace_roots: m.workspace_roots,
            transcript_path: m.transcript_path,
            model: m.model,
            tool,
            prompt: m.prompt,
            text: m.text,
            stop: m.stop,
            reason: m.reason,
            subagent_id: m.subagent_id,
            caller: m.caller.unwrap_or_default(),
            commands,
            commands_resolved,
            raw_json: m.raw_json,
            deadline,
        }
    }

    /// A shell tool's command line, as the agent sent it.
    pub fn command(&self) -> Option<&str> {
        self.tool.as_ref()?.command.as_deref()
    }

    /// The file paths a file tool names.
    pub fn paths(&self) -> Vec<&str> {
        self.tool.as_ref().map(Tool::paths).unwrap_or_default()
    }

    /// How long until the gateway stops waiting (`None`: no deadline).
    pub fn time_left(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Does the shell line run `name` with all of `operands` among its
    /// operands (`event.runs("terraform", &["destroy"])`)?
    pub fn runs(&self, name: &str, operands: &[&str]) -> bool {
        self.commands
            .iter()
            .any(|c| c.name == name && operands.iter().all(|o| c.operands.iter().any(|x| x == o)))
    }
}

/// The config's name of an agent (`claude-code`), as the other SDKs and
/// the gateway's config spell it.
pub fn agent_name(agent: Agent) -> String {
    name(agent.as_str_name(), "AGENT_").replace('_', "-")
}

/// The config's name of an event kind (`pre_tool_use`).
pub fn kind_name(kind: Kind) -> String {
    name(kind.as_str_name(), "EVENT_KIND_")
}

fn name(proto: &str, prefix: &str) -> String {
    proto
        .strip_prefix(prefix)
        .unwrap_or(proto)
        .to_ascii_lowercase()
}
