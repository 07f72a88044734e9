//! The stdout JSON of Claude Code's protocol and the parts of building it
//! that every agent answering in that JSON does the same way. Claude Code's
//! render and Codex's both build it; Codex's output schemas are a strict
//! subset, so Codex's render leaves the fields they lack (`action`,
//! `interrupt`, `updatedInput` in a `decision`) `None`, which its goldens
//! and its schema test check.

use serde::Serialize;
use serde_json::Value;

use crate::decision::non_empty;
use crate::json;
use crate::{Decision, Loss, Permission, Reply};
use hookgate_dialect::events::{DenyForm, EventSpec, FollowupForm};

/// Said when a deny or halt comes with no reason at all.
pub(crate) const DEFAULT_DENY: &str = "Blocked by hookgate policy.";
pub(crate) const DEFAULT_HALT: &str = "Stopped by hookgate policy.";

/// The stdout JSON. Structs (not a `Map`) so the field order is fixed.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output<'a> {
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

/// `hookSpecificOutput`; `hookEventName` is required wherever it is read.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Specific<'a> {
    hook_event_name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission_decision: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) permission_decision_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) decision: Option<Behavior<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) action: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) updated_input: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) additional_context: Option<String>,
}

/// PermissionRequest's `decision` object.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Behavior<'a> {
    pub(crate) behavior: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) updated_input: Option<&'a Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) interrupt: Option<bool>,
}

impl Behavior<'_> {
    /// `{behavior, message}`, the form both agents read.
    pub(crate) fn new(behavior: &'static str, message: Option<String>) -> Self {
        Behavior {
            behavior,
            message,
            updated_input: None,
            interrupt: None,
        }
    }
}

/// The reply JSON for one event under construction, with the losses so far.
#[derive(Debug)]
pub(crate) struct Json<'a> {
    pub(crate) spec: &'static EventSpec,
    output: Output<'a>,
    specific: Option<Specific<'a>>,
    pub(crate) losses: Vec<Loss>,
}

impl<'a> Json<'a> {
    pub(crate) fn new(spec: &'static EventSpec) -> Self {
        Json {
            spec,
            output: Output::default(),
            specific: None,
            losses: Vec::new(),
        }
    }

    /// `hookSpecificOutput`, created on first use.
    pub(crate) fn specific(&mut self) -> &mut Specific<'a> {
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

    /// `permissionDecision` (+ its reason): PreToolUse's answer.
    pub(crate) fn permission_decision(&mut self, answer: &'static str, reason: Option<String>) {
        let specific = self.specific();
        specific.permission_decision = Some(answer);
        specific.permission_decision_reason = reason;
    }

    /// The `permissionDecision` said so far.
    pub(crate) fn said_permission(&self) -> Option<&'static str> {
        self.specific.as_ref()?.permission_decision
    }

    /// PermissionRequest's `decision`, if it says `behavior` so far.
    pub(crate) fn said_behavior(&mut self, behavior: &str) -> Option<&mut Behavior<'a>> {
        let said = self.specific.as_mut()?.decision.as_mut()?;
        (said.behavior == behavior).then_some(said)
    }

    /// Top-level `decision: "block"` + `reason`.
    pub(crate) fn block(&mut self, reason: String) {
        self.output.decision = Some("block");
        self.output.reason = Some(reason);
    }

    /// An allow, where the event has a form for it; elsewhere the neutral
    /// reply already lets the action go ahead, so nothing is lost.
    pub(crate) fn allow(&mut self, message: Option<String>) {
        match self.spec.deny {
            DenyForm::PermissionDecision => self.permission_decision("allow", message),
            DenyForm::Behavior => self.specific().decision = Some(Behavior::new("allow", None)),
            _ => {}
        }
    }

    /// `additionalContext`: the decision's context after `feedback` (what a
    /// post-action deny tells the model), or a loss where the event takes
    /// no context.
    pub(crate) fn context(&mut self, decision: &Decision, feedback: Option<String>) {
        let context = non_empty(&decision.additional_context);
        if context.is_some() && !self.spec.context {
            self.losses.push(Loss::Context);
        }
        let context = context.filter(|_| self.spec.context);
        let text = match (feedback, context) {
            (None, None) => return,
            (Some(feedback), None) => feedback,
            (None, Some(context)) => context.to_owned(),
            (Some(feedback), Some(context)) => format!("{feedback}\n\n{context}"),
        };
        self.specific().additional_context = Some(text);
    }

    /// The follow-up message: `decision: "block"` where that is its form, a
    /// loss where it has none; the message is returned where the event's
    /// form is exit 2, which only the caller can say.
    pub(crate) fn followup<'d>(&mut self, decision: &'d Decision) -> Option<&'d str> {
        let message = non_empty(&decision.followup_message)?;
        match self.spec.followup {
            FollowupForm::None => self.losses.push(Loss::Followup),
            FollowupForm::Block => self.block(message.to_owned()),
            FollowupForm::Exit2 => return Some(message),
        }
        None
    }

    /// `continue: false` + `stopReason`, or a loss where the event's JSON
    /// cannot say it.
    pub(crate) fn halt(&mut self, decision: &Decision) {
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

    /// The JSON as a reply (empty stdout when it says nothing: the neutral
    /// reply), and the losses.
    pub(crate) fn finish(mut self) -> (Reply, Vec<Loss>) {
        self.output.hook_specific_output = self.specific.take();
        let says = self.output.continue_.is_some()
            || self.output.decision.is_some()
            || self.output.hook_specific_output.is_some();
        (json::json_only_reply(&self.output, says), self.losses)
    }
}

/// The permission to render after the two degrade rules:
/// * halt on an event that denies calls (PreToolUse, PermissionRequest)
///   also denies the pending call (`continue: false` alone does not stop a
///   PreToolUse tool call in Claude Code, and Codex rejects it there);
/// * ask where no dialog can be forced becomes deny where deny can be said
///   (nobody can be asked, so the action does not go ahead), else nothing;
///   either way it is a [`Loss::Ask`].
pub(crate) fn effective_permission(
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

/// A flat stdout reply (`reply`'s keys at the top level) finished the way
/// Copilot CLI and Hermes Agent both read it: a follow-up as the stop's
/// `decision: "block"` + `reason` where `spec` says so (else a
/// [`Loss::Followup`]), then the JSON line, or the neutral reply when
/// nothing is said.
pub(crate) fn finish_flat(
    mut reply: std::collections::BTreeMap<&'static str, Value>,
    decision: &Decision,
    spec: &EventSpec,
    mut losses: Vec<Loss>,
) -> crate::Rendered {
    if let Some(followup) = non_empty(&decision.followup_message) {
        if spec.followup == FollowupForm::Block {
            reply.insert("decision", Value::from("block"));
            reply.insert("reason", Value::from(followup));
        } else {
            losses.push(Loss::Followup);
        }
    }
    let reply = if reply.is_empty() {
        Reply::default()
    } else {
        json::stdout_reply(&reply)
    };
    crate::Rendered { reply, losses }
}
