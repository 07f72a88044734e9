//! Golden replies: every Cline fixture (both dialects) rendered with each
//! kind of answer (`test_data/cline/replies/<event>.txt`), plus the rules
//! that matter most spelled out as assertions.

use serde_json::{Value, json};

use super::parse_tests::{event, parse_fixture};
use super::render;
use crate::testing::{self, ScenarioText, stdout_json};
use crate::{Decision, Loss, Permission};

fn scenarios() -> Vec<(&'static str, Decision)> {
    let reason = "Destructive git command blocked.";
    let mut all = testing::scenarios(ScenarioText {
        allow_reason: None,
        deny_reason: reason,
        agent_message: "Open a pull request instead.",
        ask_reason: reason,
        context: "Current branch: feat/validation",
        rewrite: json!({"commands": ["npm test -- --ci"]}),
        halt_reason: "Budget exhausted.",
        followup: "Run the tests again.",
    });
    all.extend([
        (
            "deny+context+rewrite",
            Decision {
                permission: Permission::Deny,
                reason: Some(reason.into()),
                additional_context: Some("ctx".into()),
                updated_input: Some(json!({"commands": ["true"]})),
                ..Decision::default()
            },
        ),
        (
            "allow+context+rewrite",
            Decision {
                permission: Permission::Allow,
                additional_context: Some("ctx".into()),
                updated_input: Some(json!({"commands": ["npm test -- --ci"]})),
                ..Decision::default()
            },
        ),
    ]);
    all
}

#[test]
fn every_event_renders_every_answer() {
    testing::check_json_replies(
        "cline",
        parse_fixture,
        render,
        &scenarios(),
        |stem, _, value| {
            if stem.starts_with("legacy.") {
                assert!(value.get("overrideInput").is_none() && value.get("context").is_none());
            } else {
                assert!(value.get("contextModification").is_none());
            }
        },
    );
}

#[test]
fn neutral_replies() {
    assert_eq!(
        render(&event("tool_call"), &Decision::default())
            .reply
            .stdout,
        b"{}\n"
    );
    assert_eq!(
        render(&event("legacy.PreToolUse"), &Decision::default())
            .reply
            .stdout,
        b"{\"cancel\":false}\n"
    );
}

/// A deny refuses the one call and tells the model why; the task goes on.
/// Only where that cannot be relied on does it cancel the task.
#[test]
fn deny_refuses_the_call_and_cancel_is_the_fallback() {
    let deny = |reason: &str| Decision {
        permission: Permission::Deny,
        reason: Some(reason.into()),
        ..Decision::default()
    };
    let mcp_call = {
        let mut call = event("tool_call");
        if let Some(tool) = call.tool.as_mut() {
            tool.class = crate::ToolClass::Mcp;
        }
        call
    };
    let halt = Decision {
        halt: true,
        ..deny("stop")
    };
    let with_context = Decision {
        additional_context: Some("ctx".into()),
        updated_input: Some(json!({"commands": ["true"]})),
        ..deny("no")
    };
    let ask = Decision {
        permission: Permission::Ask,
        ..Decision::default()
    };
    let cases = [
        (
            event("tool_call"),
            deny("no"),
            json!({"overrideInput": {}, "context": "no"}),
            vec![],
        ),
        (
            event("tool_call"),
            with_context,
            json!({"overrideInput": {}, "context": "no\n\nctx"}),
            vec![Loss::InputRewrite],
        ),
        (
            event("tool_call"),
            ask.clone(),
            json!({"overrideInput": {}, "context": "Blocked by hookgate policy."}),
            vec![Loss::Ask],
        ),
        (
            event("tool_call"),
            halt,
            json!({"cancel": true, "errorMessage": "stop"}),
            vec![],
        ),
        (
            mcp_call,
            deny("no"),
            json!({"cancel": true, "errorMessage": "no"}),
            vec![],
        ),
        (
            event("legacy.PreToolUse"),
            ask,
            json!({"cancel": true}),
            vec![Loss::Ask],
        ),
        // After the tool ran: feedback, and a loss (nothing was prevented).
        (
            event("tool_result"),
            deny("no"),
            json!({"context": "no"}),
            vec![Loss::Deny],
        ),
        // The agent message is said next to the reason, never dropped.
        (
            event("tool_call"),
            Decision {
                agent_message: Some("use the staging db".into()),
                ..deny("no")
            },
            json!({"overrideInput": {}, "context": "no\nuse the staging db"}),
            vec![],
        ),
        (
            event("legacy.PreToolUse"),
            Decision {
                agent_message: Some("use the staging db".into()),
                ..deny("no")
            },
            json!({"cancel": true, "errorMessage": "no\nuse the staging db"}),
            vec![],
        ),
    ];
    for (event, decision, reply, losses) in cases {
        let rendered = render(&event, &decision);
        assert_eq!(
            stdout_json(&rendered),
            reply,
            "{} {decision:?}",
            event.native_event
        );
        assert_eq!(
            rendered.losses, losses,
            "{} {decision:?}",
            event.native_event
        );
    }
}

#[test]
fn context_and_rewrite_use_each_dialects_keys() {
    let decision = Decision {
        additional_context: Some("ctx".into()),
        updated_input: Some(json!({"commands": ["ls"]})),
        ..Decision::default()
    };
    let sdk = render(&event("tool_call"), &decision);
    assert_eq!(
        stdout_json(&sdk),
        json!({"context": "ctx", "overrideInput": {"commands": ["ls"]}})
    );
    assert!(sdk.losses.is_empty());
    let legacy = render(&event("legacy.PreToolUse"), &decision);
    assert_eq!(
        stdout_json(&legacy),
        json!({"cancel": false, "contextModification": "ctx"})
    );
    assert_eq!(legacy.losses, vec![Loss::InputRewrite]);
    let result = render(&event("tool_result"), &decision);
    assert_eq!(stdout_json(&result), json!({"context": "ctx"}));
    assert_eq!(result.losses, vec![Loss::InputRewrite]);
}

#[test]
fn detached_events_lose_everything() {
    let everything = testing::every_answer();
    for stem in [
        "agent_start",
        "prompt_submit",
        "session_shutdown",
        "legacy.TaskComplete",
    ] {
        let rendered = render(&event(stem), &everything);
        assert_eq!(
            stdout_json(&rendered)["cancel"],
            json!(if stem.starts_with("legacy.") {
                json!(false)
            } else {
                Value::Null
            })
        );
        assert_eq!(rendered.losses, testing::EVERY_LOSS, "{stem}");
    }
}
