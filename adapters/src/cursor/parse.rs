//! Cursor payload to canonical event.
//!
//! Common fields: `conversation_id` (newer builds also `session_id`, the
//! same value) is the session; `cwd` exists only on shell and tool events
//! and is often `""`, so the first workspace root stands in for it.

use serde_json::{Map, Value, json};

use super::tools::{decode_input, generic_tool, text_of};
use crate::json::{self, Fields};
use crate::{Dialect, HookEvent, ParseError, StopInfo, Tool, ToolClass};

/// Parses one Cursor hook payload.
pub(crate) fn parse(payload: &[u8]) -> Result<HookEvent, ParseError> {
    let map = json::object(Dialect::Cursor, payload)?;
    let fields = Fields::root(Dialect::Cursor, &map);
    let native = fields.req_str("hook_event_name")?;
    let (kind, mut capabilities, blocking) = crate::adapter::behaviour(Dialect::Cursor, native);

    let workspace_roots = fields.str_list("workspace_roots")?;
    let cwd = fields.opt_string("cwd")?;
    let conversation_id = fields.opt_string("conversation_id")?;
    let session_id = fields.opt_string("session_id")?;
    let mut event = HookEvent {
        agent_version: fields.opt_string("cursor_version")?,
        capabilities,
        session_id: conversation_id.or(session_id),
        cwd: cwd.or_else(|| workspace_roots.first().cloned()),
        workspace_roots,
        transcript_path: fields.opt_string("transcript_path")?,
        model: fields.opt_string("model")?,
        ..HookEvent::new(Dialect::Cursor, native, kind)
    };

    match native {
        "beforeShellExecution" | "afterShellExecution" => {
            let command = fields.req_str("command")?;
            let mut input = Map::new();
            input.insert("command".into(), Value::String(command.to_owned()));
            if let Some(cwd) = fields.opt_string("cwd")? {
                input.insert("cwd".into(), Value::String(cwd));
            }
            // The generic name, so one policy covers both hook families.
            let mut shell = Tool::new("Shell", ToolClass::Shell, Value::Object(input));
            shell.command = Some(command.to_owned());
            shell.output = fields.opt_string("output")?;
            shell.duration_ms = fields.opt_millis("duration")?;
            event.tool = Some(shell);
        }
        "beforeMCPExecution" | "afterMCPExecution" => {
            let name = fields.req_str("tool_name")?;
            let mut mcp = Tool::new(name, ToolClass::Mcp, decode_input(&fields, "tool_input")?);
            // Cursor names the server only by how it is reached.
            let url = fields.opt_string("url")?;
            let command = fields.opt_string("command")?;
            mcp.mcp_server = url.or(command);
            mcp.output = text_of(fields.value("result_json"));
            mcp.duration_ms = fields.opt_millis("duration")?;
            event.tool = Some(mcp);
        }
        "beforeReadFile" | "beforeTabFileRead" => {
            let path = fields.req_str("file_path")?;
            let content = fields.opt_str("content")?;
            let name = if native == "beforeTabFileRead" {
                "TabRead"
            } else {
                "Read"
            };
            let mut read = Tool::new(
                name,
                ToolClass::FileRead,
                json!({ "file_path": path, "content": content }),
            );
            read.file_path = Some(path.to_owned());
            event.tool = Some(read);
        }
        "afterFileEdit" | "afterTabFileEdit" => {
            let path = fields.req_str("file_path")?;
            let edits = match fields.value("edits") {
                None => Value::Array(Vec::new()),
                Some(edits @ Value::Array(_)) => edits.clone(),
                Some(_) => return Err(fields.wrong_type("edits", "an array")),
            };
            let name = if native == "afterTabFileEdit" {
                "TabWrite"
            } else {
                "Write"
            };
            let mut write = Tool::new(
                name,
                ToolClass::FileWrite,
                json!({ "file_path": path, "edits": edits }),
            );
            write.file_path = Some(path.to_owned());
            event.tool = Some(write);
        }
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            let mut generic = generic_tool(&fields)?;
            generic.output = text_of(fields.value("tool_output"));
            generic.error = fields.opt_string("error_message")?;
            generic.duration_ms = fields.opt_millis("duration")?;
            event.reason = fields.opt_string("failure_type")?;
            event.tool = Some(generic);
        }
        "beforeSubmitPrompt" => event.prompt = fields.opt_string("prompt")?,
        "afterAgentResponse" | "afterAgentThought" => event.text = fields.opt_string("text")?,
        "stop" | "subagentStop" => {
            let status = fields.opt_string("status")?;
            let loop_count = fields.opt_u64("loop_count")?;
            // Cursor honours a subagent follow-up only after a completed run.
            if native == "subagentStop" {
                capabilities.followup = status.as_deref().is_none_or(|s| s == "completed");
                event.subagent_id = fields.opt_string("subagent_id")?;
                event.text = fields.opt_string("summary")?;
            }
            event.stop = Some(StopInfo {
                status,
                loop_count: loop_count.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
                continuing: loop_count.is_some_and(|n| n > 0),
            });
        }
        "subagentStart" => {
            let subagent_type = fields.opt_string("subagent_type")?;
            let task = fields.opt_string("task")?;
            let mut task_tool = Tool::new(
                "Task",
                ToolClass::Subagent,
                json!({ "subagent_type": subagent_type, "task": task }),
            );
            task_tool.call_id = fields.opt_string("tool_call_id")?;
            event.subagent_id = fields.opt_string("subagent_id")?;
            event.prompt = task;
            event.tool = Some(task_tool);
        }
        "sessionEnd" => event.reason = fields.opt_string("reason")?,
        "preCompact" => event.reason = fields.opt_string("trigger")?,
        // Nothing event-specific to read (sessionStart, workspaceOpen,
        // unknown events).
        _ => {}
    }

    event.capabilities = capabilities;
    // A row's answer that this payload makes moot (a follow-up after a
    // failed run) leaves nothing for Cursor to wait on.
    event.blocking = blocking && capabilities.any();
    Ok(event)
}
