//! Claude Code's hook dialect: `hook_event_name` in PascalCase, answers as
//! exit codes plus a stdout JSON whose shape depends on the event
//! (protocols.md §1; the rendering rules are in docs/agents.md).
//!
//! `events` is the single table of what each event is and can express;
//! `parse` and `render` both read it, so they cannot disagree.

mod events;
mod parse;
mod render;

pub(crate) use parse::parse;
pub(crate) use render::render;

#[cfg(test)]
mod tests;
