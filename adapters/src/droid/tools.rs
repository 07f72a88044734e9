//! Factory Droid's tool names (the tools it offers the model and names in
//! its payloads) → hookgate's tool classes.

use crate::ToolClass;
use crate::claude_code::class_in;

#[rustfmt::skip]
const TOOLS: [(&str, ToolClass); 12] = [
    ("Execute", ToolClass::Shell),
    ("Read", ToolClass::FileRead),
    ("Create", ToolClass::FileWrite),
    ("Edit", ToolClass::FileWrite),
    ("MultiEdit", ToolClass::FileWrite),
    ("ApplyPatch", ToolClass::FileWrite),
    ("LS", ToolClass::Search),
    ("Grep", ToolClass::Search),
    ("Glob", ToolClass::Search),
    ("FetchUrl", ToolClass::Web),
    ("WebSearch", ToolClass::Web),
    ("Task", ToolClass::Subagent),
];

pub(super) fn tool_class(name: &str) -> ToolClass {
    class_in(&TOOLS, name)
}
