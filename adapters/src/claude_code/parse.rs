//! Claude Code payload → [`HookEvent`].

use serde_json::{Map, Value};

use super::Protocol;
use crate::json::{self, Fields};
use crate::{HookEvent, ParseError, ParseErrorKind, StopInfo, Tool, ToolClass};

/// Parses one payload of an agent speaking Claude Code's protocol. Only
/// `hook_event_name` is required; unknown events become `Other` with no
/// capabilities.
pub(crate) fn parse_as(protocol: &Protocol, payload: &[u8]) -> Result<HookEvent, ParseError> {
    let dialect = protocol.dialect;
    let map = json::object(dialect, payload)?;
    let root = Fields::root(dialect, &map);
    let native_event = root.req_str("hook_event_name")?;
    let spec = protocol.spec(native_event);

    let text = match native_event {
        "MessageDisplay" => root.opt_string("delta")?,
        "PostCompact" => root.opt_string("compact_summary")?,
        _ => root.opt_string("last_assistant_message")?,
    };
    let stop = match native_event {
        "Stop" | "SubagentStop" => Some(StopInfo {
            status: None,
            loop_count: None,
            continuing: root.flag("stop_hook_active")?,
        }),
        _ => None,
    };
    let reason = match spec.reason_key {
        Some(key) => root.opt_string(key)?,
        None => None,
    };

    let model = match native_event {
        // The model switched to (or asked to switch to).
        "PreModelSwitch" | "PostModelSwitch" => root.opt_string("to_model")?,
        _ => root.opt_string("model")?,
    };

    Ok(HookEvent {
        dialect,
        agent_version: None, // None of these agents sends its version.
        native_event: native_event.to_owned(),
        kind: spec.kind,
        blocking: spec.blocking,
        capabilities: spec.capabilities(),
        session_id: root.opt_string("session_id")?,
        cwd: root.opt_string("cwd")?,
        workspace_roots: Vec::new(),
        transcript_path: root.opt_string("transcript_path")?,
        model,
        tool: tool(protocol, native_event, &root, &map)?,
        prompt: root.opt_string("prompt")?,
        text,
        stop,
        reason,
        subagent_id: root.opt_string("agent_id")?,
        trace: None,
    })
}

/// The tool of a tool event (any payload with a `tool_name`).
/// `PreSkillShellCommand` is always a shell call: it is the command a skill
/// or slash command runs inline, whatever tool name it is given.
fn tool(
    protocol: &Protocol,
    native_event: &str,
    root: &Fields<'_>,
    map: &Map<String, Value>,
) -> Result<Option<Tool>, ParseError> {
    let Some(name) = root.opt_str("tool_name")? else {
        return Ok(None);
    };
    let class = match native_event {
        "PreSkillShellCommand" => ToolClass::Shell,
        _ => (protocol.tool_class)(name),
    };
    let input = match map.get("tool_input") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(value @ Value::Object(_)) => value.clone(),
        Some(_) => {
            return Err(ParseError::new(
                protocol.dialect,
                ParseErrorKind::WrongType {
                    field: "tool_input".to_owned(),
                    expected: "an object",
                },
            ));
        }
    };
    let fields = root.opt_object("tool_input")?;
    let input_str = |key: &str| match &fields {
        Some(fields) => fields.opt_string(key),
        None => Ok(None),
    };
    // Only the known tools' fields are read: an MCP tool's `command` is not
    // a shell command, and its odd types are not a protocol error.
    let command = match class {
        ToolClass::Shell => input_str("command")?,
        _ => None,
    };
    let file_path = match class {
        // `filePath`: OpenCode's file tools, through hookgate's plugin.
        ToolClass::FileRead | ToolClass::FileWrite => match input_str("file_path")? {
            Some(path) => Some(path),
            None => match input_str("notebook_path")? {
                Some(path) => Some(path),
                None => input_str("filePath")?,
            },
        },
        _ => None,
    };
    let output = match root.value("tool_response") {
        None => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(value) => serde_json::to_string(value).ok(),
    };
    // Since 2.1.2xx tool events name the server: `mcp_server: {name, source}`.
    let named_server = match root.opt_object("mcp_server")? {
        Some(server) => server.opt_string("name")?,
        None => None,
    };
    let crate::paths::Named {
        mut paths,
        overflow: paths_overflow,
    } = crate::paths::find(&input);
    if matches!(name, "Glob" | "glob") {
        // Glob's `pattern` is a path pattern (Grep's is a regex, not a
        // path); Gemini CLI's and Qwen Code's `glob` tool alike.
        if let Some(pattern) = input_str("pattern")? {
            crate::paths::push(&mut paths, &pattern);
        }
    }
    Ok(Some(Tool {
        name: name.to_owned(),
        class,
        input,
        paths,
        paths_overflow,
        command,
        mcp_server: named_server.or_else(|| mcp_server(name)),
        file_path,
        output,
        error: root.opt_string("error")?,
        duration_ms: root.opt_u64("duration_ms")?,
        call_id: root.opt_string("tool_use_id")?,
    }))
}

/// The class of a Claude Code tool, by name (docs/agents.md, "Claude Code").
pub(super) fn tool_class(name: &str) -> ToolClass {
    match name {
        "Bash" | "PowerShell" => ToolClass::Shell,
        "Read" => ToolClass::FileRead,
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => ToolClass::FileWrite,
        "Glob" | "Grep" => ToolClass::Search,
        "WebFetch" | "WebSearch" => ToolClass::Web,
        "Agent" | "Task" => ToolClass::Subagent,
        _ if name.starts_with("mcp__") => ToolClass::Mcp,
        _ => ToolClass::Other,
    }
}

/// `mcp__<server>__<tool>` → `<server>` (plugin servers keep their
/// `plugin_<plugin>_<server>` name).
pub(super) fn mcp_server(name: &str) -> Option<String> {
    let rest = name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!server.is_empty() && !tool.is_empty()).then(|| server.to_owned())
}
