//! OpenCode 1.18.33's built-in tool ids (the `tool` of its hooks and the
//! names it offers the model) → hookgate's tool classes.

use crate::ToolClass;
use crate::claude_code::class_in;

#[rustfmt::skip]
const TOOLS: [(&str, ToolClass); 12] = [
    ("bash", ToolClass::Shell),
    ("read", ToolClass::FileRead),
    ("edit", ToolClass::FileWrite),
    ("write", ToolClass::FileWrite),
    ("patch", ToolClass::FileWrite),
    ("glob", ToolClass::Search),
    ("grep", ToolClass::Search),
    ("list", ToolClass::Search),
    ("webfetch", ToolClass::Web),
    ("task", ToolClass::Subagent),
    ("todowrite", ToolClass::Other),
    ("skill", ToolClass::Other),
];

pub(super) fn tool_class(name: &str) -> ToolClass {
    class_in(&TOOLS, name)
}
