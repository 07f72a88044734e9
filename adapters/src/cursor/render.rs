//! Merged decision to Cursor's reply: one flat snake_case JSON object on
//! stdout, always with exit code 0.
//!
//! Why never exit 2: Cursor treats exit 2 as a deny but then does not
//! parse stdout, so the JSON (and its messages) would be shown as raw
//! text. A JSON `permission: "deny"` blocks just the same.
//!
//! The neutral reply is `{}`, not empty stdout: a handler configured with
//! `failClosed: true` treats an empty response as a failure and blocks.
//!
//! Degrade rules (each reported as a [`Loss`]):
//! - `ask` where Cursor does not enforce it (`preToolUse`, file reads,
//!   `subagentStart`, `beforeSubmitPrompt`) becomes a deny: a human was
//!   wanted and none can be asked, so the action does not run;
//! - `halt` where only a deny exists becomes a deny of the pending action;
//! - an input rewrite on a denied call is dropped (the call never runs);
//! - anything else the event cannot express is left out.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::json;
use crate::{Decision, Dialect, HookEvent, Loss, Permission, Rendered};
use hookgate_dialect::events::DenyForm;

/// What the reply says about letting the action go on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Neutral,
    Allow,
    Ask,
    Deny,
}

/// Renders `decision` as Cursor's reply to `event`.
pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let caps = event.capabilities;
    let native = event.native_event.as_str();
    // A `permission` field on the events whose table row says so.
    let spec = Dialect::Cursor.descriptor().spec(native);
    let permission_field = spec.deny == DenyForm::PermissionDecision;
    // `continue: false` gates the prompt (`beforeSubmitPrompt`).
    let prompt_gate = spec.deny == DenyForm::Block;
    let mut losses = Vec::new();

    let mut verdict = match decision.permission {
        Permission::Unspecified => Verdict::Neutral,
        Permission::Allow if permission_field || prompt_gate => Verdict::Allow,
        Permission::Allow => {
            losses.push(Loss::Allow);
            Verdict::Neutral
        }
        Permission::Ask if caps.ask => Verdict::Ask,
        Permission::Ask => {
            losses.push(Loss::Ask);
            if caps.deny {
                Verdict::Deny
            } else {
                Verdict::Neutral
            }
        }
        Permission::Deny if caps.deny => Verdict::Deny,
        Permission::Deny => {
            losses.push(Loss::Deny);
            Verdict::Neutral
        }
    };
    if decision.halt {
        if !caps.halt {
            losses.push(Loss::Halt);
        }
        if caps.halt || caps.deny {
            verdict = Verdict::Deny;
        }
    }

    let mut out: BTreeMap<&'static str, Value> = BTreeMap::new();
    let user_message = decision.reason.as_ref().or(decision.agent_message.as_ref());
    let agent_message = decision.agent_message.as_ref().or(decision.reason.as_ref());
    if prompt_gate {
        match verdict {
            Verdict::Allow => {
                out.insert("continue", Value::Bool(true));
            }
            Verdict::Deny => {
                out.insert("continue", Value::Bool(false));
                insert_text(&mut out, "user_message", user_message);
            }
            // Ask never survives on a prompt (degraded to deny above).
            Verdict::Ask | Verdict::Neutral => {}
        }
    } else if permission_field {
        let word = match verdict {
            Verdict::Neutral => None,
            Verdict::Allow => Some("allow"),
            Verdict::Ask => Some("ask"),
            Verdict::Deny => Some("deny"),
        };
        if let Some(word) = word {
            out.insert("permission", Value::String(word.to_owned()));
        }
        if matches!(verdict, Verdict::Ask | Verdict::Deny) {
            insert_text(&mut out, "user_message", user_message);
            insert_text(&mut out, "agent_message", agent_message);
        }
    }

    if let Some(context) = &decision.additional_context {
        if caps.context {
            out.insert("additional_context", Value::String(context.clone()));
        } else {
            losses.push(Loss::Context);
        }
    }
    if let Some(input) = &decision.updated_input {
        if caps.input_rewrite && verdict != Verdict::Deny {
            out.insert("updated_input", input.clone());
        } else {
            losses.push(Loss::InputRewrite);
        }
    }
    if let Some(followup) = &decision.followup_message {
        if caps.followup {
            out.insert("followup_message", Value::String(followup.clone()));
        } else {
            losses.push(Loss::Followup);
        }
    }

    Rendered {
        reply: json::stdout_reply(&out),
        losses,
    }
}

fn insert_text(out: &mut BTreeMap<&'static str, Value>, key: &'static str, text: Option<&String>) {
    if let Some(text) = text {
        out.insert(key, Value::String(text.clone()));
    }
}
