//! Cline SDK file-hook payload to canonical event.
//!
//! The session is `sessionContext.rootSessionId` (the same across a task's
//! subagents) or else `taskId`; the working directory is
//! `workspaceInfo.rootPath` or else `workspaceRoots[0]` (there is no `cwd`
//! field). `agent_id` is a subagent's id only when `parent_agent_id` is set.
//! `tool_call`/`tool_result` also carry a legacy-style `preToolUse`/
//! `postToolUse` mirror; it is read only when the SDK object is missing.

use serde_json::{Map, Value};

use super::envelope::{compaction_strategy, event_header, nested_string, submitted_prompt};
use super::legacy::{mirror_post_tool, mirror_pre_tool};
use super::tools::tool;
use crate::json::{self, Fields};
use crate::{Dialect, EventKind, HookEvent, ParseError, ParseErrorKind, Tool};

const DIALECT: Dialect = Dialect::ClineSdk;

/// Parses one Cline SDK hook payload.
pub(crate) fn parse_sdk(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let map = json::object(DIALECT, payload)?;
    let fields = Fields::root(DIALECT, &map);
    let native = fields.req_str("hookName")?;
    let (mut kind, capabilities, blocking) = crate::adapter::behaviour(DIALECT, native);

    let workspace_roots = fields.str_list("workspaceRoots")?;
    let root_path = nested_string(&fields, "workspaceInfo", "rootPath")?;
    let root_session = nested_string(&fields, "sessionContext", "rootSessionId")?;
    let task_id = fields.opt_string("taskId")?;
    let agent_id = fields.opt_string("agent_id")?;
    let parent_agent_id = fields.opt_string("parent_agent_id")?;

    let mut tool_info = None;
    let mut prompt = None;
    let mut text = None;
    let mut reason = None;
    match native {
        "tool_call" => tool_info = Some(tool_call(&fields)?),
        "tool_result" => {
            let result = tool_result(&fields)?;
            if result.error.is_some() {
                kind = EventKind::ToolFailure;
            }
            tool_info = Some(result);
        }
        "prompt_submit" => prompt = submitted_prompt(&fields)?,
        "agent_end" => {
            if let Some(turn) = fields.opt_object("turn")? {
                text = turn.opt_string("outputText")?;
                reason = turn.opt_string("status")?;
            }
        }
        "agent_error" => reason = nested_string(&fields, "error", "message")?,
        "agent_abort" | "session_shutdown" => reason = fields.opt_string("reason")?,
        "pre_compact" => reason = compaction_strategy(&fields)?,
        _ => {}
    }

    // `clineVersion` is read before the fields below, so a payload with
    // several bad fields always gets the same error.
    let header = event_header(DIALECT, &fields, native, (kind, capabilities, blocking))?;
    Ok(HookEvent {
        session_id: root_session.or(task_id),
        cwd: root_path.or_else(|| workspace_roots.first().cloned()),
        workspace_roots,
        tool: tool_info,
        prompt,
        text,
        reason,
        subagent_id: parent_agent_id.and(agent_id),
        ..header
    })
}

/// `tool_call {id, name, input}`, or the `preToolUse` mirror without it.
fn tool_call(fields: &Fields<'_>) -> Result<Tool, ParseError> {
    let Some(call) = fields.opt_object("tool_call")? else {
        return mirror_pre_tool(fields, DIALECT)?.ok_or_else(|| missing("tool_call"));
    };
    let mut called = sdk_tool(&call, "tool_call.input")?;
    called.call_id = call.opt_string("id")?;
    Ok(called)
}

/// `tool_result {id, name, input, output, error?, durationMs}`, or the
/// `postToolUse` mirror without it.
fn tool_result(fields: &Fields<'_>) -> Result<Tool, ParseError> {
    let Some(result) = fields.opt_object("tool_result")? else {
        return mirror_post_tool(fields, DIALECT)?.ok_or_else(|| missing("tool_result"));
    };
    let mut done = sdk_tool(&result, "tool_result.input")?;
    done.call_id = result.opt_string("id")?;
    done.output = text_of(result.value("output"));
    // `error` is a message when set; tolerate a `false` flag as "none".
    done.error = match result.value("error") {
        Some(Value::Bool(false)) => None,
        error => text_of(error),
    };
    done.duration_ms = result.opt_millis("durationMs")?;
    Ok(done)
}

fn sdk_tool(object: &Fields<'_>, input_path: &str) -> Result<Tool, ParseError> {
    let name = object.req_str("name")?;
    let input = object
        .value("input")
        .cloned()
        .unwrap_or_else(|| Value::Object(Map::new()));
    tool(DIALECT, name, input, input_path)
}

/// Tool output or error as text: strings as they are, other JSON
/// serialized; empty means none.
fn text_of(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(text) if text.is_empty() => None,
        Value::String(text) => Some(text.clone()),
        other => Some(other.to_string()),
    }
}

fn missing(field: &str) -> ParseError {
    ParseError::new(DIALECT, ParseErrorKind::MissingField(field.to_owned()))
}
