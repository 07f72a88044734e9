//! Proto reply → canonical decision: what a subscriber answered, part by
//! part. A part that cannot be used is dropped on its own (and reported),
//! so a malformed rewrite never cancels the deny next to it.

use hookgate_adapters::{Decision, Permission};
use hookgate_proto::v1;

/// A part of a subscriber reply that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum BadDecision {
    #[error("updated_input_json is not valid JSON ({0})")]
    UpdatedInputNotJson(String),
    #[error("updated_input_json is not a JSON object")]
    UpdatedInputNotObject,
}

/// A subscriber's decision, with the parts that had to be dropped.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Converted {
    pub decision: Decision,
    /// Why each dropped part was unusable (empty for a clean reply).
    pub dropped: Vec<BadDecision>,
}

/// A subscriber's proto decision in canonical form. Empty strings are
/// "absent"; unknown permission values are "no opinion" (per the proto's
/// compatibility rules); an `updated_input_json` that is not a JSON object
/// is dropped alone: the permission, reasons, halt and the rest still
/// count, because a policy that denies and also botches a rewrite still
/// denies.
pub(crate) fn decision_from_proto(decision: v1::Decision) -> Converted {
    let mut dropped = Vec::new();
    let updated_input = match decision.updated_input_json.trim() {
        "" => None,
        json => match serde_json::from_str::<serde_json::Value>(json) {
            Ok(value @ serde_json::Value::Object(_)) => Some(value),
            Ok(_) => {
                dropped.push(BadDecision::UpdatedInputNotObject);
                None
            }
            Err(err) => {
                dropped.push(BadDecision::UpdatedInputNotJson(err.to_string()));
                None
            }
        },
    };
    let permission = match v1::Permission::try_from(decision.permission) {
        Ok(v1::Permission::Allow) => Permission::Allow,
        Ok(v1::Permission::Ask) => Permission::Ask,
        Ok(v1::Permission::Deny) => Permission::Deny,
        Ok(v1::Permission::Unspecified) | Err(_) => Permission::Unspecified,
    };
    let text = |s: String| (!s.is_empty()).then_some(s);
    Converted {
        decision: Decision {
            permission,
            reason: text(decision.reason),
            agent_message: text(decision.agent_message),
            additional_context: text(decision.additional_context),
            updated_input,
            halt: decision.halt,
            followup_message: text(decision.followup_message),
        },
        dropped,
    }
}

/// A canonical decision as proto (what a subscriber would send).
#[cfg(test)]
pub(crate) fn decision_to_proto(decision: &Decision) -> v1::Decision {
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
    fn replies_become_decisions() {
        let reply = decision_from_proto(v1::Decision {
            permission: v1::Permission::Deny as i32,
            ..v1::Decision::default()
        });
        assert_eq!(reply.decision.permission, Permission::Deny);
        assert!(reply.dropped.is_empty());
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
            let back = decision_from_proto(decision_to_proto(&decision));
            assert_eq!(
                back,
                Converted {
                    decision,
                    dropped: vec![]
                }
            );
        }
    }

    /// A bad rewrite is dropped alone: the deny, its reason, the context
    /// and the halt of the same reply survive.
    #[test]
    fn a_bad_part_is_dropped_and_the_rest_survives() {
        // (updated_input_json, what is dropped: "object", "json" or "").
        let cases = [
            ("[1]", "object"),
            ("\"x\"", "object"),
            ("null", "object"),
            ("{nope", "json"),
            ("  ", ""),
        ];
        for (json, why) in cases {
            let converted = decision_from_proto(v1::Decision {
                permission: v1::Permission::Deny as i32,
                reason: "HG-DENY".into(),
                additional_context: "HG-CTX".into(),
                updated_input_json: json.into(),
                halt: true,
                ..v1::Decision::default()
            });
            let dropped: Vec<&str> = converted
                .dropped
                .iter()
                .map(|bad| match bad {
                    BadDecision::UpdatedInputNotObject => "object",
                    BadDecision::UpdatedInputNotJson(_) => "json",
                })
                .collect();
            let expected: Vec<&str> = [why].into_iter().filter(|w| !w.is_empty()).collect();
            assert_eq!(dropped, expected, "{json}");
            let decision = converted.decision;
            assert_eq!(decision.permission, Permission::Deny, "{json}");
            assert_eq!(decision.reason.as_deref(), Some("HG-DENY"), "{json}");
            assert_eq!(
                decision.additional_context.as_deref(),
                Some("HG-CTX"),
                "{json}"
            );
            assert!(decision.halt && decision.updated_input.is_none(), "{json}");
        }
        let unknown_permission = v1::Decision {
            permission: 42,
            ..v1::Decision::default()
        };
        assert!(
            decision_from_proto(unknown_permission)
                .decision
                .is_neutral()
        );
    }
}
