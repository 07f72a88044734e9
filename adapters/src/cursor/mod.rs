//! Cursor's hook dialect (`hooks.json` version 1): camelCase
//! `hook_event_name`, flat snake_case JSON replies on stdout, exit code 0.
//!
//! Cursor has two families of events for the same actions: the granular
//! ones (`beforeShellExecution`, `beforeReadFile`, ...) and the generic
//! tool ones (`preToolUse`, `postToolUse`, ...). They accept different
//! answers, so the capabilities are per event (Cursor's table in
//! [`hookgate_dialect::events`]) and `render`
//! degrades whatever an event cannot express, reporting a [`crate::Loss`].

mod parse;
mod render;
mod tools;

#[cfg(test)]
mod parse_tests;
#[cfg(test)]
mod render_tests;
#[cfg(test)]
mod robustness_tests;

use crate::adapter::Adapter;
use parse::parse;
use render::render;

/// Cursor's parse and render.
pub(crate) const ADAPTER: Adapter = Adapter {
    parse: |payload, _| parse(payload),
    render,
};
