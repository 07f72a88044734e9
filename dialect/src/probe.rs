//! A harmless hook payload per agent, in that agent's own dialect: what
//! `gateway doctor` sends through the real shim to prove the whole chain
//! (agent config → shim → socket → gateway → reply) works for each agent.
//! Each is a pre-tool call of the agent's shell tool running `true`, from
//! a session named `hookgate-doctor`, so the audit log shows what it was.

use crate::Agent;

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
        _ => return None,
    })
}
