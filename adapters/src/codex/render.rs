//! Merged [`Decision`] → Codex's reply: one stdout JSON object, exit 0,
//! holding only what Codex's output schema for the event allows (every
//! schema rejects unknown keys, and a rejected reply counts as no reply:
//! the tool runs). The rules, from the 0.171.0 schemas and runs, are in
//! docs/agents.md ("Codex"):
//!
//! * deny → PreToolUse `permissionDecision: "deny"` with a non-empty
//!   `permissionDecisionReason`; PermissionRequest `decision.behavior:
//!   "deny"`; UserPromptSubmit `decision: "block"`; PostToolUse `decision:
//!   "block"` only replaces the output of a tool that ran (also a
//!   [`Loss::Deny`]);
//! * ask → deny where a deny can be said, [`Loss::Ask`] (no schema has it);
//! * rewrite → PreToolUse `permissionDecision: "allow"` + `updatedInput`
//!   (Codex rejects `updatedInput` without the allow);
//! * halt → `continue: false` + `stopReason` on SessionStart,
//!   UserPromptSubmit and Stop; on PreToolUse and PermissionRequest, which
//!   reject it, the pending call is denied instead and the halt is a
//!   [`Loss::Halt`];
//! * context → `hookSpecificOutput.additionalContext` (a developer
//!   message); Stop has no `hookSpecificOutput`: a [`Loss::Context`];
//! * follow-up → Stop `decision: "block"` + `reason`.

use super::PROTOCOL;
use crate::claude_code::output::{
    Behavior, DEFAULT_DENY, Json, effective_permission, user_message,
};
use crate::{Decision, HookEvent, Loss, Permission, Rendered};
use hookgate_dialect::events::DenyForm;

/// Renders `decision` as Codex's reply to `event`. Claude Code's rules
/// where Codex's schemas agree; its own where they do not (a deny always
/// has a reason, a rewrite is an allow, nothing is said on stderr).
pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let mut json = Json::new(PROTOCOL.spec(&event.native_event));
    // No Codex row can ask, and none that denies calls can halt: an ask
    // is a deny (or nothing), a halt there denies the pending call.
    let permission = effective_permission(json.spec, decision, &mut json.losses);
    self::permission(&mut json, decision, permission);
    rewrite(&mut json, decision);
    json.context(decision, None);
    // A JSON-only reply cannot exit 2 (no Codex row has that form).
    if json.followup(decision).is_some() {
        json.losses.push(Loss::Followup);
    }
    json.halt(decision);
    let (reply, losses) = json.finish();
    Rendered { reply, losses }
}

fn permission(json: &mut Json<'_>, decision: &Decision, permission: Permission) {
    let message = user_message(decision);
    match permission {
        Permission::Allow => json.allow(message),
        // Codex rejects a deny without a non-empty reason.
        Permission::Deny => deny(json, message.unwrap_or_else(|| DEFAULT_DENY.to_owned())),
        Permission::Ask | Permission::Unspecified => {}
    }
}

fn deny(json: &mut Json<'_>, message: String) {
    match json.spec.deny {
        DenyForm::PermissionDecision => json.permission_decision("deny", Some(message)),
        DenyForm::Behavior => {
            json.specific().decision = Some(Behavior::new("deny", Some(message)));
        }
        form @ (DenyForm::Block | DenyForm::Feedback) => {
            if form == DenyForm::Feedback {
                json.losses.push(Loss::Deny);
            }
            json.block(message);
        }
        _ => json.losses.push(Loss::Deny),
    }
}

fn rewrite<'a>(json: &mut Json<'a>, decision: &'a Decision) {
    let Some(input) = &decision.updated_input else {
        return;
    };
    let denied = json.said_permission() == Some("deny");
    if !json.spec.rewrite || !input.is_object() || denied {
        json.losses.push(Loss::InputRewrite);
        return;
    }
    // Codex applies `updatedInput` only with an explicit allow.
    let specific = json.specific();
    specific.permission_decision = Some("allow");
    specific.updated_input = Some(input);
}
