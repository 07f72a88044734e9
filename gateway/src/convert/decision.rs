//! Proto reply → canonical decision: what a subscriber answered, or why
//! its answer cannot be used.

use hookgate_adapters::{Decision, Permission};
use hookgate_proto::v1;

use crate::subscribers::remote::Failure;

/// A subscriber reply that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadDecision {
    #[error("updated_input_json is not valid JSON ({0})")]
    UpdatedInputNotJson(String),
    #[error("updated_input_json is not a JSON object")]
    UpdatedInputNotObject,
}

/// A subscriber's proto decision in canonical form. Empty strings are
/// "absent"; unknown permission values are "no opinion" (per the proto's
/// compatibility rules); an `updated_input_json` that is not a JSON object
/// makes the whole reply unusable.
pub fn decision_from_proto(decision: v1::Decision) -> Result<Decision, BadDecision> {
    let updated_input = match decision.updated_input_json.trim() {
        "" => None,
        json => match serde_json::from_str::<serde_json::Value>(json) {
            Ok(value @ serde_json::Value::Object(_)) => Some(value),
            Ok(_) => return Err(BadDecision::UpdatedInputNotObject),
            Err(err) => return Err(BadDecision::UpdatedInputNotJson(err.to_string())),
        },
    };
    let permission = match v1::Permission::try_from(decision.permission) {
        Ok(v1::Permission::Allow) => Permission::Allow,
        Ok(v1::Permission::Ask) => Permission::Ask,
        Ok(v1::Permission::Deny) => Permission::Deny,
        Ok(v1::Permission::Unspecified) | Err(_) => Permission::Unspecified,
    };
    let text = |s: String| (!s.is_empty()).then_some(s);
    Ok(Decision {
        permission,
        reason: text(decision.reason),
        agent_message: text(decision.agent_message),
        additional_context: text(decision.additional_context),
        updated_input,
        halt: decision.halt,
        followup_message: text(decision.followup_message),
    })
}

/// A decide subscriber's call in canonical form: its decision, or why it
/// has none (an unusable reply becomes [`Failure::BadReply`]).
pub fn decision_from_reply(reply: Result<v1::Decision, Failure>) -> Result<Decision, Failure> {
    reply.and_then(|decision| decision_from_proto(decision).map_err(Failure::BadReply))
}

/// A canonical decision as proto (what a subscriber would send).
#[cfg(test)]
pub fn decision_to_proto(decision: &Decision) -> v1::Decision {
    let permission = match decision.permission {
        Permission::Unspecified => v1::Permission::Unspecified,
        Permission::Allow => v1::Permission::Allow,
        Permission::Ask => v1::Permission::Ask,
        Permission::Deny => v1::Permission::Deny,
    };
    v1::Decision {
        permission: permission as i32,
        reason: decision.reason.clone().unwrap_or_default(),
        agent_message: decision.agent_message.clone().unwrap_or_default(),
        additional_context: decision.additional_context.clone().unwrap_or_default(),
        updated_input_json: decision
            .updated_input
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default(),
        halt: decision.halt,
        followup_message: decision.followup_message.clone().unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_become_decisions_or_failures() {
        let reply = decision_from_reply(Ok(v1::Decision {
            permission: v1::Permission::Deny as i32,
            ..v1::Decision::default()
        }));
        assert_eq!(reply.unwrap().permission, Permission::Deny);
        let bad = decision_from_reply(Ok(v1::Decision {
            updated_input_json: "[1]".into(),
            ..v1::Decision::default()
        }));
        assert!(matches!(
            bad,
            Err(Failure::BadReply(BadDecision::UpdatedInputNotObject))
        ));
        let timeout = std::time::Duration::from_millis(5);
        let failed = decision_from_reply(Err(Failure::Timeout(timeout)));
        assert!(matches!(failed, Err(Failure::Timeout(t)) if t == timeout));
    }

    #[test]
    fn decisions_round_trip() {
        let cases = [
            Decision::default(),
            Decision {
                permission: Permission::Deny,
                reason: Some("no".into()),
                agent_message: Some("try again".into()),
                ..Decision::default()
            },
            Decision {
                permission: Permission::Ask,
                additional_context: Some("ctx".into()),
                updated_input: Some(serde_json::json!({"command": "npm test -- --ci"})),
                halt: true,
                followup_message: Some("next".into()),
                ..Decision::default()
            },
            Decision {
                permission: Permission::Allow,
                ..Decision::default()
            },
        ];
        for decision in cases {
            let back = decision_from_proto(decision_to_proto(&decision)).unwrap();
            assert_eq!(back, decision);
        }
    }

    #[test]
    fn bad_replies_are_rejected_or_neutralized() {
        let with_input = |json: &str| v1::Decision {
            updated_input_json: json.into(),
            ..v1::Decision::default()
        };
        assert_eq!(
            decision_from_proto(with_input("[1]")),
            Err(BadDecision::UpdatedInputNotObject)
        );
        assert_eq!(
            decision_from_proto(with_input("\"x\"")),
            Err(BadDecision::UpdatedInputNotObject)
        );
        assert!(matches!(
            decision_from_proto(with_input("{nope")),
            Err(BadDecision::UpdatedInputNotJson(_))
        ));
        assert!(decision_from_proto(with_input("  ")).unwrap().is_neutral());
        let unknown_permission = v1::Decision {
            permission: 42,
            ..v1::Decision::default()
        };
        assert!(
            decision_from_proto(unknown_permission)
                .unwrap()
                .is_neutral()
        );
    }
}
