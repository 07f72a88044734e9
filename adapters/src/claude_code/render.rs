//! Merged [`Decision`] → Claude Code's reply, by the rules in
//! docs/agents.md ("Claude Code"). Parts an event cannot express are
//! degraded by a written rule and reported as [`Loss`]es.

use super::Protocol;
use super::output::{Behavior, DEFAULT_DENY, Json, effective_permission, user_message};
use crate::{Decision, HookEvent, Loss, Permission, Rendered};
use hookgate_dialect::events::DenyForm;

/// Renders `decision` for `event`, an event of an agent speaking Claude
/// Code's protocol, by that agent's events table.
pub(crate) fn render_as(protocol: &Protocol, event: &HookEvent, decision: &Decision) -> Rendered {
    let mut reply = Builder {
        json: Json::new(protocol.spec(&event.native_event)),
        stderr: String::new(),
        exit_code: 0,
        feedback: None,
    };
    let permission = effective_permission(reply.json.spec, decision, &mut reply.json.losses);
    reply.permission(decision, permission);
    reply.rewrite(decision);
    reply.json.context(decision, reply.feedback.take());
    if let Some(message) = reply.json.followup(decision) {
        reply.exit2(message);
    }
    reply.json.halt(decision);
    reply.finish()
}

/// The reply under construction.
struct Builder<'a> {
    json: Json<'a>,
    stderr: String,
    exit_code: i32,
    /// A deny after the fact: told to the model next to any context.
    feedback: Option<String>,
}

impl<'a> Builder<'a> {
    fn exit2(&mut self, message: &str) {
        self.exit_code = 2;
        if !self.stderr.is_empty() {
            self.stderr.push('\n');
        }
        self.stderr.push_str(message);
    }

    fn permission(&mut self, decision: &Decision, permission: Permission) {
        let message = user_message(decision);
        match permission {
            Permission::Unspecified => {}
            Permission::Deny => {
                self.deny(decision, message.unwrap_or_else(|| DEFAULT_DENY.to_owned()))
            }
            // Only events with `spec.ask` get here (see `effective_permission`).
            Permission::Ask => {
                if self.json.spec.deny == DenyForm::PermissionDecision {
                    self.json.permission_decision("ask", message);
                }
                // PermissionRequest: no decision is the ask: Claude Code
                // shows its permission dialog.
            }
            Permission::Allow => self.json.allow(message),
        }
    }

    fn deny(&mut self, decision: &Decision, message: String) {
        let json = &mut self.json;
        match json.spec.deny {
            DenyForm::None => json.losses.push(Loss::Deny),
            DenyForm::PermissionDecision => json.permission_decision("deny", Some(message)),
            DenyForm::Behavior => {
                json.specific().decision = Some(Behavior {
                    interrupt: decision.halt.then_some(true),
                    ..Behavior::new("deny", Some(message))
                });
            }
            DenyForm::Block => json.block(message),
            // The action already ran: nothing is prevented (a loss), and
            // the model is told why through the context, which keeps the
            // loop going (`decision: "block"` ends it on PostToolBatch).
            DenyForm::Feedback => {
                json.losses.push(Loss::Deny);
                self.feedback = Some(message);
            }
            DenyForm::Exit2 => self.exit2(&message),
            DenyForm::Decline => json.specific().action = Some("decline"),
        }
    }

    fn rewrite(&mut self, decision: &'a Decision) {
        let Some(input) = &decision.updated_input else {
            return;
        };
        let json = &mut self.json;
        // Claude Code replaces the whole input object; anything else is
        // not a valid rewrite.
        if !json.spec.rewrite || !input.is_object() {
            json.losses.push(Loss::InputRewrite);
            return;
        }
        match (json.spec.deny, json.said_permission()) {
            // Denied: the rewrite is moot.
            (DenyForm::PermissionDecision, Some("deny")) => json.losses.push(Loss::InputRewrite),
            // PreToolUse: with no permission given, `updatedInput` alone.
            // Observed with Claude Code 2.1.197: it applies the new input
            // and its normal permission flow decides. Adding "allow" would
            // skip a prompt nobody asked to skip; adding "ask" is a deny in
            // headless (`-p`) mode (docs/agents.md, observed behaviour).
            (DenyForm::PermissionDecision, _) => json.specific().updated_input = Some(input),
            // PermissionRequest: only an allow carries the new input.
            (DenyForm::Behavior, _) => match json.said_behavior("allow") {
                Some(behavior) => behavior.updated_input = Some(input),
                None => json.losses.push(Loss::InputRewrite),
            },
            _ => json.losses.push(Loss::InputRewrite),
        }
    }

    fn finish(self) -> Rendered {
        let spec = self.json.spec;
        let (mut reply, losses) = self.json.finish();
        let mut stderr = self.stderr;
        reply.exit_code = self.exit_code;
        // An event with no neutral reply (WorktreeCreate: stdout is a
        // path, so nothing is ever printed there), as the fallback says.
        if let Some(message) = spec.no_neutral {
            reply.stdout.clear();
            if reply.exit_code == 0 {
                reply.exit_code = 1;
                stderr = message.to_owned();
            }
        }
        if !stderr.is_empty() {
            stderr.push('\n');
        }
        reply.stderr = stderr.into_bytes();
        Rendered { reply, losses }
    }
}
