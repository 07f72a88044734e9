//! Copilot CLI's camelCase hooks (`preToolUse`, ...): payloads with
//! `sessionId`, `toolName`, `toolArgs`, an epoch-ms `timestamp` and **no
//! event name** (the event comes from the shim's argument, `gateway-shim
//! copilot preToolUse`; only `permissionRequest` names itself in
//! `hookName`), and flat stdout JSON replies.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::CAMEL;
use crate::claude_code::output::{DEFAULT_DENY, finish_flat, user_message};
use crate::decision::non_empty;
use crate::json::{self, Fields};
use crate::{Decision, HookEvent, Loss, ParseError, Permission, Rendered, StopInfo, Tool};
use hookgate_dialect::events::{DenyForm, EventSpec, FollowupForm};

/// Parses one camelCase payload of `native_event`.
pub(crate) fn parse(payload: &[u8], native_event: &str) -> Result<HookEvent, ParseError> {
    let dialect = CAMEL.dialect;
    let map = json::object(dialect, payload)?;
    let root = Fields::root(dialect, &map);
    let spec = CAMEL.spec(native_event);
    let mut event = HookEvent::new(dialect, native_event, spec.kind);
    event.blocking = spec.blocking;
    event.capabilities = spec.capabilities();
    event.session_id = root.opt_string("sessionId")?;
    event.cwd = root.opt_string("cwd")?;
    event.transcript_path = root.opt_string("transcriptPath")?;
    event.prompt = root.opt_string("prompt")?.filter(|p| !p.is_empty());
    event.reason = match spec.reason_key {
        Some(key) => root.opt_string(key)?,
        None => None,
    };
    if spec.followup != FollowupForm::None {
        event.stop = Some(StopInfo {
            status: None,
            loop_count: None,
            continuing: root.flag("stop_hook_active")?,
        });
    }
    event.tool = tool(&root, &map)?;
    event.trace = super::trace_context(&map);
    Ok(event)
}

fn tool(root: &Fields<'_>, map: &Map<String, Value>) -> Result<Option<Tool>, ParseError> {
    let Some(name) = root.opt_str("toolName")? else {
        return Ok(None);
    };
    // `toolArgs` on tool events, `toolInput` on permissionRequest.
    let key = if map.contains_key("toolArgs") {
        "toolArgs"
    } else {
        "toolInput"
    };
    let input = match map.get(key) {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(value @ Value::Object(_)) => value.clone(),
        Some(_) => return Err(root.wrong_type(key, "an object")),
    };
    let class = super::tools::camel_class(name);
    let args = root.opt_object(key)?;
    let arg = |field: &str| match &args {
        Some(args) => args.opt_string(field),
        None => Ok(None),
    };
    let result = root.opt_object("toolResult")?;
    let named = crate::paths::find(&input);
    Ok(Some(Tool {
        name: name.to_owned(),
        class,
        paths: named.paths,
        paths_overflow: named.overflow,
        input,
        command: match class {
            crate::ToolClass::Shell => arg("command")?,
            _ => None,
        },
        mcp_server: None,
        file_path: match class {
            crate::ToolClass::FileRead | crate::ToolClass::FileWrite => arg("path")?,
            _ => None,
        },
        output: match &result {
            Some(result) => result.opt_string("textResultForLlm")?,
            None => None,
        },
        error: root.opt_string("error")?,
        duration_ms: None,
        call_id: root.opt_string("toolCallId")?,
    }))
}

/// Where a reply puts the permission and the rewritten input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// camelCase config: flat `permissionDecision`, `modifiedArgs`.
    Camel,
    /// PascalCase config: Claude Code's `hookSpecificOutput {hookEventName,
    /// permissionDecision, permissionDecisionReason, updatedInput}`.
    Pascal,
}

/// Renders `decision` as the reply to `event` of either dialect (`spec`
/// its row). Both read a top-level `additionalContext` (measured on
/// 1.0.102: the PascalCase hooks ignore Claude Code's
/// `hookSpecificOutput.additionalContext`) and agentStop / Stop's
/// `decision: "block"`; neither reads `continue: false`.
pub(crate) fn render_as(decision: &Decision, spec: &EventSpec, form: Form) -> Rendered {
    let mut reply: BTreeMap<&'static str, Value> = BTreeMap::new();
    let mut specific: Map<String, Value> = Map::new();
    let mut losses = Vec::new();
    let message = user_message(decision);
    let denies_calls = !matches!(spec.deny, DenyForm::None | DenyForm::Feedback);
    let permission = match decision.permission {
        _ if decision.halt && denies_calls => Permission::Deny,
        Permission::Ask => {
            losses.push(Loss::Ask);
            if denies_calls {
                Permission::Deny
            } else {
                Permission::Unspecified
            }
        }
        permission => permission,
    };
    if decision.halt {
        losses.push(Loss::Halt);
    }
    let reason = || message.clone().unwrap_or_else(|| DEFAULT_DENY.to_owned());
    // A deny after the tool ran: nothing is prevented (a loss), and the
    // model reads why next to any context.
    let mut feedback = None;
    let mut said = |key: &'static str, value: Value| match form {
        Form::Camel => {
            reply.insert(key, value);
        }
        Form::Pascal => {
            specific.insert(key.to_owned(), value);
        }
    };
    match (permission, spec.deny) {
        (Permission::Deny, DenyForm::PermissionDecision) => {
            said("permissionDecision", json!("deny"));
            said("permissionDecisionReason", json!(reason()));
        }
        (Permission::Deny, DenyForm::Behavior) => {
            said("behavior", json!("deny"));
            said("message", json!(reason()));
        }
        (Permission::Deny, DenyForm::Feedback) => {
            losses.push(Loss::Deny);
            feedback = Some(reason());
        }
        (Permission::Deny, _) => losses.push(Loss::Deny),
        (Permission::Allow, DenyForm::PermissionDecision) => {
            said("permissionDecision", json!("allow"));
        }
        (Permission::Allow, DenyForm::Behavior) => said("behavior", json!("allow")),
        _ => {}
    }
    let denied = permission == Permission::Deny;
    if let Some(input) = &decision.updated_input {
        if spec.rewrite && input.is_object() && !denied {
            said("permissionDecision", json!("allow"));
            let key = match form {
                Form::Camel => "modifiedArgs",
                Form::Pascal => "updatedInput",
            };
            said(key, input.clone());
        } else {
            losses.push(Loss::InputRewrite);
        }
    }
    if !specific.is_empty() {
        specific.insert("hookEventName".to_owned(), json!(spec.name));
        reply.insert("hookSpecificOutput", Value::Object(specific));
    }
    let context = non_empty(&decision.additional_context);
    if context.is_some() && !spec.context {
        losses.push(Loss::Context);
    }
    let context = match (feedback, context.filter(|_| spec.context)) {
        (None, None) => None,
        (Some(feedback), None) => Some(feedback),
        (None, Some(context)) => Some(context.to_owned()),
        (Some(feedback), Some(context)) => Some(format!("{feedback}\n\n{context}")),
    };
    if let Some(context) = context {
        reply.insert("additionalContext", json!(context));
    }
    finish_flat(reply, decision, spec, losses)
}
