//! The tool a Cline tool event is about, from its name and input.
//!
//! SDK names (`run_commands`, `read_files`, `editor`, ...) take structured
//! input; the legacy names (`execute_command`, `write_to_file`, ...) take a
//! map of strings, and the SDK's `preToolUse` mirror stringifies non-string
//! values (`"commands": "[\"npm test\"]"`). Both shapes are read here.

use serde_json::Value;

use crate::json::Fields;
use crate::{Dialect, ParseError, Tool, ToolClass};

/// The class of a Cline tool name (SDK and legacy). MCP tools are only
/// recognised by the legacy `use_mcp_tool`/`access_mcp_resource` and by an
/// `mcp__<server>__<tool>` name; other MCP and plugin tools are Other.
pub(super) fn classify(name: &str) -> ToolClass {
    if name.starts_with("mcp__") {
        return ToolClass::Mcp;
    }
    match name {
        "run_commands" | "execute_command" => ToolClass::Shell,
        "read_files" | "read_file" => ToolClass::FileRead,
        "editor" | "apply_patch" | "write_to_file" | "replace_in_file" => ToolClass::FileWrite,
        "search_codebase" | "search_files" | "list_files" | "list_code_definition_names" => {
            ToolClass::Search
        }
        "fetch_web_content" | "web_fetch" | "web_search" | "browser_action" => ToolClass::Web,
        "use_mcp_tool" | "access_mcp_resource" => ToolClass::Mcp,
        _ => ToolClass::Other,
    }
}

/// Builds the tool `name` with `input`; `input_path` names the input in
/// errors (`tool_call.input`, `preToolUse.parameters`).
pub(super) fn tool(
    dialect: Dialect,
    name: &str,
    input: Value,
    input_path: &str,
) -> Result<Tool, ParseError> {
    let class = classify(name);
    let mut command = None;
    let mut file_path = None;
    let mut mcp_server = None;
    if let Value::Object(map) = &input {
        let fields = Fields::at(dialect, input_path, map);
        match name {
            "run_commands" => command = commands(&fields)?,
            "execute_command" => command = fields.opt_string("command")?,
            "read_files" => file_path = first_file(&fields)?,
            "use_mcp_tool" | "access_mcp_resource" => {
                mcp_server = fields.opt_string("server_name")?;
            }
            _ if matches!(class, ToolClass::FileRead | ToolClass::FileWrite) => {
                let path = fields.opt_string("path")?;
                let file = fields.opt_string("file_path")?;
                file_path = path.or(file);
            }
            _ => {}
        }
    }
    if mcp_server.is_none() {
        mcp_server = name
            .strip_prefix("mcp__")
            .and_then(|rest| rest.split_once("__"))
            .map(|(server, _)| server.to_owned());
    }
    let mut tool = Tool::new(name, class, input);
    add_paths(&mut tool);
    Ok(Tool {
        command,
        mcp_server,
        file_path,
        ..tool
    })
}

/// The paths the generic search cannot see: the arguments of
/// `use_mcp_tool` (a JSON string). An `apply_patch` patch's files the
/// generic search finds itself.
fn add_paths(tool: &mut Tool) {
    let Value::Object(map) = &tool.input else {
        return;
    };
    if tool.name == "use_mcp_tool"
        && let Some(Value::String(arguments)) = map.get("arguments")
        && let Ok(arguments) = serde_json::from_str::<Value>(arguments)
    {
        let named = crate::paths::find(&arguments);
        tool.paths_overflow |= named.overflow;
        for path in &named.paths {
            tool.paths_overflow |= !crate::paths::push(&mut tool.paths, path)
                && tool.paths.len() >= crate::paths::MAX_PATHS;
        }
    }
}

/// `run_commands {commands: [...]}` as one command line, the commands
/// joined by `\n`. The mirror's stringified array and a single `command`
/// string are accepted too.
fn commands(fields: &Fields<'_>) -> Result<Option<String>, ParseError> {
    let list = match fields.value("commands") {
        None => return fields.opt_string("command"),
        Some(Value::String(text)) => match serde_json::from_str::<Vec<String>>(text) {
            Ok(list) => list,
            Err(_) => vec![text.clone()],
        },
        Some(_) => fields.str_list("commands")?,
    };
    Ok(Some(list.join("\n")).filter(|line| !line.is_empty()))
}

/// `read_files {files: [{path}, ...]}`: the first file's path (files may
/// also be plain strings, or the mirror's stringified array).
fn first_file(fields: &Fields<'_>) -> Result<Option<String>, ParseError> {
    let decoded;
    let files = match fields.value("files") {
        None => return fields.opt_string("path"),
        Some(Value::String(text)) => match serde_json::from_str::<Value>(text) {
            Ok(value) => {
                decoded = value;
                &decoded
            }
            Err(_) => return Ok(Some(text.clone()).filter(|t| !t.is_empty())),
        },
        Some(value) => value,
    };
    let Value::Array(files) = files else {
        return Err(fields.wrong_type("files", "an array"));
    };
    Ok(match files.first() {
        Some(Value::String(path)) => Some(path.clone()),
        Some(Value::Object(file)) => file.get("path").and_then(Value::as_str).map(str::to_owned),
        _ => None,
    })
}
