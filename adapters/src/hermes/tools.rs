//! Hermes Agent's tool names (its `tools/` registry, 0.19.0) → hookgate's
//! tool classes.

use crate::ToolClass;
use crate::claude_code::class_in;

/// The core tools a coding session uses; the messaging, media and
/// home-automation tools are `Other`. `execute_code` runs Python rather
/// than a shell command line, so it is `Other` too (docs/agents.md).
const TOOLS: [(&str, ToolClass); 14] = [
    ("terminal", ToolClass::Shell),
    ("read_file", ToolClass::FileRead),
    ("write_file", ToolClass::FileWrite),
    ("patch", ToolClass::FileWrite),
    ("search_files", ToolClass::Search),
    ("session_search", ToolClass::Search),
    ("web_search", ToolClass::Web),
    ("web_extract", ToolClass::Web),
    ("browser_navigate", ToolClass::Web),
    ("delegate_task", ToolClass::Subagent),
    ("execute_code", ToolClass::Other),
    ("process", ToolClass::Other),
    ("read_terminal", ToolClass::Other),
    ("todo", ToolClass::Other),
];

pub(super) fn tool_class(name: &str) -> ToolClass {
    class_in(&TOOLS, name)
}
