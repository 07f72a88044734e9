//! Merged [`Decision`] → Hermes Agent's reply: one stdout JSON object at
//! exit 0 (Hermes ignores exit codes; measured on 0.19.0, a bare exit 2
//! let the tool run). The rules, measured there (docs/agents.md, "Hermes
//! Agent"):
//!
//! * deny → `pre_tool_call`'s `decision: "block"` + `reason`: the tool does
//!   not run and the model reads `{"error": "<reason>"}` as its result;
//!   elsewhere a [`Loss::Deny`];
//! * ask → deny where one can be said (no hook can show Hermes' approval
//!   prompt), [`Loss::Ask`];
//! * allow → the neutral reply (Hermes reads no allow; its own approval of
//!   dangerous commands still applies): [`Loss::Allow`] on `pre_tool_call`;
//! * context → `context` on `pre_llm_call` (appended to the user message);
//! * follow-up → `pre_verify`'s `decision: "block"` + `reason`;
//! * rewrite and halt → never said ([`Loss::InputRewrite`], [`Loss::Halt`];
//!   a halt still denies the pending tool call).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::PROTOCOL;
use crate::claude_code::output::{DEFAULT_DENY, effective_permission, finish_flat, user_message};
use crate::decision::non_empty;
use crate::{Decision, HookEvent, Loss, Permission, Rendered};
use hookgate_dialect::events::DenyForm;

/// Renders `decision` as Hermes' reply to `event`.
pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let spec = PROTOCOL.spec(&event.native_event);
    let mut reply: BTreeMap<&'static str, Value> = BTreeMap::new();
    let mut losses = Vec::new();
    // The table's `PermissionDecision` is the pending call's deny, said
    // as `decision: "block"`; ask and halt degrade as on Claude Code.
    let blocks = spec.deny == DenyForm::PermissionDecision;
    let permission = effective_permission(spec, decision, &mut losses);
    if decision.halt {
        losses.push(Loss::Halt);
    }
    match permission {
        Permission::Deny if blocks => {
            let reason = user_message(decision).unwrap_or_else(|| DEFAULT_DENY.to_owned());
            reply.insert("decision", json!("block"));
            reply.insert("reason", json!(reason));
        }
        Permission::Deny => losses.push(Loss::Deny),
        Permission::Allow if blocks => losses.push(Loss::Allow),
        _ => {}
    }
    let denied = reply.contains_key("decision");
    if decision.updated_input.is_some() {
        losses.push(Loss::InputRewrite);
    }
    if let Some(context) = non_empty(&decision.additional_context) {
        if spec.context && !denied {
            reply.insert("context", json!(context));
        } else {
            losses.push(Loss::Context);
        }
    }
    finish_flat(reply, decision, spec, losses)
}
