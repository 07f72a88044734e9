//! Subscriber decisions by intent, so tests read as "deny because ...".

use hookgate_proto::v1::{Decision, Permission};

/// No opinion.
pub fn neutral() -> Decision {
    Decision::default()
}

/// Allow, with no further text.
pub fn allow() -> Decision {
    Decision {
        permission: Permission::Allow as i32,
        ..Decision::default()
    }
}

/// Deny with a reason for the user and a message for the model.
pub fn deny(reason: &str) -> Decision {
    Decision {
        permission: Permission::Deny as i32,
        reason: reason.to_owned(),
        agent_message: format!("model: {reason}"),
        ..Decision::default()
    }
}

/// Only extra context for the model.
pub fn context(text: &str) -> Decision {
    Decision {
        additional_context: text.to_owned(),
        ..Decision::default()
    }
}

/// Allow with a full replacement of the tool's input.
pub fn rewrite(input: &serde_json::Value) -> Decision {
    Decision {
        permission: Permission::Allow as i32,
        updated_input_json: input.to_string(),
        ..Decision::default()
    }
}

/// Stop the agent's loop, saying why.
pub fn halt(reason: &str) -> Decision {
    Decision {
        halt: true,
        reason: reason.to_owned(),
        ..Decision::default()
    }
}

/// Deny with `reason` and a rewrite that is not a JSON object: the rewrite
/// is dropped alone, the deny stands.
pub fn deny_with_bad_rewrite(reason: &str) -> Decision {
    Decision {
        updated_input_json: "[\"not an object\"]".to_owned(),
        ..deny(reason)
    }
}
