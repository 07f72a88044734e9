//! What a policy's query answers, read as a subscriber decision.
//!
//! The answer is an object in the shape of a subscriber decision:
//! `permission` (`"allow"`, `"ask"`, `"deny"`, or absent/`"none"` for no
//! opinion), `reason`, `agent_message`, `context`, `updated_input`,
//! `halt`, `followup`. An undefined query (no rule matched) is no opinion.
//! Anything else is an error naming what was wrong: a policy that answers
//! nonsense must not silently allow.

use hookgate_adapters::{Decision, Permission};
use serde_json::Value;

/// Why a query's answer is not a decision.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecisionError {
    #[error(
        "the query answered {0}, not an object (`{{\"permission\": \"deny\", \"reason\": ...}}`)"
    )]
    NotAnObject(&'static str),
    #[error("`{key}` must be {expected}")]
    BadField {
        key: &'static str,
        expected: &'static str,
    },
    #[error(
        "unknown key `{0}` in the decision (permission, reason, agent_message, context, updated_input, halt, followup)"
    )]
    UnknownKey(String),
}

/// The decision `value` (the query's result; `None` when undefined) says.
pub fn decision_from_value(value: Option<&Value>) -> Result<Decision, DecisionError> {
    let Some(value) = value else {
        return Ok(Decision::default());
    };
    let object = match value {
        Value::Object(object) => object,
        Value::Null => return Err(DecisionError::NotAnObject("null")),
        Value::Bool(_) => return Err(DecisionError::NotAnObject("a boolean")),
        Value::Number(_) => return Err(DecisionError::NotAnObject("a number")),
        Value::String(_) => return Err(DecisionError::NotAnObject("a string")),
        Value::Array(_) => return Err(DecisionError::NotAnObject("an array")),
    };
    let mut decision = Decision::default();
    for (key, field) in object {
        let text = |key: &'static str| match field {
            Value::String(text) => Ok(Some(text.clone())),
            Value::Null => Ok(None),
            _ => Err(DecisionError::BadField {
                key,
                expected: "a string",
            }),
        };
        match key.as_str() {
            "permission" => {
                decision.permission = match field {
                    Value::Null => Permission::Unspecified,
                    Value::String(p) => match p.as_str() {
                        "none" => Permission::Unspecified,
                        "allow" => Permission::Allow,
                        "ask" => Permission::Ask,
                        "deny" => Permission::Deny,
                        _ => return Err(bad_permission()),
                    },
                    _ => return Err(bad_permission()),
                }
            }
            "reason" => decision.reason = text("reason")?,
            "agent_message" => decision.agent_message = text("agent_message")?,
            "context" => decision.additional_context = text("context")?,
            "followup" => decision.followup_message = text("followup")?,
            "halt" => {
                decision.halt = field.as_bool().ok_or(DecisionError::BadField {
                    key: "halt",
                    expected: "true or false",
                })?
            }
            "updated_input" => match field {
                Value::Object(_) => decision.updated_input = Some(field.clone()),
                Value::Null => {}
                _ => {
                    return Err(DecisionError::BadField {
                        key: "updated_input",
                        expected: "an object (the tool's whole new input)",
                    });
                }
            },
            other => return Err(DecisionError::UnknownKey(other.to_owned())),
        }
    }
    // A deny or ask the model is told about: the reason, unless the policy
    // wrote a message of its own.
    if matches!(decision.permission, Permission::Deny | Permission::Ask)
        && decision.agent_message.is_none()
    {
        decision.agent_message = decision.reason.clone();
    }
    Ok(decision)
}

fn bad_permission() -> DecisionError {
    DecisionError::BadField {
        key: "permission",
        expected: "\"allow\", \"ask\", \"deny\" or \"none\"",
    }
}
