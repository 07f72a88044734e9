//! Copilot CLI's tool names → hookgate's tool classes: its own names in
//! the camelCase dialect (`bash`, `view`, ...), Claude Code's in the
//! PascalCase one (`Bash`, `Read`, ...).

use crate::ToolClass;
use crate::claude_code::class_in;

#[rustfmt::skip]
const CAMEL: [(&str, ToolClass); 10] = [
    ("bash", ToolClass::Shell),
    ("view", ToolClass::FileRead),
    ("create", ToolClass::FileWrite),
    ("edit", ToolClass::FileWrite),
    ("grep", ToolClass::Search),
    ("glob", ToolClass::Search),
    ("web_fetch", ToolClass::Web),
    ("task", ToolClass::Subagent),
    ("read_bash", ToolClass::Other),
    ("skill", ToolClass::Other),
];

#[rustfmt::skip]
const PASCAL: [(&str, ToolClass); 9] = [
    ("Bash", ToolClass::Shell),
    ("Read", ToolClass::FileRead),
    ("Write", ToolClass::FileWrite),
    ("Edit", ToolClass::FileWrite),
    ("Grep", ToolClass::Search),
    ("Glob", ToolClass::Search),
    ("WebFetch", ToolClass::Web),
    ("Agent", ToolClass::Subagent),
    ("Task", ToolClass::Subagent),
];

pub(super) fn camel_class(name: &str) -> ToolClass {
    class_in(&CAMEL, name)
}

pub(super) fn pascal_class(name: &str) -> ToolClass {
    class_in(&PASCAL, name)
}
