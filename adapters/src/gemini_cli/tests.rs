//! Gemini CLI adapter tests over the payloads captured from the real CLI
//! (0.61.0) in test_data/gemini-cli: parsed and rendered goldens, the reply
//! rules measured there, detection without a hint, and the fallbacks.

use serde_json::json;

use super::{PROTOCOL, parse, render};
use crate::testing::{Case, Suite, check_tool_classes, claude_protocol, fixture, stdout_json};
use crate::{Decision, Dialect, EventKind as K, FailMode, Loss, Permission, ToolClass};
use crate::{HookEvent, detect, fallback};
use hookgate_dialect::events::{DenyForm, EventSpec};

const SUITE: Suite = Suite {
    dir: "gemini-cli",
    dialect: Dialect::GeminiCli,
    parse: |_, bytes| parse(bytes),
    render,
};

fn samples() -> Vec<(&'static str, Decision)> {
    claude_protocol::samples(json!({"command": "npm test -- --ci",
        "description": "Run the tests", "is_background": false}))
}

fn event(stem: &str) -> HookEvent {
    SUITE.event(stem)
}

const SHELL: Option<(&str, ToolClass)> = Some(("run_shell_command", ToolClass::Shell));

#[rustfmt::skip]
const CASES: [Case; 11] = [
    ("AfterAgent", K::Stop, true, None),
    ("AfterModel", K::Other, true, None),
    ("AfterTool", K::PostToolUse, true, SHELL),
    ("BeforeAgent", K::PromptSubmit, true, None),
    ("BeforeModel", K::Other, true, None),
    ("BeforeTool", K::PreToolUse, true, SHELL),
    ("BeforeToolSelection", K::Other, true, None),
    ("Notification", K::Notification, false, None),
    ("PreCompress", K::PreCompact, false, None),
    ("SessionEnd", K::SessionEnd, false, None),
    ("SessionStart", K::SessionStart, false, None),
];

#[test]
fn captured_payloads_parse() {
    SUITE.check_parsed(&CASES, |stem, event| {
        assert!(event.session_id.is_some(), "{stem}");
    });
    let pre = event("BeforeTool");
    assert!(pre.tool.unwrap().command.unwrap().starts_with("touch "));
    let post = event("AfterTool").tool.unwrap();
    assert!(post.output.unwrap().contains("Output: HGOUT"), "llmContent");
    let stop = event("AfterAgent");
    assert_eq!(stop.text.as_deref(), Some("Done."));
    assert!(!stop.stop.unwrap().continuing);
    assert_eq!(
        event("BeforeAgent").prompt.as_deref(),
        Some("Run the scripted command.")
    );
}

#[test]
fn replies_golden() {
    SUITE.check_replies(&samples());
}

/// From the payload alone (`timestamp` without `permission_mode`), from
/// the variable names alone, and never as Qwen Code, which also sends
/// `timestamp` and sets `GEMINI_PROJECT_DIR`.
#[test]
fn captured_payloads_are_detected_as_gemini_without_a_hint() {
    const GEMINI_ENV: [&str; 5] = [
        "CLAUDE_PROJECT_DIR",
        "GEMINI_CWD",
        "GEMINI_PLANS_DIR",
        "GEMINI_PROJECT_DIR",
        "GEMINI_SESSION_ID",
    ];
    for (stem, bytes) in hookgate_test_data::fixtures("gemini-cli") {
        let by_payload = detect(&bytes, None, &["CLAUDE_PROJECT_DIR"]).unwrap();
        assert_eq!(by_payload.native_event.as_deref(), Some(stem.as_str()));
    }
    SUITE.check_detected(&["CLAUDE_PROJECT_DIR"], None);
    SUITE.check_detected(&GEMINI_ENV, Some("timestamp"));
    let qwen = fixture("qwen-code/PreToolUse.json");
    let qwen = detect(&qwen, None, &["GEMINI_PROJECT_DIR", "QWEN_PROJECT_DIR"]).unwrap();
    assert_eq!(qwen.dialect, Dialect::QwenCode);
}

/// The rules measured on 0.61.0: Gemini reads `decision: "deny"`, not
/// Claude's `permissionDecision`; an ask hangs headless, so it denies; the
/// context BeforeTool ignores is a loss; a rewrite is `tool_input`.
#[test]
fn before_tool_speaks_geminis_own_reply_format() {
    let pre = event("BeforeTool");
    let deny = stdout_json(&render(&pre, &samples()[2].1));
    assert_eq!(deny["decision"], "deny");
    assert!(deny["reason"].as_str().unwrap().contains("off limits"));
    assert!(deny.get("hookSpecificOutput").is_none());

    let ask = Decision {
        permission: Permission::Ask,
        reason: Some("sure?".into()),
        ..Decision::default()
    };
    let ask = render(&pre, &ask);
    assert_eq!(ask.losses, [Loss::Ask]);
    assert_eq!(stdout_json(&ask)["decision"], "deny");

    let context = render(&pre, &samples()[4].1);
    assert_eq!(context.losses, [Loss::Context]);
    assert!(context.reply.stdout.is_empty());

    let rewrite = render(&pre, &samples()[5].1);
    assert!(rewrite.losses.is_empty(), "{:?}", rewrite.losses);
    let rewrite = stdout_json(&rewrite);
    assert_eq!(
        rewrite["hookSpecificOutput"]["tool_input"]["command"],
        "npm test -- --ci"
    );

    let halt = stdout_json(&render(&pre, &samples()[6].1));
    assert_eq!(halt["continue"], false);
    assert_eq!(halt["stopReason"], "Build is red");
}

/// Gemini merges `tool_input` into the original: a key the replacement
/// drops keeps its old value, so the rewrite is rendered and reported.
#[test]
fn a_rewrite_that_drops_a_key_is_a_loss() {
    let pre = event("BeforeTool");
    let partial = Decision {
        updated_input: Some(json!({"command": "ls"})),
        ..Decision::default()
    };
    let rendered = render(&pre, &partial);
    assert_eq!(rendered.losses, [Loss::InputRewrite]);
    let reply = stdout_json(&rendered);
    assert_eq!(
        reply["hookSpecificOutput"]["tool_input"],
        json!({"command": "ls"})
    );
}

#[test]
fn context_and_followup_where_gemini_reads_them() {
    for stem in ["SessionStart", "BeforeAgent", "AfterTool"] {
        let reply = stdout_json(&render(&event(stem), &samples()[4].1));
        assert_eq!(
            reply["hookSpecificOutput"]["additionalContext"], "Deploy target: staging.",
            "{stem}"
        );
    }
    let followup = stdout_json(&render(&event("AfterAgent"), &samples()[7].1));
    assert_eq!(
        followup,
        json!({"decision": "block", "reason": "Run the test suite again."})
    );
}

#[test]
fn tool_classes() {
    check_tool_classes(
        super::tools::tool_class,
        &[
            ("run_shell_command", ToolClass::Shell),
            ("read_file", ToolClass::FileRead),
            ("write_file", ToolClass::FileWrite),
            ("replace", ToolClass::FileWrite),
            ("grep_search", ToolClass::Search),
            ("google_web_search", ToolClass::Web),
            ("invoke_agent", ToolClass::Subagent),
            ("Bash", ToolClass::Other),
        ],
    );
}

/// Fail-closed denies in JSON exactly where a deny can be said before the
/// action (Gemini ignores the exit code when stdout is JSON); fail-open is
/// the rendered neutral reply.
#[test]
fn fallback_agrees_with_the_capabilities() {
    let before = |spec: &EventSpec| spec.deny != DenyForm::None && spec.deny != DenyForm::Feedback;
    SUITE.check_fallback(PROTOCOL.dialect.descriptor().events, |spec, parsed| {
        parsed.capabilities.deny && before(spec)
    });
    for spec in PROTOCOL
        .dialect
        .descriptor()
        .events
        .iter()
        .filter(|spec| before(spec))
    {
        let closed = fallback(
            Some(Dialect::GeminiCli),
            Some(spec.name),
            FailMode::Closed,
            "down",
        );
        let json: serde_json::Value = serde_json::from_slice(&closed.stdout).unwrap();
        assert_eq!(
            json,
            json!({"decision": "deny", "reason": "down"}),
            "{}",
            spec.name
        );
    }
    let unknown = fallback(Some(Dialect::GeminiCli), None, FailMode::Closed, "x");
    assert!(unknown.stdout.starts_with(br#"{"decision":"deny""#));
}
