//! Gemini CLI payload → [`HookEvent`]: the fields it shares with Claude
//! Code's payloads (`session_id`, `cwd`, `transcript_path`, `tool_name`,
//! `tool_input`, `prompt`) are read by Claude Code's parser through
//! [`super::PROTOCOL`]; the two events whose payloads differ are finished
//! here.

use serde_json::Value;

use super::PROTOCOL;
use crate::json::{self, Fields};
use crate::{HookEvent, ParseError, StopInfo};

/// Parses one Gemini CLI payload.
pub(crate) fn parse(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let mut event = PROTOCOL.parse(payload)?;
    match event.native_event.as_str() {
        // AfterAgent is Gemini's stop: the answer is `prompt_response`.
        "AfterAgent" => {
            let map = json::object(PROTOCOL.dialect, payload)?;
            let root = Fields::root(PROTOCOL.dialect, &map);
            event.text = root.opt_string("prompt_response")?;
            event.stop = Some(StopInfo {
                status: None,
                loop_count: None,
                continuing: root.flag("stop_hook_active")?,
            });
        }
        // AfterTool's `tool_response` is `{llmContent, returnDisplay,
        // error?}`: the output is what the model reads, `llmContent`.
        "AfterTool" => {
            let map = json::object(PROTOCOL.dialect, payload)?;
            let root = Fields::root(PROTOCOL.dialect, &map);
            if let (Some(tool), Some(response)) =
                (event.tool.as_mut(), root.opt_object("tool_response")?)
            {
                if let Some(content) = response.value("llmContent") {
                    tool.output = Some(match content {
                        Value::String(text) => text.clone(),
                        other => other.to_string(),
                    });
                }
                tool.error = match response.value("error") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(text)) => Some(text.clone()),
                    Some(other) => Some(other.to_string()),
                };
            }
        }
        _ => {}
    }
    Ok(event)
}
