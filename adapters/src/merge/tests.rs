//! Table tests for `merge`.

use super::*;
use serde_json::json;

fn ranked(subscriber: &str, priority: i32, decision: Decision) -> RankedDecision {
    RankedDecision {
        subscriber: subscriber.to_owned(),
        priority,
        decision,
    }
}

fn with(permission: Permission, reason: &str) -> Decision {
    Decision {
        permission,
        reason: (!reason.is_empty()).then(|| reason.to_owned()),
        ..Decision::default()
    }
}

#[test]
fn nothing_merges_to_neutral() {
    assert_eq!(merge(Dialect::ClaudeCode, &[]), Merged::default());
    let merged = merge(Dialect::ClaudeCode, &[ranked("a", 0, Decision::default())]);
    assert!(merged.decision.is_neutral());
}

#[test]
fn strongest_permission_wins() {
    use Permission::*;
    let cases: &[(&[Permission], Permission)] = &[
        (&[Allow, Deny], Deny),
        (&[Deny, Allow], Deny),
        (&[Allow, Ask, Allow], Ask),
        (&[Ask, Deny, Ask], Deny),
        (&[Unspecified, Allow], Allow),
        (&[Unspecified, Unspecified], Unspecified),
    ];
    for (inputs, expected) in cases {
        let decisions: Vec<_> = inputs
            .iter()
            .enumerate()
            .map(|(i, p)| ranked(&format!("s{i}"), i as i32, with(*p, "")))
            .collect();
        assert_eq!(
            merge(Dialect::ClaudeCode, &decisions).decision.permission,
            *expected,
            "{inputs:?}"
        );
    }
}

#[test]
fn reasons_of_the_winning_side_in_priority_order() {
    use Permission::*;
    let decisions = [
        ranked("low-deny", 1, with(Deny, "low deny")),
        ranked("allow", 50, with(Allow, "read-only command")),
        ranked("high-deny", 10, with(Deny, "high deny")),
        ranked("tie-deny", 1, with(Deny, "tie deny")),
        ranked("dup", 0, with(Deny, "high deny")),
        ranked("empty", 99, with(Deny, "")),
    ];
    let merged = merge(Dialect::ClaudeCode, &decisions);
    assert_eq!(merged.decision.permission, Deny);
    // Allow's reason left out; ties keep input order; duplicates once.
    assert_eq!(
        merged.decision.reason.as_deref(),
        Some("high deny\nlow deny\ntie deny")
    );
}

#[test]
fn agent_messages_follow_the_same_rule_and_halting_decisions_speak() {
    use Permission::*;
    let decisions = [
        ranked(
            "halter",
            0,
            Decision {
                halt: true,
                reason: Some("build is red".into()),
                agent_message: Some("stop now".into()),
                ..Decision::default()
            },
        ),
        ranked(
            "allower",
            5,
            Decision {
                permission: Allow,
                reason: Some("ok".into()),
                agent_message: Some("go ahead".into()),
                ..Decision::default()
            },
        ),
        ranked(
            "silent",
            9,
            Decision {
                agent_message: Some("unheard".into()),
                ..Decision::default()
            },
        ),
    ];
    let merged = merge(Dialect::Cursor, &decisions).decision;
    assert!(merged.halt);
    assert_eq!(merged.permission, Allow);
    assert_eq!(merged.reason.as_deref(), Some("ok\nbuild is red"));
    assert_eq!(merged.agent_message.as_deref(), Some("go ahead\nstop now"));
}

#[test]
fn contexts_and_followups_from_everyone_in_priority_order() {
    let decision = |context: &str, followup: &str| Decision {
        permission: Permission::Deny,
        additional_context: Some(context.into()),
        followup_message: Some(followup.into()),
        ..Decision::default()
    };
    let decisions = [
        ranked("b", 1, decision("ctx b", "do b")),
        ranked(
            "a",
            2,
            Decision {
                additional_context: Some("ctx a".into()),
                ..Decision::default()
            },
        ),
        ranked("c", 1, decision("", "do c")),
        ranked("d", 0, decision("ctx b", "")),
    ];
    let merged = merge(Dialect::ClineSdk, &decisions);
    assert_eq!(
        merged.decision.additional_context.as_deref(),
        Some("ctx a\n\nctx b\n\nctx b")
    );
    assert_eq!(
        merged.decision.followup_message.as_deref(),
        Some("do b\n\ndo c")
    );
    assert!(!merged.context_truncated);
}

#[test]
fn one_rewrite_wins_the_others_are_conflicts() {
    let rewrite = |command: &str| Decision {
        updated_input: Some(json!({ "command": command })),
        ..Decision::default()
    };
    let decisions = [
        ranked("low", 1, rewrite("low")),
        ranked("none", 9, Decision::default()),
        ranked("high-first", 5, rewrite("high first")),
        ranked("high-second", 5, rewrite("high second")),
    ];
    let merged = merge(Dialect::ClaudeCode, &decisions);
    assert_eq!(
        merged.decision.updated_input,
        Some(json!({"command": "high first"}))
    );
    assert_eq!(
        merged.rewrite_conflicts,
        vec!["high-second".to_owned(), "low".to_owned()]
    );

    let single = merge(Dialect::ClaudeCode, &[ranked("only", 0, rewrite("x"))]);
    assert!(single.rewrite_conflicts.is_empty());
}

#[test]
fn halt_if_anyone_halts() {
    let halting = Decision {
        halt: true,
        ..Decision::default()
    };
    let merged = merge(
        Dialect::ClaudeCode,
        &[
            ranked("a", 0, Decision::default()),
            ranked("b", -3, halting),
        ],
    );
    assert!(merged.decision.halt);
}

#[test]
fn truncation_table() {
    let marker = TRUNCATION_MARKER;
    let m = marker.chars().count();
    let cases: Vec<(String, usize, String, bool)> = vec![
        ("short".into(), 100, "short".into(), false),
        ("x".repeat(40), 40, "x".repeat(40), false),
        (
            "x".repeat(41),
            40,
            format!("{}{marker}", "x".repeat(40 - m)),
            true,
        ),
        // Multi-byte characters are counted as characters and never split.
        (
            "é".repeat(41),
            40,
            format!("{}{marker}", "é".repeat(40 - m)),
            true,
        ),
        ("😀".repeat(100), m + 2, format!("😀😀{marker}"), true),
        ("é".repeat(40), 40, "é".repeat(40), false),
        // A limit too small for the marker: the marker, cut.
        ("abcdef".into(), 3, marker.chars().take(3).collect(), true),
        ("".into(), 0, "".into(), false),
        ("abcd".into(), 0, "".into(), true),
    ];
    for (text, limit, expected, truncated) in cases {
        let (got, was_cut) = truncate_chars(text.clone(), limit);
        assert_eq!(
            (got.as_str(), was_cut),
            (expected.as_str(), truncated),
            "{text:?} at {limit}"
        );
        assert!(got.chars().count() <= limit);
    }
}

#[test]
fn merged_context_is_cut_to_the_agent_limit() {
    for dialect in [
        Dialect::ClaudeCode,
        Dialect::Cursor,
        Dialect::ClineSdk,
        Dialect::ClineLegacy,
    ] {
        let limit = dialect.context_limit();
        let half = "日本".repeat(limit / 4 + 1); // > limit/2 chars, 3 bytes each
        let decisions = [
            ranked(
                "a",
                1,
                Decision {
                    additional_context: Some(half.clone()),
                    ..Decision::default()
                },
            ),
            ranked(
                "b",
                0,
                Decision {
                    additional_context: Some(half.clone()),
                    ..Decision::default()
                },
            ),
        ];
        let merged = merge(dialect, &decisions);
        let context = merged.decision.additional_context.unwrap();
        assert!(merged.context_truncated);
        assert_eq!(context.chars().count(), limit, "{dialect:?}");
        assert!(context.starts_with(&half), "highest priority first");
        assert!(context.ends_with(TRUNCATION_MARKER));

        let fits = "é".repeat(limit);
        let merged = merge(
            dialect,
            &[ranked(
                "a",
                0,
                Decision {
                    additional_context: Some(fits.clone()),
                    ..Decision::default()
                },
            )],
        );
        assert_eq!(merged.decision.additional_context, Some(fits));
        assert!(!merged.context_truncated);
    }
}
