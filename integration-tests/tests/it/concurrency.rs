//! 200 real shims at once, mixed agents, each reply depending on its own
//! payload, so a reply delivered to the wrong shim is caught.

use hookgate_integration_tests::{ShimOutput, SubscriberEntry, TestSubscriber};
use hookgate_proto::v1 as pb;
use serde_json::json;

use crate::support::{
    Dialect, UnderTest, assert_claude_allow, assert_claude_deny, assert_claude_reply,
    assert_cline_cancel, assert_cline_refusal, cline_json, gateway, str_at,
};

const SHIMS: usize = 200;

/// `echo hookgate-<n>` → n.
fn number(event: &pb::HookEvent) -> Option<u64> {
    let command = event.tool.as_ref()?.command.as_deref()?;
    command.strip_prefix("echo hookgate-")?.trim().parse().ok()
}

/// Odd numbers are denied, even ones allowed with context naming them.
fn decide(event: &pb::HookEvent) -> pb::Decision {
    match number(event) {
        Some(n) if n % 2 == 1 => pb::Decision {
            permission: pb::Permission::Deny as i32,
            reason: format!("odd <{n}>"),
            ..pb::Decision::default()
        },
        Some(n) => pb::Decision {
            permission: pb::Permission::Allow as i32,
            additional_context: format!("even <{n}>"),
            ..pb::Decision::default()
        },
        None => pb::Decision {
            permission: pb::Permission::Deny as i32,
            reason: "no number in the command".into(),
            ..pb::Decision::default()
        },
    }
}

/// Shims `2k` and `2k + 1` share a dialect, so every dialect gets both
/// an odd (denied) and an even (allowed) number, however many there are.
fn dialect_of(i: usize) -> Dialect {
    Dialect::ALL[(i / 2) % Dialect::ALL.len()]
}

fn assert_reply(i: usize, out: &ShimOutput) {
    let odd = i % 2 == 1;
    let (deny, allow) = (format!("odd <{i}>"), format!("even <{i}>"));
    match dialect_of(i) {
        // Codex's PreToolUse schema has the same deny, allow and context.
        Dialect::ClaudeCode | Dialect::Codex if odd => assert_claude_deny(out, "PreToolUse", &deny),
        Dialect::ClaudeCode | Dialect::Codex => assert_claude_allow(out, "PreToolUse", &allow),
        // Claude Code's replies, without PreToolUse context (a loss there).
        Dialect::QwenCode | Dialect::Droid if odd => {
            assert_claude_deny(out, "PreToolUse", &deny);
        }
        Dialect::QwenCode | Dialect::Droid => {
            assert_claude_reply(out, "PreToolUse", Some("allow"), None);
        }
        Dialect::Cursor => {
            assert_eq!(out.code, Some(0), "shim {i}: {out}");
            let json = out.json();
            if odd {
                assert_eq!(str_at(&json, "permission"), "deny", "shim {i}: {out}");
                assert!(
                    str_at(&json, "user_message").contains(&deny),
                    "shim {i}: {out}"
                );
            } else {
                assert_eq!(json, json!({"permission": "allow"}), "shim {i}: {out}");
            }
        }
        Dialect::CopilotPascal if odd => assert_claude_deny(out, "PreToolUse", &deny),
        // hookgate's OpenCode plugin applies Claude Code's replies, context
        // included.
        Dialect::OpenCode if odd => assert_claude_deny(out, "tool.execute.before", &deny),
        Dialect::OpenCode => assert_claude_allow(out, "tool.execute.before", &allow),
        Dialect::CopilotCamel if odd => {
            assert_eq!(out.code, Some(0), "shim {i}: {out}");
            assert_eq!(
                out.json(),
                json!({"permissionDecision": "deny", "permissionDecisionReason": deny}),
                "shim {i}: {out}"
            );
        }
        // Copilot's preToolUse takes no context (a loss): the allow alone.
        Dialect::CopilotPascal => assert_eq!(
            out.json(),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}),
            "shim {i}: {out}"
        ),
        Dialect::CopilotCamel => assert_eq!(
            out.json(),
            json!({"permissionDecision": "allow"}),
            "shim {i}: {out}"
        ),
        Dialect::GeminiCli if odd => {
            assert_eq!(out.code, Some(0), "shim {i}: {out}");
            assert_eq!(
                out.json(),
                json!({"decision": "deny", "reason": deny}),
                "shim {i}: {out}"
            );
        }
        // Gemini reads no allow, and BeforeTool ignores context (losses).
        Dialect::GeminiCli => {
            assert_eq!(out.code, Some(0), "shim {i}: {out}");
            assert!(out.stdout.is_empty(), "shim {i}: {out}");
        }
        Dialect::Hermes if odd => {
            assert_eq!(out.code, Some(0), "shim {i}: {out}");
            assert_eq!(
                out.json(),
                json!({"decision": "block", "reason": deny}),
                "shim {i}: {out}"
            );
        }
        // Hermes reads no allow, and pre_tool_call no context (losses).
        Dialect::Hermes => {
            assert_eq!(out.code, Some(0), "shim {i}: {out}");
            assert!(out.stdout.is_empty(), "shim {i}: {out}");
        }
        Dialect::ClineSdk if odd => assert_cline_refusal(out, &deny),
        Dialect::ClineSdk => assert_eq!(
            cline_json(out),
            json!({"context": allow}),
            "shim {i}: {out}"
        ),
        Dialect::ClineLegacy if odd => assert_cline_cancel(out, &deny),
        Dialect::ClineLegacy => assert_eq!(
            cline_json(out),
            json!({"cancel": false, "contextModification": allow}),
            "shim {i}: {out}"
        ),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_concurrent_shims_get_their_own_replies() {
    let subscriber = TestSubscriber::respond(decide).await;
    let gateway = gateway(&[SubscriberEntry::decide("parity", &subscriber.endpoint())]).await;

    // All spawned at once: the processes start as fast as the machine
    // allows and are all in flight against the gateway together.
    let mut runs = tokio::task::JoinSet::new();
    for i in 0..SHIMS {
        let shim = gateway.shim(Some(dialect_of(i).arg()));
        let payload = dialect_of(i).shell_payload(&format!("echo hookgate-{i}"));
        runs.spawn(async move { (i, shim.run(payload).await) });
    }
    let mut outputs: Vec<Option<ShimOutput>> = vec![None; SHIMS];
    while let Some(done) = runs.join_next().await {
        let (i, out) = done.expect("shim task");
        outputs[i] = Some(out);
    }
    for (i, out) in outputs.iter().enumerate() {
        assert_reply(i, out.as_ref().expect("every shim ran"));
    }
    assert_eq!(subscriber.count(), SHIMS, "one event per shim");
}
