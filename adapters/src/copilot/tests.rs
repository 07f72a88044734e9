//! Copilot CLI adapter tests over the payloads captured from the real CLI
//! (1.0.102) in both config dialects: test_data/copilot (PascalCase) and
//! test_data/copilot-camel (camelCase, file stem = the configured event):
//! parsed and rendered goldens, detection, the shim's event argument, and
//! the fallbacks.

use serde_json::json;

use super::{CAMEL, PASCAL, parse_camel, parse_pascal, render_camel, render_pascal};
use crate::testing::{self, Case, Suite, claude_protocol, fixture};
use crate::{
    Decision, Dialect, EventKind as K, FailMode, Loss, ToolClass, detect, detect_with_event,
    fallback, parse_detected,
};

const PASCAL_SUITE: Suite = Suite {
    dir: "copilot",
    dialect: Dialect::CopilotPascal,
    parse: |_, bytes| parse_pascal(bytes),
    render: render_pascal,
};

/// The file stem is the configured event: camelCase payloads name none.
const CAMEL_SUITE: Suite = Suite {
    dir: "copilot-camel",
    dialect: Dialect::CopilotCamel,
    parse: |stem, bytes| parse_camel(bytes, stem),
    render: render_camel,
};

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(json!({"command": "npm test -- --ci",
        "description": "Run the tests", "mode": "sync"}))
}

#[rustfmt::skip]
const PASCAL_CASES: [Case; 6] = [
    ("PostToolUse", K::PostToolUse, false, Some(("Bash", ToolClass::Shell))),
    ("PreToolUse", K::PreToolUse, true, Some(("Bash", ToolClass::Shell))),
    ("SessionEnd", K::SessionEnd, false, None),
    ("SessionStart", K::SessionStart, false, None),
    ("Stop", K::Stop, true, None),
    ("UserPromptSubmit", K::PromptSubmit, false, None),
];

#[rustfmt::skip]
const CAMEL_CASES: [Case; 7] = [
    ("agentStop", K::Stop, true, None),
    ("permissionRequest", K::PermissionRequest, true, Some(("bash", ToolClass::Shell))),
    ("postToolUse", K::PostToolUse, false, Some(("bash", ToolClass::Shell))),
    ("preToolUse", K::PreToolUse, true, Some(("bash", ToolClass::Shell))),
    ("sessionEnd", K::SessionEnd, false, None),
    ("sessionStart", K::SessionStart, false, None),
    ("userPromptSubmitted", K::PromptSubmit, false, None),
];

#[test]
fn captured_payloads_parse() {
    for (suite, cases) in [
        (PASCAL_SUITE, &PASCAL_CASES[..]),
        (CAMEL_SUITE, &CAMEL_CASES),
    ] {
        suite.check_parsed(cases, |stem, event| {
            assert!(event.session_id.is_some(), "{stem}");
        });
    }
    let post = parse_pascal(&fixture("copilot/PostToolUse.json")).unwrap();
    assert!(post.tool.unwrap().output.unwrap().starts_with("HGOUT"));
    let post = parse_camel(&fixture("copilot-camel/postToolUse.json"), "postToolUse").unwrap();
    let tool = post.tool.unwrap();
    assert!(tool.command.unwrap().starts_with("touch "));
    assert!(tool.output.unwrap().starts_with("HGOUT"));
}

#[test]
fn replies_golden() {
    PASCAL_SUITE.check_replies(&samples());
    for (stem, bytes) in testing::fixtures("copilot-camel") {
        let event = parse_camel(&bytes, &stem).unwrap();
        let mut golden = format!("# {stem}: {:?}\n\n", event.capabilities);
        for (name, decision) in samples() {
            let rendered = render_camel(&event, &decision);
            let losses: Vec<&str> = rendered.losses.iter().map(|l| l.as_str()).collect();
            golden.push_str(&format!(
                "## {name}\nexit_code: {}\nlosses: {losses:?}\nstdout: {}\n",
                rendered.reply.exit_code,
                String::from_utf8_lossy(&rendered.reply.stdout),
            ));
        }
        testing::check_golden(&format!("copilot-camel/replies/{stem}.txt"), &golden);
    }
}

/// PascalCase: from `COPILOT_*` names, or from the payload alone
/// (`timestamp` on a Claude Code event, never Gemini's `transcript_path`
/// on the events they share). camelCase: only with the event from the
/// shim's command line, `permissionRequest` (which names itself) aside.
#[test]
fn detected_without_an_agent_argument() {
    const ENV: [&str; 3] = ["CLAUDE_PROJECT_DIR", "COPILOT_CLI", "COPILOT_PROJECT_DIR"];
    for (stem, bytes) in testing::fixtures("copilot") {
        for env in [&ENV[..], &["CLAUDE_PROJECT_DIR"]] {
            let got = detect(&bytes, None, env).unwrap();
            assert_eq!(got.dialect, Dialect::CopilotPascal, "{stem} {env:?}");
            assert_eq!(got.native_event.as_deref(), Some(stem.as_str()));
        }
    }
    for (stem, bytes) in testing::fixtures("copilot-camel") {
        let got =
            detect_with_event(&bytes, Some(crate::Agent::Copilot), Some(&stem), &ENV).unwrap();
        assert_eq!(got.dialect, Dialect::CopilotCamel, "{stem}");
        assert_eq!(got.native_event.as_deref(), Some(stem.as_str()));
        let event = parse_detected(&got, &bytes).unwrap();
        assert_eq!(event.native_event, stem);
        let unhinted = detect_with_event(&bytes, None, Some(&stem), &ENV).unwrap();
        assert_eq!(unhinted.dialect, Dialect::CopilotCamel, "{stem}");
    }
    // Copilot sends permissionRequest in camelCase even under a PascalCase
    // config: it names itself in `hookName`, which is not Cline's.
    let permission = fixture("copilot-camel/permissionRequest.json");
    let got = detect(&permission, None, &ENV).unwrap();
    assert_eq!(
        (got.dialect, got.native_event.as_deref()),
        (Dialect::CopilotCamel, Some("permissionRequest"))
    );
    // No event anywhere: not understood, and said so.
    let pre = fixture("copilot-camel/preToolUse.json");
    let got = detect(&pre, Some(crate::Agent::Copilot), &ENV).unwrap();
    assert!(parse_detected(&got, &pre).is_err());
    // Gemini's payloads stay Gemini's.
    let gemini = fixture("gemini-cli/SessionStart.json");
    assert_eq!(
        detect(&gemini, None, &[]).unwrap().dialect,
        Dialect::GeminiCli
    );
}

#[test]
fn camel_replies_speak_copilots_format() {
    let pre = parse_camel(&fixture("copilot-camel/preToolUse.json"), "preToolUse").unwrap();
    let deny = testing::stdout_json(&render_camel(&pre, &samples()[2].1));
    assert_eq!(deny["permissionDecision"], "deny");
    assert!(
        deny["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("off limits")
    );
    let ask = render_camel(&pre, &samples()[3].1);
    assert_eq!(ask.losses, [Loss::Ask]);
    let rewrite = testing::stdout_json(&render_camel(&pre, &samples()[5].1));
    assert_eq!(rewrite["modifiedArgs"]["command"], "npm test -- --ci");
    assert_eq!(rewrite["permissionDecision"], "allow");
    let post = parse_camel(&fixture("copilot-camel/postToolUse.json"), "postToolUse").unwrap();
    let context = testing::stdout_json(&render_camel(&post, &samples()[4].1));
    assert_eq!(
        context,
        json!({"additionalContext": "Deploy target: staging."})
    );
    let stop = parse_camel(&fixture("copilot-camel/agentStop.json"), "agentStop").unwrap();
    let followup = testing::stdout_json(&render_camel(&stop, &samples()[7].1));
    assert_eq!(
        followup,
        json!({"decision": "block", "reason": "Run the test suite again."})
    );
}

/// A deny after the tool ran cannot prevent anything (a loss), but its
/// reason reaches the model as context, before any context of its own, in
/// both dialects (issue #25: it used to render nothing at all).
#[test]
fn a_deny_after_the_tool_is_feedback() {
    let deny = Decision {
        permission: crate::Permission::Deny,
        reason: Some("The output shows a leaked key.".into()),
        additional_context: Some("Rotate it.".into()),
        ..Decision::default()
    };
    let pascal = parse_pascal(&fixture("copilot/PostToolUse.json")).unwrap();
    let camel = parse_camel(&fixture("copilot-camel/postToolUse.json"), "postToolUse").unwrap();
    for rendered in [render_pascal(&pascal, &deny), render_camel(&camel, &deny)] {
        assert_eq!(rendered.losses, [Loss::Deny]);
        assert_eq!(
            testing::stdout_json(&rendered),
            json!({"additionalContext": "The output shows a leaked key.\n\nRotate it."})
        );
    }
    let bare = Decision {
        permission: crate::Permission::Deny,
        ..Decision::default()
    };
    let said = testing::stdout_json(&render_camel(&camel, &bare));
    assert_eq!(
        said,
        json!({"additionalContext": "Blocked by hookgate policy."})
    );
}

/// Fail-closed denies in JSON at exit 0 where a deny can be said (the
/// model reads the reason; a non-zero exit would deny without it), and
/// fail-open is the rendered neutral reply, in both dialects.
#[test]
fn fallback_agrees_with_the_capabilities() {
    for (suite, protocol) in [(PASCAL_SUITE, &PASCAL), (CAMEL_SUITE, &CAMEL)] {
        suite.check_fallback(protocol.dialect.descriptor().events, |spec, _| {
            spec.capabilities().deny
        });
        for spec in protocol.dialect.descriptor().events {
            let closed = fallback(
                Some(suite.dialect),
                Some(spec.name),
                FailMode::Closed,
                "down",
            );
            assert_eq!(closed.exit_code, 0, "{}", spec.name);
        }
    }
}

/// Copilot 1.0.81+ sends the W3C trace context at the top level of both
/// dialects' inputs; it becomes the canonical `trace`, and a malformed one
/// (wrong type, oversized) is no context rather than a parse error.
#[test]
fn the_trace_context_is_surfaced() {
    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let with = |file: &str, extra: serde_json::Value| {
        testing::edited_fixture(file, |map| {
            map.extend(extra.as_object().cloned().unwrap_or_default());
        })
    };
    let both = json!({"traceparent": PARENT, "tracestate": "vendor=1"});
    let pascal = parse_pascal(&with("copilot/PreToolUse.json", both.clone())).unwrap();
    let camel = parse_camel(&with("copilot-camel/preToolUse.json", both), "preToolUse").unwrap();
    for event in [pascal, camel] {
        let trace = event.trace.unwrap();
        assert_eq!(trace.traceparent, PARENT);
        assert_eq!(trace.tracestate.as_deref(), Some("vendor=1"));
    }
    for bad in [
        json!({"traceparent": 42}),
        json!({"traceparent": "x".repeat(4096)}),
        json!({"tracestate": "vendor=1"}),
    ] {
        let event = parse_pascal(&with("copilot/PreToolUse.json", bad.clone())).unwrap();
        assert_eq!(event.trace, None, "{bad}");
    }
}
