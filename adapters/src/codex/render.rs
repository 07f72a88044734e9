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

use serde::Serialize;
use serde_json::Value;

use super::PROTOCOL;
use crate::claude_code::events::{DenyForm, EventSpec, FollowupForm};
use crate::claude_code::render::{DEFAULT_DENY, DEFAULT_HALT, user_message};
use crate::decision::non_empty;
use crate::json;
use crate::{Decision, HookEvent, Loss, Permission, Rendered};

/// The stdout JSON, in a fixed field order.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Output<'a> {
    #[serde(rename = "continue", skip_serializing_if = "Option::is_none")]
    continue_: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hook_specific_output: Option<Specific<'a>>,
}

/// `hookSpecificOutput`; `hookEventName` is required by every schema.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Specific<'a> {
    hook_event_name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    permission_decision: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    permission_decision_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_input: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    additional_context: Option<&'a str>,
    /// PermissionRequest's `{behavior, message}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<Behavior>,
}

#[derive(Debug, Serialize)]
struct Behavior {
    behavior: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// The reply under construction.
struct Builder<'a> {
    spec: &'static EventSpec,
    output: Output<'a>,
    specific: Option<Specific<'a>>,
    losses: Vec<Loss>,
}

/// Renders `decision` as Codex's reply to `event`.
pub(crate) fn render(event: &HookEvent, decision: &Decision) -> Rendered {
    let spec = PROTOCOL.spec(&event.native_event);
    let mut reply = Builder {
        spec,
        output: Output::default(),
        specific: None,
        losses: Vec::new(),
    };
    let permission = reply.effective_permission(decision);
    reply.permission(decision, permission);
    reply.rewrite(decision);
    reply.context(decision);
    reply.followup(decision);
    reply.halt(decision);
    reply.finish()
}

impl<'a> Builder<'a> {
    fn specific(&mut self) -> &mut Specific<'a> {
        let name = self.spec.name;
        self.specific.get_or_insert(Specific {
            hook_event_name: name,
            permission_decision: None,
            permission_decision_reason: None,
            updated_input: None,
            additional_context: None,
            decision: None,
        })
    }

    /// Ask → deny (no schema can ask); a halt the event cannot say denies
    /// the pending tool call instead.
    fn effective_permission(&mut self, decision: &Decision) -> Permission {
        let denies_calls = matches!(
            self.spec.deny,
            DenyForm::PermissionDecision | DenyForm::Behavior
        );
        match decision.permission {
            _ if decision.halt && !self.spec.halt && denies_calls => Permission::Deny,
            Permission::Ask => {
                self.losses.push(Loss::Ask);
                if self.spec.capabilities().deny {
                    Permission::Deny
                } else {
                    Permission::Unspecified
                }
            }
            permission => permission,
        }
    }

    fn permission(&mut self, decision: &Decision, permission: Permission) {
        let message = user_message(decision);
        match (permission, self.spec.deny) {
            (Permission::Deny, DenyForm::PermissionDecision) => {
                let specific = self.specific();
                specific.permission_decision = Some("deny");
                // Codex rejects a deny without a non-empty reason.
                specific.permission_decision_reason =
                    Some(message.unwrap_or_else(|| DEFAULT_DENY.to_owned()));
            }
            (Permission::Deny, DenyForm::Behavior) => {
                self.specific().decision = Some(Behavior {
                    behavior: "deny",
                    message: Some(message.unwrap_or_else(|| DEFAULT_DENY.to_owned())),
                });
            }
            (Permission::Deny, form @ (DenyForm::Block | DenyForm::Feedback)) => {
                if form == DenyForm::Feedback {
                    self.losses.push(Loss::Deny);
                }
                self.output.decision = Some("block");
                self.output.reason = Some(message.unwrap_or_else(|| DEFAULT_DENY.to_owned()));
            }
            (Permission::Deny, _) => self.losses.push(Loss::Deny),
            (Permission::Allow, DenyForm::PermissionDecision) => {
                let specific = self.specific();
                specific.permission_decision = Some("allow");
                specific.permission_decision_reason = message;
            }
            (Permission::Allow, DenyForm::Behavior) => {
                self.specific().decision = Some(Behavior {
                    behavior: "allow",
                    message: None,
                });
            }
            // Elsewhere the neutral reply lets the action go ahead.
            _ => {}
        }
    }

    fn rewrite(&mut self, decision: &'a Decision) {
        let Some(input) = &decision.updated_input else {
            return;
        };
        let denied = self
            .specific
            .as_ref()
            .is_some_and(|s| s.permission_decision == Some("deny"));
        if !self.spec.rewrite || !input.is_object() || denied {
            self.losses.push(Loss::InputRewrite);
            return;
        }
        // Codex applies `updatedInput` only with an explicit allow.
        let specific = self.specific();
        specific.permission_decision = Some("allow");
        specific.updated_input = Some(input);
    }

    fn context(&mut self, decision: &'a Decision) {
        let Some(context) = non_empty(&decision.additional_context) else {
            return;
        };
        if self.spec.context {
            self.specific().additional_context = Some(context);
        } else {
            self.losses.push(Loss::Context);
        }
    }

    fn followup(&mut self, decision: &Decision) {
        let Some(message) = non_empty(&decision.followup_message) else {
            return;
        };
        if self.spec.followup == FollowupForm::Block {
            self.output.decision = Some("block");
            self.output.reason = Some(message.to_owned());
        } else {
            self.losses.push(Loss::Followup);
        }
    }

    fn halt(&mut self, decision: &Decision) {
        if !decision.halt {
            return;
        }
        if self.spec.halt {
            self.output.continue_ = Some(false);
            self.output.stop_reason =
                Some(user_message(decision).unwrap_or_else(|| DEFAULT_HALT.to_owned()));
        } else {
            self.losses.push(Loss::Halt);
        }
    }

    fn finish(mut self) -> Rendered {
        self.output.hook_specific_output = self.specific.take();
        let says = self.output.continue_.is_some()
            || self.output.decision.is_some()
            || self.output.hook_specific_output.is_some();
        Rendered {
            reply: json::json_only_reply(&self.output, says),
            losses: self.losses,
        }
    }
}
