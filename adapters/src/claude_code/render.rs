//! Merged [`Decision`] → Claude Code's reply, by the rules in
//! docs/agents.md ("Claude Code"). Parts an event cannot express are
//! degraded by a written rule and reported as [`Loss`]es.

use serde::Serialize;
use serde_json::Value;

use super::Protocol;
use super::events::{DenyForm, EventSpec, FollowupForm};
use crate::{Decision, HookEvent, Loss, Permission, Rendered, Reply};
use hookgate_dialect::WORKTREE_CREATE_MESSAGE;

/// Said when a deny or halt comes with no reason at all.
pub(crate) const DEFAULT_DENY: &str = "Blocked by hookgate policy.";
pub(crate) const DEFAULT_HALT: &str = "Stopped by hookgate policy.";

/// The stdout JSON. Structs (not a `Map`) so the field order is fixed.
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

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Specific<'a> {
    hook_event_name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    permission_decision: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    permission_decision_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    decision: Option<Behavior<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_input: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    additional_context: Option<String>,
}

/// PermissionRequest's `decision` object.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Behavior<'a> {
    behavior: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_input: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    interrupt: Option<bool>,
}

/// Renders `decision` for `event`, an event of an agent speaking Claude
/// Code's protocol, by that agent's events table.
pub(crate) fn render_as(protocol: &Protocol, event: &HookEvent, decision: &Decision) -> Rendered {
    let spec = protocol.spec(&event.native_event);
    let mut reply = Builder {
        spec,
        output: Output::default(),
        specific: None,
        stderr: String::new(),
        exit_code: 0,
        feedback: None,
        losses: Vec::new(),
    };
    let permission = effective_permission(spec, decision, &mut reply.losses);
    reply.permission(decision, permission);
    reply.rewrite(decision);
    reply.context(decision);
    reply.followup(decision);
    reply.halt(decision);
    reply.finish()
}

/// The permission to render after the two degrade rules:
/// * halt on PreToolUse / PermissionRequest also denies the pending call
///   (`continue: false` alone does not stop a PreToolUse tool call);
/// * ask where no dialog can be forced becomes deny where deny can be said
///   (nobody can be asked, so the action does not go ahead), else nothing;
///   either way it is a [`Loss::Ask`].
fn effective_permission(
    spec: &EventSpec,
    decision: &Decision,
    losses: &mut Vec<Loss>,
) -> Permission {
    let denies_calls = matches!(spec.deny, DenyForm::PermissionDecision | DenyForm::Behavior);
    match decision.permission {
        _ if decision.halt && denies_calls => Permission::Deny,
        Permission::Ask if !spec.ask => {
            losses.push(Loss::Ask);
            if spec.capabilities().deny {
                Permission::Deny
            } else {
                Permission::Unspecified
            }
        }
        permission => permission,
    }
}

/// The reply under construction.
struct Builder<'a> {
    spec: &'static EventSpec,
    output: Output<'a>,
    specific: Option<Specific<'a>>,
    stderr: String,
    exit_code: i32,
    /// A deny after the fact: told to the model next to any context.
    feedback: Option<String>,
    losses: Vec<Loss>,
}

impl<'a> Builder<'a> {
    fn specific(&mut self) -> &mut Specific<'a> {
        let name = self.spec.name;
        self.specific.get_or_insert(Specific {
            hook_event_name: name,
            permission_decision: None,
            permission_decision_reason: None,
            decision: None,
            action: None,
            updated_input: None,
            additional_context: None,
        })
    }

    fn exit2(&mut self, message: &str) {
        self.exit_code = 2;
        if !self.stderr.is_empty() {
            self.stderr.push('\n');
        }
        self.stderr.push_str(message);
    }

    fn permission(&mut self, decision: &'a Decision, permission: Permission) {
        let message = user_message(decision);
        match permission {
            Permission::Unspecified => {}
            Permission::Deny => {
                self.deny(decision, message.unwrap_or_else(|| DEFAULT_DENY.to_owned()))
            }
            // Only events with `spec.ask` get here (see `effective_permission`).
            Permission::Ask => {
                if self.spec.deny == DenyForm::PermissionDecision {
                    let specific = self.specific();
                    specific.permission_decision = Some("ask");
                    specific.permission_decision_reason = message;
                }
                // PermissionRequest: no decision is the ask: Claude Code
                // shows its permission dialog.
            }
            Permission::Allow => match self.spec.deny {
                DenyForm::PermissionDecision => {
                    let specific = self.specific();
                    specific.permission_decision = Some("allow");
                    specific.permission_decision_reason = message;
                }
                DenyForm::Behavior => {
                    self.specific().decision = Some(Behavior {
                        behavior: "allow",
                        message: None,
                        updated_input: None,
                        interrupt: None,
                    });
                }
                // Everywhere else the neutral reply already lets the action
                // go ahead: nothing is lost.
                _ => {}
            },
        }
    }

    fn deny(&mut self, decision: &Decision, message: String) {
        match self.spec.deny {
            DenyForm::None => self.losses.push(Loss::Deny),
            DenyForm::PermissionDecision => {
                let specific = self.specific();
                specific.permission_decision = Some("deny");
                specific.permission_decision_reason = Some(message);
            }
            DenyForm::Behavior => {
                self.specific().decision = Some(Behavior {
                    behavior: "deny",
                    message: Some(message),
                    updated_input: None,
                    interrupt: decision.halt.then_some(true),
                });
            }
            DenyForm::Block => {
                self.output.decision = Some("block");
                self.output.reason = Some(message);
            }
            // The action already ran: nothing is prevented (a loss), and
            // the model is told why through the context, which keeps the
            // loop going (`decision: "block"` ends it on PostToolBatch).
            DenyForm::Feedback => {
                self.losses.push(Loss::Deny);
                self.feedback = Some(message);
            }
            DenyForm::Exit2 => self.exit2(&message),
            DenyForm::Decline => self.specific().action = Some("decline"),
        }
    }

    fn rewrite(&mut self, decision: &'a Decision) {
        let Some(input) = &decision.updated_input else {
            return;
        };
        // Claude Code replaces the whole input object; anything else is
        // not a valid rewrite.
        if !self.spec.rewrite || !input.is_object() {
            self.losses.push(Loss::InputRewrite);
            return;
        }
        let said = self.specific.as_ref();
        let permission = said.and_then(|specific| specific.permission_decision);
        let allowed = said
            .and_then(|specific| specific.decision.as_ref())
            .is_some_and(|behavior| behavior.behavior == "allow");
        match (self.spec.deny, permission) {
            // Denied: the rewrite is moot.
            (DenyForm::PermissionDecision, Some("deny")) => self.losses.push(Loss::InputRewrite),
            // PreToolUse: with no permission given, `updatedInput` alone.
            // Observed with Claude Code 2.1.197: it applies the new input
            // and its normal permission flow decides. Adding "allow" would
            // skip a prompt nobody asked to skip; adding "ask" is a deny in
            // headless (`-p`) mode (docs/agents.md, observed behaviour).
            (DenyForm::PermissionDecision, _) => {
                self.specific().updated_input = Some(input);
            }
            // PermissionRequest: only an allow carries the new input.
            (DenyForm::Behavior, _) if allowed => {
                if let Some(behavior) = self.specific().decision.as_mut() {
                    behavior.updated_input = Some(input);
                }
            }
            _ => self.losses.push(Loss::InputRewrite),
        }
    }

    /// The context, after the feedback of a post-action deny (the events
    /// with [`DenyForm::Feedback`] all take context).
    fn context(&mut self, decision: &'a Decision) {
        let context = decision
            .additional_context
            .as_deref()
            .filter(|c| !c.is_empty());
        if context.is_some() && !self.spec.context {
            self.losses.push(Loss::Context);
        }
        let context = context.filter(|_| self.spec.context);
        let text = match (self.feedback.take(), context) {
            (None, None) => return,
            (Some(feedback), None) => feedback,
            (None, Some(context)) => context.to_owned(),
            (Some(feedback), Some(context)) => format!("{feedback}\n\n{context}"),
        };
        self.specific().additional_context = Some(text);
    }

    fn followup(&mut self, decision: &Decision) {
        let Some(message) = decision
            .followup_message
            .as_deref()
            .filter(|m| !m.is_empty())
        else {
            return;
        };
        match self.spec.followup {
            FollowupForm::None => self.losses.push(Loss::Followup),
            FollowupForm::Block => {
                self.output.decision = Some("block");
                self.output.reason = Some(message.to_owned());
            }
            FollowupForm::Exit2 => self.exit2(message),
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
        let has_json = self.output.continue_.is_some()
            || self.output.decision.is_some()
            || self.output.hook_specific_output.is_some();
        let mut stdout = Vec::new();
        if has_json {
            // Serializing plain structs of strings and `Value`s cannot fail.
            stdout = serde_json::to_vec(&self.output).unwrap_or_default();
            stdout.push(b'\n');
        }
        let mut stderr = self.stderr;
        let mut exit_code = self.exit_code;
        // WorktreeCreate: stdout is a path, so nothing is ever printed
        // there, and there is no neutral reply (see `fallback`).
        if self.spec.name == "WorktreeCreate" {
            stdout.clear();
            if exit_code == 0 {
                exit_code = 1;
                stderr = WORKTREE_CREATE_MESSAGE.to_owned();
            }
        }
        if !stderr.is_empty() {
            stderr.push('\n');
        }
        Rendered {
            reply: Reply {
                stdout,
                stderr: stderr.into_bytes(),
                exit_code,
            },
            losses: self.losses,
        }
    }
}

/// What to tell about a deny, ask, allow or halt: the reason and the agent
/// message, each once, on separate lines. Claude Code has one text field
/// per answer, and which audience it reaches depends on the answer.
pub(crate) fn user_message(decision: &Decision) -> Option<String> {
    let reason = decision.reason.as_deref().filter(|s| !s.is_empty());
    let agent = decision.agent_message.as_deref().filter(|s| !s.is_empty());
    match (reason, agent) {
        (Some(reason), Some(agent)) if reason != agent => Some(format!("{reason}\n{agent}")),
        (Some(text), _) | (None, Some(text)) => Some(text.to_owned()),
        (None, None) => None,
    }
}
