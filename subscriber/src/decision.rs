//! What a handler answers: a [`Decision`], built by the helpers [`allow`],
//! [`deny`], [`ask`], [`context`], [`rewrite`], [`halt`], [`followup`] and
//! [`none`]. The gateway merges every subscriber's decision (deny over ask
//! over allow; contexts joined) and renders the agent's own reply.

use hookgate_proto::v1;
use serde_json::{Map, Value};

/// Allow, ask or deny.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    Allow,
    Ask,
    Deny,
}

/// A subscriber's answer; every part is optional (`Decision::default()`,
/// what [`none`] returns, is no opinion).
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Decision {
    pub permission: Option<Permission>,
    /// Why, for the user (and, for most agents, the model).
    pub reason: String,
    /// For the model: what to do instead.
    pub agent_message: String,
    /// Extra context for the model.
    pub context: String,
    /// A full replacement of the tool's input, in the agent's own shape.
    pub updated_input: Option<Map<String, Value>>,
    /// Stop the agent's loop.
    pub halt: bool,
    /// A message the agent submits as the user's next prompt.
    pub followup: String,
}

impl Decision {
    /// The same decision, with `text` as context for the model.
    pub fn with_context(mut self, text: impl Into<String>) -> Decision {
        self.context = text.into();
        self
    }

    /// The same decision, telling the model `text`.
    pub fn with_agent_message(mut self, text: impl Into<String>) -> Decision {
        self.agent_message = text.into();
        self
    }
}

impl From<Decision> for v1::Decision {
    fn from(d: Decision) -> v1::Decision {
        let permission = match d.permission {
            None => v1::Permission::Unspecified,
            Some(Permission::Allow) => v1::Permission::Allow,
            Some(Permission::Ask) => v1::Permission::Ask,
            Some(Permission::Deny) => v1::Permission::Deny,
        };
        v1::Decision {
            permission: permission as i32,
            reason: d.reason,
            agent_message: d.agent_message,
            additional_context: d.context,
            updated_input_json: d
                .updated_input
                .map(|input| Value::Object(input).to_string())
                .unwrap_or_default(),
            halt: d.halt,
            followup_message: d.followup,
        }
    }
}

/// Let the tool call run (for agents that can skip their own prompt).
pub fn allow() -> Decision {
    Decision {
        permission: Some(Permission::Allow),
        ..Decision::default()
    }
}

/// Refuse the tool call (or prompt); `reason` is shown.
pub fn deny(reason: impl Into<String>) -> Decision {
    Decision {
        permission: Some(Permission::Deny),
        reason: reason.into(),
        ..Decision::default()
    }
}

/// Ask the user (an agent that cannot ask denies instead).
pub fn ask(reason: impl Into<String>) -> Decision {
    Decision {
        permission: Some(Permission::Ask),
        reason: reason.into(),
        ..Decision::default()
    }
}

/// Give the model extra context.
pub fn context(text: impl Into<String>) -> Decision {
    Decision::default().with_context(text)
}

/// Run the tool with `input` instead (its whole input, in the agent's shape).
pub fn rewrite(input: Map<String, Value>) -> Decision {
    Decision {
        updated_input: Some(input),
        ..Decision::default()
    }
}

/// Stop the agent's loop, with `reason`.
pub fn halt(reason: impl Into<String>) -> Decision {
    Decision {
        halt: true,
        reason: reason.into(),
        ..Decision::default()
    }
}

/// Keep the agent going with `text` as the next prompt (stop events).
pub fn followup(text: impl Into<String>) -> Decision {
    Decision {
        followup: text.into(),
        ..Decision::default()
    }
}

/// No opinion.
pub fn none() -> Decision {
    Decision::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_build_the_decisions_they_say() {
        let proto = |d: Decision| v1::Decision::from(d);
        assert_eq!(proto(allow()).permission(), v1::Permission::Allow);
        let denied = proto(deny("no terraform destroy").with_agent_message("use plan"));
        assert_eq!(denied.permission(), v1::Permission::Deny);
        assert_eq!(
            (denied.reason.as_str(), denied.agent_message.as_str()),
            ("no terraform destroy", "use plan")
        );
        assert_eq!(proto(ask("sure?")).permission(), v1::Permission::Ask);
        assert_eq!(proto(context("hello")).additional_context, "hello");
        let mut input = Map::new();
        input.insert("command".into(), "ls".into());
        assert_eq!(
            proto(rewrite(input)).updated_input_json,
            r#"{"command":"ls"}"#
        );
        let stopped = proto(halt("build is red"));
        assert!(stopped.halt && stopped.reason == "build is red");
        assert_eq!(proto(followup("go on")).followup_message, "go on");
        assert_eq!(proto(none()), v1::Decision::default());
    }
}
