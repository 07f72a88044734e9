//! Merged decision to Cline's reply (both dialects): one JSON object on
//! stdout, exit code 0 (Cline reads stdout JSON whatever the exit code).
//!
//! - SDK: `cancel`, `errorMessage`, `context`, `overrideInput`; neutral
//!   `{}` (no control key: "no opinion").
//! - Legacy: `cancel`, `errorMessage`, `contextModification`; neutral
//!   `{"cancel":false}`, the documented allow.
//!
//! `cancel: true` ends the whole task: it is how a halt is said. A deny
//! must not end it (deny = this call does not run, the model is told why,
//! the loop goes on), so on an SDK `tool_call` for a built-in tool a deny is
//! `overrideInput: {}` + `context: <reason>`: Cline validates the empty
//! input, the call fails with `✖ Invalid input` without running, the
//! reason reaches the model as `<hook_context>`, and the task goes on
//! (measured with the Cline CLI 3.0.65). Where that cannot be relied on
//! (legacy hooks have no `overrideInput`; MCP and other tools may accept
//! an empty input) a deny falls back to `cancel`.
//! Degrade rules (each reported as a [`Loss`]):
//! - `allow` cannot pre-approve anything: neutral reply, `Loss::Allow`;
//! - `ask` has no effect in Cline (SDK `review` is parsed but unused):
//!   degraded to deny where a deny is possible, `Loss::Ask`;
//! - a deny on `tool_result` is feedback (its reason as context) and a
//!   `Loss::Deny`: the tool already ran;
//! - context or an input rewrite next to a cancel would never be used, and
//!   a rewrite next to a refusal is moot: dropped with a loss;
//! - follow-up messages do not exist in Cline: `Loss::Followup`.
//!
//! The reason and the agent message are both said (`errorMessage`, or the
//! context of a refusal), each once, on separate lines.
//!
//! Context is not truncated here; `merge` cuts it to 50,000 characters.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::claude_code::output::user_message;
use crate::json;
use crate::{Decision, Dialect, EventKind, HookEvent, Loss, Permission, Rendered, ToolClass};

/// Renders `decision` as Cline's reply to `event`, in `event.dialect`.
pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let caps = event.capabilities;
    let legacy = event.dialect == Dialect::ClineLegacy;
    let mut losses = Vec::new();

    let wants_deny = match decision.permission {
        Permission::Unspecified => false,
        Permission::Allow => {
            losses.push(Loss::Allow);
            false
        }
        Permission::Ask => {
            losses.push(Loss::Ask);
            caps.deny
        }
        Permission::Deny => {
            if !caps.deny {
                losses.push(Loss::Deny);
            }
            true
        }
    };
    let deny = wants_deny && caps.deny;
    // A deny after the tool ran: its reason as context (feedback).
    let feedback = wants_deny && !caps.deny && caps.context;
    let halt = decision.halt && caps.halt;
    if decision.halt && !caps.halt {
        losses.push(Loss::Halt);
    }
    let refuse = deny && !halt && refusable(event);
    let cancel = halt || (deny && !refuse);
    // The reason and the agent message, each once: Cline has one text
    // field per answer, and both are meant to be read.
    let message = user_message(decision);

    let mut out: BTreeMap<&'static str, Value> = BTreeMap::new();
    if cancel {
        out.insert("cancel", Value::Bool(true));
        // Without `cancel`, the SDK would read `errorMessage` as context.
        if let Some(message) = &message {
            out.insert("errorMessage", Value::String(message.clone()));
        }
    } else if legacy {
        out.insert("cancel", Value::Bool(false));
    }
    if refuse {
        // Fails Cline's input validation: the call does not run.
        out.insert("overrideInput", Value::Object(serde_json::Map::new()));
    }

    let context = decision.additional_context.as_deref();
    if context.is_some() && (!caps.context || cancel) {
        losses.push(Loss::Context);
    }
    let context = context.filter(|_| caps.context && !cancel);
    let told = (refuse || feedback).then(|| message.as_deref().unwrap_or(DEFAULT_DENY));
    let text = match (told, context) {
        (None, None) => None,
        (Some(text), None) | (None, Some(text)) => Some(text.to_owned()),
        (Some(told), Some(context)) => Some(format!("{told}\n\n{context}")),
    };
    if let Some(text) = text {
        let key = if legacy {
            "contextModification"
        } else {
            "context"
        };
        out.insert(key, Value::String(text));
    }
    if let Some(input) = &decision.updated_input {
        if caps.input_rewrite && !cancel && !refuse {
            out.insert("overrideInput", input.clone());
        } else {
            losses.push(Loss::InputRewrite);
        }
    }
    if decision.followup_message.is_some() {
        losses.push(Loss::Followup);
    }

    Rendered {
        reply: json::stdout_reply(&out),
        losses,
    }
}

/// Said to the model when a deny comes with no reason.
const DEFAULT_DENY: &str = "Blocked by hookgate policy.";

/// Can this call be refused with `overrideInput: {}`? Only an SDK
/// `tool_call` of a built-in tool whose input Cline validates with required
/// fields (`run_commands`, `read_files`, `editor`, `apply_patch`,
/// `search_codebase`, `fetch_web_content`): an MCP or other tool might
/// accept an empty input and run.
fn refusable(event: &HookEvent) -> bool {
    event.dialect == Dialect::ClineSdk
        && event.kind == EventKind::PreToolUse
        && event.tool.as_ref().is_some_and(|tool| {
            matches!(
                tool.class,
                ToolClass::Shell
                    | ToolClass::FileRead
                    | ToolClass::FileWrite
                    | ToolClass::Search
                    | ToolClass::Web
            )
        })
}
