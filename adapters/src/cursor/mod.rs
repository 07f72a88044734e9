//! Cursor's hook dialect (`hooks.json` version 1): camelCase
//! `hook_event_name`, flat snake_case JSON replies on stdout, exit code 0.
//!
//! Cursor has two families of events for the same actions: the granular
//! ones (`beforeShellExecution`, `beforeReadFile`, ...) and the generic
//! tool ones (`preToolUse`, `postToolUse`, ...). They accept different
//! answers, so the capabilities are per event ([`events`]) and `render`
//! degrades whatever an event cannot express, reporting a [`crate::Loss`].

pub(crate) mod events;
mod parse;
mod render;
mod tools;

#[cfg(test)]
mod parse_tests;
#[cfg(test)]
mod render_tests;
#[cfg(test)]
mod robustness_tests;

pub(crate) use parse::parse;
pub(crate) use render::render;
