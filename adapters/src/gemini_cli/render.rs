//! Merged [`Decision`] → Gemini CLI's reply: one stdout JSON object, exit
//! 0 (Gemini reads the JSON before the exit code). The rules, measured on
//! 0.61.0, are in docs/agents.md ("Gemini CLI"):
//!
//! * deny → `decision: "deny"` + `reason` (BeforeTool: the model reads
//!   `Tool execution blocked: <reason>`); AfterTool's deny only replaces
//!   the result of a tool that already ran, so it is also a [`Loss::Deny`];
//! * ask → deny (no event can show a dialog headless), [`Loss::Ask`];
//! * allow → the neutral reply: Gemini reads no allow, its own policy
//!   still decides, so on BeforeTool that is a [`Loss::Allow`];
//! * rewrite → `hookSpecificOutput.tool_input`, which Gemini *merges* into
//!   the original input (`Object.assign`): the replacement is rendered
//!   whole, so every key it names wins; a key it drops keeps its original
//!   value, which is reported as a [`Loss::InputRewrite`];
//! * context → `hookSpecificOutput.additionalContext`;
//! * halt → `continue: false` + `stopReason`;
//! * follow-up → AfterAgent's `decision: "block"` + `reason`.

use serde::Serialize;
use serde_json::{Map, Value};

use super::PROTOCOL;
use crate::claude_code::output::{DEFAULT_DENY, DEFAULT_HALT, effective_permission, user_message};
use crate::decision::non_empty;
use crate::json;
use crate::{Decision, HookEvent, Loss, Permission, Rendered};
use hookgate_dialect::events::{DenyForm, EventSpec, FollowupForm};

/// The stdout JSON, in a fixed field order.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Output<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    continue_: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hook_specific_output: Option<Specific<'a>>,
}

#[derive(Debug, Default, Serialize)]
struct Specific<'a> {
    #[serde(rename = "additionalContext", skip_serializing_if = "Option::is_none")]
    additional_context: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_input: Option<&'a Map<String, Value>>,
}

/// Renders `decision` as Gemini CLI's reply to `event`.
pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let spec = PROTOCOL.spec(&event.native_event);
    let mut losses = Vec::new();
    let mut output = Output::default();
    let mut specific = Specific::default();

    // No Gemini row asks or denies calls by `permissionDecision`: an ask
    // is a deny where one can be said, else nothing (Claude Code's rule).
    match effective_permission(spec, decision, &mut losses) {
        Permission::Deny => deny(spec, decision, &mut output, &mut losses),
        Permission::Allow if spec.deny != DenyForm::None && event.tool.is_some() => {
            losses.push(Loss::Allow);
        }
        _ => {}
    }
    if let Some(input) = &decision.updated_input {
        specific.tool_input = rewrite(spec, event, input, output.decision, &mut losses);
    }
    if let Some(context) = non_empty(&decision.additional_context) {
        if spec.context {
            specific.additional_context = Some(context);
        } else {
            losses.push(Loss::Context);
        }
    }
    if let Some(message) = non_empty(&decision.followup_message) {
        if spec.followup == FollowupForm::Block {
            output.decision = Some("block");
            output.reason = Some(message.to_owned());
        } else {
            losses.push(Loss::Followup);
        }
    }
    if decision.halt {
        if spec.halt {
            output.continue_ = Some(false);
            output.stop_reason =
                Some(user_message(decision).unwrap_or_else(|| DEFAULT_HALT.to_owned()));
        } else {
            losses.push(Loss::Halt);
        }
    }
    if specific.additional_context.is_some() || specific.tool_input.is_some() {
        output.hook_specific_output = Some(specific);
    }
    finish(&output, losses)
}

fn deny(spec: &EventSpec, decision: &Decision, output: &mut Output<'_>, losses: &mut Vec<Loss>) {
    match spec.deny {
        DenyForm::None => losses.push(Loss::Deny),
        form => {
            if form == DenyForm::Feedback {
                losses.push(Loss::Deny);
            }
            output.decision = Some("deny");
            output.reason = Some(user_message(decision).unwrap_or_else(|| DEFAULT_DENY.to_owned()));
        }
    }
}

/// The `tool_input` to render for a replacement input, if any.
fn rewrite<'a>(
    spec: &EventSpec,
    event: &HookEvent,
    input: &'a Value,
    decided: Option<&str>,
    losses: &mut Vec<Loss>,
) -> Option<&'a Map<String, Value>> {
    let replacement = match input {
        Value::Object(map) if spec.rewrite && decided != Some("deny") => map,
        _ => {
            losses.push(Loss::InputRewrite);
            return None;
        }
    };
    let original = event.tool.as_ref().and_then(|tool| tool.input.as_object());
    let drops_a_key =
        original.is_some_and(|original| original.keys().any(|key| !replacement.contains_key(key)));
    if drops_a_key {
        losses.push(Loss::InputRewrite);
    }
    Some(replacement)
}

fn finish(output: &Output<'_>, losses: Vec<Loss>) -> Rendered {
    let says = output.decision.is_some()
        || output.continue_.is_some()
        || output.hook_specific_output.is_some();
    Rendered {
        reply: json::json_only_reply(output, says),
        losses,
    }
}
