//! Codex's tool names as its hooks name them (normalised to Claude Code's:
//! `exec_command` is `Bash`, `apply_patch` keeps its name) → hookgate's
//! tool classes.

use crate::ToolClass;
use crate::claude_code::class_in;

#[rustfmt::skip]
const TOOLS: [(&str, ToolClass); 4] = [
    ("Bash", ToolClass::Shell),
    ("apply_patch", ToolClass::FileWrite),
    ("view_image", ToolClass::FileRead),
    ("web_search", ToolClass::Web),
];

pub(super) fn tool_class(name: &str) -> ToolClass {
    class_in(&TOOLS, name)
}
