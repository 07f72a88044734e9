//! Cline legacy (VS Code extension) hook payload to canonical event.
//!
//! The session is `taskId`, the working directory `workspaceRoots[0]`, the
//! model `model.slug`. `timestamp` (milliseconds since the epoch, as a
//! string) has no canonical field and is not read. Tool events carry
//! `preToolUse`/`postToolUse` with the old XML tool names and a string map
//! of parameters; the SDK dialect mirrors the same objects, so their
//! readers live here and are shared.

use serde_json::{Map, Value};

use super::envelope::{compaction_strategy, event_header, nested_string, submitted_prompt};
use super::tools::tool;
use crate::json::{self, Fields};
use crate::{Dialect, EventKind, HookEvent, ParseError, ParseErrorKind, Tool};

const DIALECT: Dialect = Dialect::ClineLegacy;

/// Parses one Cline legacy hook payload.
pub(crate) fn parse_legacy(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let map = json::object(DIALECT, payload)?;
    let fields = Fields::root(DIALECT, &map);
    let native = fields.req_str("hookName")?;
    let (mut kind, capabilities, blocking) = crate::adapter::behaviour(DIALECT, native);

    let workspace_roots = fields.str_list("workspaceRoots")?;
    let model = nested_string(&fields, "model", "slug")?.filter(|slug| slug != "unknown");

    let mut tool_info = None;
    let mut prompt = None;
    let mut text = None;
    let mut reason = None;
    match native {
        "PreToolUse" => {
            tool_info =
                Some(mirror_pre_tool(&fields, DIALECT)?.ok_or_else(|| missing("preToolUse"))?);
        }
        "PostToolUse" => {
            let done = mirror_post_tool(&fields, DIALECT)?.ok_or_else(|| missing("postToolUse"))?;
            if done.error.is_some() {
                kind = EventKind::ToolFailure;
            }
            tool_info = Some(done);
        }
        "UserPromptSubmit" => prompt = submitted_prompt(&fields)?,
        "TaskStart" => {
            prompt = metadata(
                &fields,
                "taskStart",
                "taskStart.taskMetadata",
                "initialTask",
            )?;
        }
        "TaskCancel" => {
            reason = metadata(
                &fields,
                "taskCancel",
                "taskCancel.taskMetadata",
                "completionStatus",
            )?;
        }
        "TaskComplete" => {
            text = metadata(
                &fields,
                "taskComplete",
                "taskComplete.taskMetadata",
                "result",
            )?;
        }
        "Notification" => reason = nested_string(&fields, "notification", "message")?,
        "PreCompact" => reason = compaction_strategy(&fields)?,
        _ => {}
    }

    // `clineVersion` is read before the fields below, so a payload with
    // several bad fields always gets the same error.
    let header = event_header(DIALECT, &fields, native, (kind, capabilities, blocking))?;
    Ok(HookEvent {
        session_id: fields.opt_string("taskId")?,
        cwd: workspace_roots.first().cloned(),
        workspace_roots,
        model,
        tool: tool_info,
        prompt,
        text,
        reason,
        ..header
    })
}

/// `preToolUse {toolName, parameters}`, if present.
pub(super) fn mirror_pre_tool(
    fields: &Fields<'_>,
    dialect: Dialect,
) -> Result<Option<Tool>, ParseError> {
    let Some(pre) = fields.opt_object("preToolUse")? else {
        return Ok(None);
    };
    let name = pre.req_str("toolName")?;
    tool(dialect, name, parameters(&pre)?, "preToolUse.parameters").map(Some)
}

/// `postToolUse {toolName, parameters, result, success, executionTimeMs}`,
/// if present. `success: false` makes the result the tool's error.
pub(super) fn mirror_post_tool(
    fields: &Fields<'_>,
    dialect: Dialect,
) -> Result<Option<Tool>, ParseError> {
    let Some(post) = fields.opt_object("postToolUse")? else {
        return Ok(None);
    };
    let name = post.req_str("toolName")?;
    let mut done = tool(dialect, name, parameters(&post)?, "postToolUse.parameters")?;
    let result = post.opt_string("result")?;
    let success = match post.value("success") {
        None => true,
        Some(Value::Bool(success)) => *success,
        Some(_) => return Err(post.wrong_type("success", "a boolean")),
    };
    if !success {
        done.error = Some(result.clone().unwrap_or_else(|| "failed".to_owned()));
    }
    done.output = result;
    done.duration_ms = post.opt_millis("executionTimeMs")?;
    Ok(Some(done))
}

/// `parameters`: an object (of strings, but any values are kept).
fn parameters(object: &Fields<'_>) -> Result<Value, ParseError> {
    match object.value("parameters") {
        None => Ok(Value::Object(Map::new())),
        Some(params @ Value::Object(_)) => Ok(params.clone()),
        Some(_) => Err(object.wrong_type("parameters", "an object")),
    }
}

/// `<outer>.taskMetadata.<key>` as a string.
fn metadata(
    fields: &Fields<'_>,
    outer: &str,
    path: &str,
    key: &str,
) -> Result<Option<String>, ParseError> {
    let Some(outer) = fields.opt_object(outer)? else {
        return Ok(None);
    };
    match outer.value("taskMetadata") {
        None => Ok(None),
        Some(Value::Object(map)) => Fields::at(DIALECT, path, map).opt_string(key),
        Some(_) => Err(outer.wrong_type("taskMetadata", "an object")),
    }
}

fn missing(field: &str) -> ParseError {
    ParseError::new(DIALECT, ParseErrorKind::MissingField(field.to_owned()))
}
