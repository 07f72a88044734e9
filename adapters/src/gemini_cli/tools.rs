//! Gemini CLI's built-in tool names (the `*_TOOL_NAME` constants of its
//! 0.61.0 bundle, as offered to the model) → hookgate's tool classes.

use crate::ToolClass;
use crate::claude_code::class_in;

#[rustfmt::skip]
const TOOLS: [(&str, ToolClass); 14] = [
    ("run_shell_command", ToolClass::Shell),
    ("read_file", ToolClass::FileRead),
    ("read_many_files", ToolClass::FileRead),
    ("write_file", ToolClass::FileWrite),
    ("replace", ToolClass::FileWrite),
    ("glob", ToolClass::Search),
    ("grep_search", ToolClass::Search),
    ("list_directory", ToolClass::Search),
    ("web_fetch", ToolClass::Web),
    ("google_web_search", ToolClass::Web),
    ("invoke_agent", ToolClass::Subagent),
    ("write_todos", ToolClass::Other),
    ("activate_skill", ToolClass::Other),
    ("enter_plan_mode", ToolClass::Other),
];

pub(super) fn tool_class(name: &str) -> ToolClass {
    class_in(&TOOLS, name)
}
