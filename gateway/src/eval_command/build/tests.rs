//! Every agent's built payloads, read back by its own adapter: the call
//! asked about, in the eval session.

use hookgate_adapters::{Agent, EVAL_SESSION, EventKind, ToolClass};

use super::{Built, parsed};

/// A file-writing tool of each agent, by its own name, and the input key
/// its adapter reads the path from.
fn write_tool(agent: Agent) -> (&'static str, &'static str) {
    match agent {
        Agent::ClaudeCode => ("Write", "file_path"),
        Agent::Codex => ("apply_patch", "command"),
        Agent::Cursor => ("Write", "file_path"),
        Agent::Cline => ("editor", "path"),
        Agent::GeminiCli | Agent::QwenCode => ("write_file", "file_path"),
        Agent::Droid => ("Create", "file_path"),
        Agent::Copilot => ("create", "path"),
        Agent::Hermes => ("write_file", "path"),
        Agent::OpenCode => ("write", "filePath"),
    }
}

fn read(agent: Agent, built: &Built) -> hookgate_adapters::HookEvent {
    let event = parsed(agent, built).unwrap_or_else(|err| panic!("{agent}: {err:#}"));
    assert_eq!(event.dialect.agent(), agent);
    assert_eq!(event.session_id.as_deref(), Some(EVAL_SESSION), "{agent}");
    event
}

#[test]
fn a_command_is_the_agents_shell_call_running_it() {
    for agent in Agent::ALL {
        let built = super::command(agent, "git push -f \"origin\"").expect("built");
        let event = read(agent, &built);
        let tool = event.tool.expect("a tool");
        assert_eq!(tool.class, ToolClass::Shell, "{agent}");
        assert_eq!(
            tool.command.as_deref(),
            Some("git push -f \"origin\""),
            "{agent}"
        );
    }
}

#[test]
fn a_tool_is_the_agents_call_of_that_tool_with_that_input() {
    for agent in Agent::ALL {
        let (name, key) = write_tool(agent);
        let input = serde_json::json!({ key: "/etc/x", "content": "y" }).to_string();
        let built = super::tool(agent, name, &input).expect("built");
        let event = read(agent, &built);
        assert_eq!(event.kind, EventKind::PreToolUse, "{agent}");
        let tool = event.tool.expect("a tool");
        assert_eq!(tool.name, name, "{agent}");
        assert_eq!(tool.class, ToolClass::FileWrite, "{agent}");
        assert_eq!(tool.input[key], "/etc/x", "{agent}: {:?}", tool.input);
    }
}

#[test]
fn an_unknown_tool_or_bad_input_is_refused_with_the_reason() {
    let err = super::tool(Agent::ClaudeCode, "Wrte", "{}").unwrap_err();
    assert!(
        format!("{err}").contains("does not know `Wrte` as a claude-code tool"),
        "{err}"
    );
    let err = super::tool(Agent::ClaudeCode, "Write", "{\"file_path\":").unwrap_err();
    assert!(
        format!("{err}").contains("--input is not valid JSON"),
        "{err}"
    );
    let err = super::tool(Agent::Codex, "Bash", "[1]").unwrap_err();
    assert!(format!("{err}").contains("must be a JSON object"), "{err}");
    // An MCP tool is known by its name's form.
    let built = super::tool(Agent::ClaudeCode, "mcp__db__query", "{}").expect("mcp");
    let tool = read(Agent::ClaudeCode, &built).tool.expect("a tool");
    assert_eq!(tool.class, ToolClass::Mcp);
}

#[test]
fn a_prompt_is_the_agents_prompt_submit_event() {
    for agent in Agent::ALL {
        let built = super::prompt(agent, "delete \"everything\"").expect("built");
        let event = read(agent, &built);
        assert_eq!(event.kind, EventKind::PromptSubmit, "{agent}");
        assert_eq!(
            event.prompt.as_deref(),
            Some("delete \"everything\""),
            "{agent}"
        );
        assert!(event.tool.is_none(), "{agent}");
    }
}

#[test]
fn a_payload_sent_to_a_live_gateway_is_marked_as_an_eval() {
    let marked = super::mark(br#"{"session_id":"s1","cwd":"/"}"#, None).expect("marked");
    let value: serde_json::Value = serde_json::from_slice(&marked).expect("json");
    assert_eq!(value["session_id"], EVAL_SESSION);
    assert_eq!(value["cwd"], "/");
    let marked = super::mark(br#"{"toolName":"bash"}"#, Some(Agent::Copilot)).expect("marked");
    let value: serde_json::Value = serde_json::from_slice(&marked).expect("json");
    assert_eq!(value["sessionId"], EVAL_SESSION);
    assert!(super::mark(br#"{"cwd":"/"}"#, None).is_err());
    assert!(super::mark(b"not json", Some(Agent::Codex)).is_err());
}
