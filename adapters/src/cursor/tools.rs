//! The tool a Cursor event is about: the generic tool names of
//! `preToolUse`/`postToolUse` (`Shell`, `Read`, `MCP:<name>`, ...) and the
//! `tool_input` that MCP events send as a JSON string.

use serde_json::{Map, Value};

use crate::json::Fields;
use crate::{Dialect, ParseError, Tool, ToolClass};

/// The class of one of Cursor's generic tool names (the values its
/// `preToolUse` matcher matches). Unknown names are [`ToolClass::Other`].
pub(super) fn classify(name: &str) -> ToolClass {
    if name.starts_with("MCP:") {
        return ToolClass::Mcp;
    }
    match name {
        "Shell" => ToolClass::Shell,
        "Read" | "TabRead" => ToolClass::FileRead,
        "Write" | "TabWrite" | "Edit" | "MultiEdit" | "StrReplace" | "Delete" => {
            ToolClass::FileWrite
        }
        "Grep" | "Glob" | "LS" | "Search" | "SemanticSearch" | "CodebaseSearch" => {
            ToolClass::Search
        }
        "WebFetch" | "WebSearch" | "Fetch" => ToolClass::Web,
        "Task" => ToolClass::Subagent,
        _ => ToolClass::Other,
    }
}

/// `tool_input`: an object, or (MCP events, per Cursor's docs) a JSON
/// string holding one. A string that is not JSON is kept as a string;
/// absent means an empty object.
pub(super) fn decode_input(fields: &Fields<'_>, key: &str) -> Result<Value, ParseError> {
    match fields.value(key) {
        None => Ok(Value::Object(Map::new())),
        Some(Value::String(text)) => {
            Ok(serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone())))
        }
        Some(value @ Value::Object(_)) => Ok(value.clone()),
        Some(_) => Err(fields.wrong_type(key, "an object or a JSON string")),
    }
}

/// A value that Cursor may send as text or as JSON (`tool_output`,
/// `result_json`), as text.
pub(super) fn text_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(text) if text.is_empty() => None,
        Value::String(text) => Some(text.clone()),
        other => Some(other.to_string()),
    }
}

/// A generic tool event's tool: `tool_name`, `tool_input`, `tool_use_id`,
/// with the command or file path lifted out of the input by class.
pub(super) fn generic_tool(fields: &Fields<'_>) -> Result<Tool, ParseError> {
    let name = fields.req_str("tool_name")?;
    let input = decode_input(fields, "tool_input")?;
    let class = classify(name);
    let mut tool = Tool::new(name, class, input);
    tool.call_id = fields.opt_string("tool_use_id")?;
    if let Value::Object(map) = &tool.input {
        let input = Fields::at(Dialect::Cursor, "tool_input", map);
        match class {
            ToolClass::Shell => tool.command = input.opt_string("command")?,
            ToolClass::FileRead | ToolClass::FileWrite => {
                let file_path = input.opt_string("file_path")?;
                let path = input.opt_string("path")?;
                tool.file_path = file_path.or(path);
            }
            _ => {}
        }
    }
    Ok(tool)
}
