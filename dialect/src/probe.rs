//! A harmless hook payload per agent, in that agent's own dialect: what
//! `gateway doctor` sends through the real shim to prove the whole chain
//! (agent config → shim → socket → gateway → reply) works for each agent.
//! Each is a pre-tool call of the agent's shell tool running `true`, from
//! a session named `hookgate-doctor`, so the audit log shows what it was.
//! [`danger_payload`] is the same call running `cat .env`, which the
//! guard must deny: doctor's proof that the agent's tool calls are
//! checked, not just forwarded.

use crate::Agent;

/// The session every probe payload names: the gateway counts these events
/// apart from the agents' traffic (and marks them in the decision log).
/// A marker, not a credential: a probe is guarded like any other call.
pub const PROBE_SESSION: &str = "hookgate-doctor";

/// The session `gateway eval` names in the payloads it builds and sends to
/// a running gateway (`--socket`): counted and logged as a probe, like
/// doctor's, and told apart from them by this name.
pub const EVAL_SESSION: &str = "hookgate-eval";

/// Whether `session` is a probe's ([`PROBE_SESSION`] or [`EVAL_SESSION`]):
/// kept out of the agents' traffic counts, marked in the decision log.
pub fn is_probe_session(session: &str) -> bool {
    session == PROBE_SESSION || session == EVAL_SESSION
}

/// The probe payload for `agent`; `None` for agents without an adapter.
pub fn probe_payload(agent: Agent) -> Option<&'static str> {
    Some(match agent {
        Agent::ClaudeCode => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"true"},"tool_use_id":"hookgate-doctor"}"#
        }
        Agent::Cursor => {
            r#"{"conversation_id":"hookgate-doctor","hook_event_name":"beforeShellExecution","workspace_roots":["/"],"cwd":"/","command":"true"}"#
        }
        Agent::Cline => {
            r#"{"hookName":"tool_call","taskId":"hookgate-doctor","clineVersion":"","workspaceRoots":["/"],"tool_call":{"id":"hookgate-doctor","name":"run_commands","input":{"commands":["true"]}}}"#
        }
        Agent::QwenCode => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","hook_event_name":"PreToolUse","timestamp":"2026-01-01T00:00:00.000Z","permission_mode":"yolo","tool_name":"run_shell_command","tool_input":{"command":"true"}}"#
        }
        Agent::Droid => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"true"}}"#
        }
        Agent::GeminiCli => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"true"}}"#
        }
        Agent::Codex => {
            r#"{"session_id":"hookgate-doctor","turn_id":"hookgate-doctor","cwd":"/","hook_event_name":"PreToolUse","model":"hookgate-doctor","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"true"},"tool_use_id":"hookgate-doctor"}"#
        }
        // camelCase: the event is named on the shim's command line
        // ([`probe_event`]), not in the payload.
        Agent::Copilot => {
            r#"{"sessionId":"hookgate-doctor","timestamp":1767225600000,"cwd":"/","toolName":"bash","toolArgs":{"command":"true"}}"#
        }
        Agent::Hermes => {
            r#"{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"true"},"session_id":"hookgate-doctor","cwd":"/","extra":{"tool_call_id":"hookgate-doctor"}}"#
        }
        Agent::OpenCode => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","hook_event_name":"tool.execute.before","tool_name":"bash","tool_input":{"command":"true","description":"hookgate doctor"},"tool_use_id":"hookgate-doctor"}"#
        }
    })
}

/// The probe call of [`probe_payload`], reading a secrets file
/// (`cat .env`) instead: what a guard that sees the agent's tool calls
/// denies. `None` for agents without an adapter.
pub fn danger_payload(agent: Agent) -> Option<&'static str> {
    Some(match agent {
        Agent::ClaudeCode => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat .env"},"tool_use_id":"hookgate-doctor"}"#
        }
        Agent::Cursor => {
            r#"{"conversation_id":"hookgate-doctor","hook_event_name":"beforeShellExecution","workspace_roots":["/"],"cwd":"/","command":"cat .env"}"#
        }
        Agent::Cline => {
            r#"{"hookName":"tool_call","taskId":"hookgate-doctor","clineVersion":"","workspaceRoots":["/"],"tool_call":{"id":"hookgate-doctor","name":"run_commands","input":{"commands":["cat .env"]}}}"#
        }
        Agent::QwenCode => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","hook_event_name":"PreToolUse","timestamp":"2026-01-01T00:00:00.000Z","permission_mode":"yolo","tool_name":"run_shell_command","tool_input":{"command":"cat .env"}}"#
        }
        Agent::Droid => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"cat .env"}}"#
        }
        Agent::GeminiCli => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"cat .env"}}"#
        }
        Agent::Codex => {
            r#"{"session_id":"hookgate-doctor","turn_id":"hookgate-doctor","cwd":"/","hook_event_name":"PreToolUse","model":"hookgate-doctor","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"cat .env"},"tool_use_id":"hookgate-doctor"}"#
        }
        Agent::Copilot => {
            r#"{"sessionId":"hookgate-doctor","timestamp":1767225600000,"cwd":"/","toolName":"bash","toolArgs":{"command":"cat .env"}}"#
        }
        Agent::Hermes => {
            r#"{"hook_event_name":"pre_tool_call","tool_name":"terminal","tool_input":{"command":"cat .env"},"session_id":"hookgate-doctor","cwd":"/","extra":{"tool_call_id":"hookgate-doctor"}}"#
        }
        Agent::OpenCode => {
            r#"{"session_id":"hookgate-doctor","cwd":"/","hook_event_name":"tool.execute.before","tool_name":"bash","tool_input":{"command":"cat .env","description":"hookgate doctor"},"tool_use_id":"hookgate-doctor"}"#
        }
    })
}

/// The agent's own name of the event [`probe_payload`] is: the hook entry
/// `gateway doctor` runs it through.
pub fn probe_event(agent: Agent) -> &'static str {
    match agent {
        Agent::Cursor => "beforeShellExecution",
        Agent::Cline => "PreToolUse",
        Agent::GeminiCli => "BeforeTool",
        Agent::Copilot => "preToolUse",
        Agent::Hermes => "pre_tool_call",
        Agent::OpenCode => "tool.execute.before",
        Agent::ClaudeCode | Agent::Codex | Agent::QwenCode | Agent::Droid => "PreToolUse",
    }
}
