//! Qwen Code's tool names (the runtime ids in its payloads and in the
//! tools it offers the model) → hookgate's tool classes.

use crate::ToolClass;
use crate::claude_code::class_in;

#[rustfmt::skip]
const TOOLS: [(&str, ToolClass); 15] = [
    ("run_shell_command", ToolClass::Shell),
    ("read_file", ToolClass::FileRead),
    ("read_many_files", ToolClass::FileRead),
    ("write_file", ToolClass::FileWrite),
    ("edit", ToolClass::FileWrite),
    ("notebook_edit", ToolClass::FileWrite),
    ("glob", ToolClass::Search),
    ("grep_search", ToolClass::Search),
    ("list_directory", ToolClass::Search),
    ("tool_search", ToolClass::Search),
    ("web_fetch", ToolClass::Web),
    ("web_search", ToolClass::Web),
    ("agent", ToolClass::Subagent),
    ("task", ToolClass::Subagent),
    ("list_agents", ToolClass::Other),
];

pub(super) fn tool_class(name: &str) -> ToolClass {
    class_in(&TOOLS, name)
}
