//! Hermes Agent's shell hooks (NousResearch `hermes-agent` 0.19.0), the
//! `hooks:` block of `$HERMES_HOME/config.yaml` (default `~/.hermes`).
//!
//! The payload is Claude-shaped at the top (`hook_event_name`, `tool_name`,
//! `tool_input`, `session_id`, `cwd`) with snake_case event names and every
//! event-specific value in an `extra` object, so Claude Code's parser reads
//! it (driven by [`PROTOCOL`]) and [`parse`] lifts the rest out of `extra`.
//! Replies are Hermes' own ([`render`]): stdout JSON only, exit codes are
//! ignored. Measured with the real CLI: docs/agents.md, "Hermes Agent".

mod render;
mod tools;

use serde_json::Value;

use crate::adapter::Adapter;
use crate::claude_code::Protocol;
use crate::json::{self, Fields};
use crate::{Dialect, HookEvent, ParseError, StopInfo, ToolClass};

pub(crate) use render::render;

/// Hermes' events and tools, for Claude Code's parser and for `render`.
pub(crate) const PROTOCOL: Protocol = Protocol::new(Dialect::Hermes, tools::tool_class);

/// Its parse and render.
pub(crate) const ADAPTER: Adapter = Adapter {
    parse: |payload, _| parse(payload),
    render,
};

/// Parses one Hermes payload: Claude Code's parser over the top level,
/// then what Hermes puts in `extra` (a missing or non-object `extra` is
/// no extra).
pub(crate) fn parse(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let mut event = PROTOCOL.parse(payload)?;
    let map = json::object(PROTOCOL.dialect, payload)?;
    let root = Fields::root(PROTOCOL.dialect, &map);
    let Some(extra) = root.opt_object("extra")? else {
        return Ok(event);
    };
    event.model = extra.opt_string("model")?.or(event.model.take());
    match event.native_event.as_str() {
        "pre_llm_call" => {
            event.prompt = extra.opt_string("user_message")?.or(event.prompt.take());
        }
        "post_llm_call" => event.text = extra.opt_string("assistant_response")?,
        "on_session_finalize" => event.reason = extra.opt_string("reason")?,
        "on_session_end" => {
            event.stop = Some(StopInfo {
                status: match (extra.flag("interrupted")?, extra.flag("completed")?) {
                    (true, _) => Some("interrupted".to_owned()),
                    (false, true) => Some("completed".to_owned()),
                    (false, false) => None,
                },
                loop_count: None,
                continuing: false,
            });
        }
        "subagent_stop" => {
            event.subagent_id = extra.opt_string("child_session_id")?;
            event.text = extra.opt_string("child_summary")?;
        }
        _ => {}
    }
    if let Some(tool) = event.tool.as_mut() {
        tool.call_id = extra.opt_string("tool_call_id")?;
        tool.duration_ms = extra.opt_millis("duration_ms")?;
        tool.error = extra.opt_string("error_message")?;
        tool.output = match extra.value("result") {
            None => None,
            Some(Value::String(text)) => Some(text.clone()),
            Some(other) => Some(other.to_string()),
        };
        // Hermes' file tools name the file `path`, not `file_path`.
        if matches!(tool.class, ToolClass::FileRead | ToolClass::FileWrite)
            && tool.file_path.is_none()
            && let Some(input) = root.opt_object("tool_input")?
        {
            tool.file_path = input.opt_string("path")?;
        }
    }
    Ok(event)
}

#[cfg(test)]
mod tests;
