//! Nothing an agent (or an attacker) can put on stdin makes `detect`,
//! `parse`, `render` or `fallback` panic: random bytes, JSON-shaped noise
//! and every truncation of every sample payload.
//! Every dialect's parser sees every input, whatever `detect` says.

use hookgate_adapters::{Decision, Dialect, FailMode, Permission, detect, fallback, parse, render};
use hookgate_test_data::all_fixtures;
use proptest::prelude::*;
use serde_json::json;

const ENV: [&str; 3] = ["CLAUDE_PROJECT_DIR", "CURSOR_VERSION", "CLINE_VERSION"];

fn decisions() -> Vec<Decision> {
    vec![
        Decision::default(),
        Decision {
            permission: Permission::Deny,
            halt: true,
            ..Decision::default()
        },
        Decision {
            permission: Permission::Ask,
            reason: Some("r".into()),
            agent_message: Some("a".into()),
            additional_context: Some("c".into()),
            updated_input: Some(json!({"command": "x"})),
            halt: true,
            followup_message: Some("f".into()),
        },
        Decision {
            permission: Permission::Allow,
            updated_input: Some(json!([1])),
            ..Decision::default()
        },
    ]
}

/// Everything the shim and gateway would do with these bytes.
fn exercise(bytes: &[u8]) {
    let detected = detect(bytes, None, &ENV);
    for hint in hookgate_adapters::Agent::ALL {
        let _ = detect(bytes, Some(hint), &[]);
    }
    let (dialect, native) = match &detected {
        Ok(detected) => (Some(detected.dialect), detected.native_event.as_deref()),
        Err(_) => (None, None),
    };
    for mode in [FailMode::Open, FailMode::Closed] {
        let reply = fallback(dialect, native, mode, "hookgate down");
        assert!(matches!(reply.exit_code, 0..=2));
    }
    for dialect in Dialect::ALL {
        if let Ok(event) = parse(dialect, bytes) {
            for decision in decisions() {
                let _ = render(&event, &decision);
            }
        }
    }
}

#[test]
fn every_truncation_of_every_fixture() {
    let fixtures = all_fixtures();
    assert!(fixtures.len() >= 90, "only {} fixtures", fixtures.len());
    for (name, bytes) in &fixtures {
        for end in 0..=bytes.len() {
            exercise(&bytes[..end]);
        }
        // Whole payloads of Claude Code parse; their truncations never do.
        if name.contains("claude-code") {
            assert!(parse(Dialect::ClaudeCode, bytes).is_ok(), "{name}");
            let cut = bytes.len() - 3;
            assert!(parse(Dialect::ClaudeCode, &bytes[..cut]).is_err(), "{name}");
        }
    }
}

proptest! {
    #[test]
    fn random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..1024)) {
        exercise(&bytes);
    }

    #[test]
    fn fixture_with_random_bytes_spliced_in(
        index in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        noise in proptest::collection::vec(any::<u8>(), 0..16),
        drop in 0usize..16,
    ) {
        let fixtures = all_fixtures();
        let (_, bytes) = &fixtures[index.index(fixtures.len())];
        let at = at.index(bytes.len() + 1);
        let mut mutated = bytes[..at].to_vec();
        mutated.extend_from_slice(&noise);
        mutated.extend_from_slice(&bytes[(at + drop).min(bytes.len())..]);
        exercise(&mutated);
    }

    #[test]
    fn claude_shaped_objects_with_random_values(
        event in prop_oneof![
            Just("PreToolUse".to_owned()),
            Just("PostToolUse".to_owned()),
            Just("Stop".to_owned()),
            Just("PermissionRequest".to_owned()),
            "[A-Za-z]{0,12}",
        ],
        tool in prop_oneof![Just("Bash".to_owned()), Just("Write".to_owned()), Just("mcp__".to_owned()), "[a-z_]{0,8}"],
        value in prop_oneof![Just(json!(null)), Just(json!(1.5)), Just(json!(-1)), Just(json!("s")), Just(json!([])), Just(json!({"command": 1}))],
    ) {
        for key in ["tool_input", "tool_response", "duration_ms", "stop_hook_active", "session_id", "error"] {
            let payload = json!({"hook_event_name": event, "tool_name": tool, key: value.clone()});
            exercise(payload.to_string().as_bytes());
        }
    }
}
