//! Hook payloads as the agents send them: the adapters' sample payloads,
//! verbatim or with the shell command swapped for a test's own.

use std::path::PathBuf;

use serde_json::{Value, json};

/// `adapters/test_data/<agent_dir>/<file>`, verbatim.
pub fn fixture(agent_dir: &str, file: &str) -> String {
    let path = test_data().join(agent_dir).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("read {}: {err}", path.display()))
}

/// `adapters/test_data`.
pub fn test_data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("adapters")
        .join("test_data")
}

fn edit(agent_dir: &str, file: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut value: Value =
        serde_json::from_str(&fixture(agent_dir, file)).expect("fixture is JSON");
    change(&mut value);
    value.to_string()
}

/// Claude Code `PreToolUse` of `Bash` running `command`.
pub fn claude_bash(command: &str) -> String {
    edit("claude-code", "PreToolUse.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// Qwen Code `PreToolUse` of `run_shell_command` running `command`.
pub fn qwen_shell(command: &str) -> String {
    edit("qwen-code", "PreToolUse.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// OpenCode `tool.execute.before` of `bash` running `command` (what
/// hookgate's plugin sends).
pub fn opencode_bash(command: &str) -> String {
    edit("opencode", "tool.execute.before.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// Factory Droid `PreToolUse` of `Execute` running `command`.
pub fn droid_execute(command: &str) -> String {
    edit("droid", "PreToolUse.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// Codex `PreToolUse` of `Bash` running `command`.
pub fn codex_bash(command: &str) -> String {
    edit("codex", "PreToolUse.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// Copilot CLI `PreToolUse` (PascalCase config) of `Bash` running `command`.
pub fn copilot_bash(command: &str) -> String {
    edit("copilot", "PreToolUse.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// Copilot CLI `preToolUse` (camelCase config: no event name in the
/// payload) of `bash` running `command`.
pub fn copilot_camel_bash(command: &str) -> String {
    edit("copilot-camel", "preToolUse.json", |v| {
        v["toolArgs"]["command"] = json!(command);
    })
}

/// Hermes Agent `pre_tool_call` of `terminal` running `command`.
pub fn hermes_terminal(command: &str) -> String {
    edit("hermes", "pre_tool_call.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// Gemini CLI `BeforeTool` of `run_shell_command` running `command`.
pub fn gemini_shell(command: &str) -> String {
    edit("gemini-cli", "BeforeTool.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// Cursor `beforeShellExecution` of `command`.
pub fn cursor_shell(command: &str) -> String {
    edit("cursor", "beforeShellExecution.json", |v| {
        v["command"] = json!(command);
    })
}

/// Cursor `preToolUse` of `Shell` running `command`.
pub fn cursor_pre_tool_use(command: &str) -> String {
    edit("cursor", "preToolUse.json", |v| {
        v["tool_input"]["command"] = json!(command);
    })
}

/// Cline SDK `tool_call` of `run_commands` running `command`.
pub fn cline_sdk_command(command: &str) -> String {
    edit("cline", "tool_call.json", |v| {
        v["tool_call"]["input"] = json!({ "commands": [command] });
        v["preToolUse"]["parameters"] = json!({ "commands": json!([command]).to_string() });
    })
}

/// Cline legacy `PreToolUse` of `execute_command` running `command`.
pub fn cline_legacy_command(command: &str) -> String {
    edit("cline", "legacy.PreToolUse.json", |v| {
        v["preToolUse"] = json!({
            "toolName": "execute_command",
            "parameters": { "command": command, "requires_approval": "false" },
        });
    })
}

/// The pre-tool fixture `file` of `agent_dir` (Claude Code's payload
/// shape: Gemini CLI, Codex, Qwen Code, Droid, Copilot PascalCase) calling
/// `tool` with `input`.
pub fn claude_shaped_tool(agent_dir: &str, file: &str, tool: &str, input: Value) -> String {
    edit(agent_dir, file, |v| {
        v["tool_name"] = json!(tool);
        v["tool_input"] = input;
    })
}

/// Claude Code `PreToolUse` of any tool with `input`.
pub fn claude_tool(tool: &str, input: Value) -> String {
    edit("claude-code", "PreToolUse.json", |v| {
        v["tool_name"] = json!(tool);
        v["tool_input"] = input;
    })
}

/// Claude Code `PostToolUse` of `Bash` that printed `output`.
pub fn claude_bash_output(command: &str, output: &str) -> String {
    edit("claude-code", "PostToolUse.json", |v| {
        v["tool_name"] = json!("Bash");
        v["tool_input"] = json!({ "command": command });
        v["tool_response"] = json!({ "stdout": output, "stderr": "" });
    })
}

/// Cursor `beforeReadFile` of `path`, carrying the file's `content`.
pub fn cursor_read_file(path: &str, content: &str) -> String {
    edit("cursor", "beforeReadFile.json", |v| {
        v["file_path"] = json!(path);
        v["content"] = json!(content);
    })
}

/// Cursor `preToolUse` of any generic tool with `input`.
pub fn cursor_tool(tool: &str, input: Value) -> String {
    edit("cursor", "preToolUse.json", |v| {
        v["tool_name"] = json!(tool);
        v["tool_input"] = input;
    })
}

/// Cursor `beforeMCPExecution` of `tool` with `input` (sent, as Cursor
/// does, as a JSON string).
pub fn cursor_mcp(tool: &str, input: &Value) -> String {
    edit("cursor", "beforeMCPExecution.json", |v| {
        v["tool_name"] = json!(tool);
        v["tool_input"] = json!(input.to_string());
    })
}

/// Cline SDK `tool_call` of any tool with `input` (and its stringified
/// legacy-style mirror).
pub fn cline_sdk_tool(tool: &str, input: Value) -> String {
    edit("cline", "tool_call.json", |v| {
        let mirror: serde_json::Map<String, Value> = input
            .as_object()
            .map(|map| {
                map.iter()
                    .map(|(k, v)| match v {
                        Value::String(_) => (k.clone(), v.clone()),
                        other => (k.clone(), json!(other.to_string())),
                    })
                    .collect()
            })
            .unwrap_or_default();
        v["tool_call"]["name"] = json!(tool);
        v["tool_call"]["input"] = input;
        v["preToolUse"] = json!({ "toolName": tool, "parameters": mirror });
    })
}

/// Cline legacy `PreToolUse` of any tool with string `parameters`.
pub fn cline_legacy_tool(tool: &str, parameters: Value) -> String {
    edit("cline", "legacy.PreToolUse.json", |v| {
        v["preToolUse"] = json!({ "toolName": tool, "parameters": parameters });
    })
}
