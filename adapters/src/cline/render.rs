//! Merged decision to Cline's reply (both dialects): one JSON object on
//! stdout, exit code 0 (Cline reads stdout JSON whatever the exit code).
//!
//! - SDK: `cancel`, `errorMessage`, `context`, `overrideInput`; neutral
//!   `{}` (no control key: "no opinion").
//! - Legacy: `cancel`, `errorMessage`, `contextModification`; neutral
//!   `{"cancel":false}`, the documented allow.
//!
//! `cancel: true` ends the whole task. It is how a deny and a halt are
//! said, so a deny in Cline stops the task, not only the tool call.
//! Degrade rules (each reported as a [`Loss`]):
//! - `allow` cannot pre-approve anything: neutral reply, `Loss::Allow`;
//! - `ask` has no effect in Cline (SDK `review` is parsed but unused):
//!   degraded to deny where a deny is possible, `Loss::Ask`;
//! - context or an input rewrite next to a cancel would never be used:
//!   dropped with a loss;
//! - follow-up messages do not exist in Cline: `Loss::Followup`.
//!
//! Context is not truncated here; `merge` cuts it to 50,000 characters.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::json;
use crate::{Decision, Dialect, HookEvent, Loss, Permission, Rendered};

/// Renders `decision` as Cline's reply to `event`, in `event.dialect`.
pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let caps = event.capabilities;
    let legacy = event.dialect == Dialect::ClineLegacy;
    let mut losses = Vec::new();

    let deny = match decision.permission {
        Permission::Unspecified => false,
        Permission::Allow => {
            losses.push(Loss::Allow);
            false
        }
        Permission::Ask => {
            losses.push(Loss::Ask);
            caps.deny
        }
        Permission::Deny if caps.deny => true,
        Permission::Deny => {
            losses.push(Loss::Deny);
            false
        }
    };
    let halt = decision.halt && caps.halt;
    if decision.halt && !caps.halt {
        losses.push(Loss::Halt);
    }
    let cancel = deny || halt;

    let mut out: BTreeMap<&'static str, Value> = BTreeMap::new();
    if cancel {
        out.insert("cancel", Value::Bool(true));
        // Without `cancel`, the SDK would read `errorMessage` as context.
        if let Some(message) = decision.reason.as_ref().or(decision.agent_message.as_ref()) {
            out.insert("errorMessage", Value::String(message.clone()));
        }
    } else if legacy {
        out.insert("cancel", Value::Bool(false));
    }

    if let Some(context) = &decision.additional_context {
        if caps.context && !cancel {
            let key = if legacy {
                "contextModification"
            } else {
                "context"
            };
            out.insert(key, Value::String(context.clone()));
        } else {
            losses.push(Loss::Context);
        }
    }
    if let Some(input) = &decision.updated_input {
        if caps.input_rewrite && !cancel {
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
