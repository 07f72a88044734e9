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

#[test]
fn deny_and_ask_cancel_the_task() {
    let deny = Decision {
        permission: Permission::Deny,
        reason: Some("no".into()),
        ..Decision::default()
    };
    let rendered = render(&event("tool_call"), &deny);
    assert_eq!(
        stdout_json(&rendered),
        json!({"cancel": true, "errorMessage": "no"})
    );
    assert!(rendered.losses.is_empty());
    let ask = Decision {
        permission: Permission::Ask,
        ..Decision::default()
    };
    let rendered = render(&event("legacy.PreToolUse"), &ask);
    assert_eq!(stdout_json(&rendered), json!({"cancel": true}));
    assert_eq!(rendered.losses, vec![Loss::Ask]);
    // A deny after the tool ran is lost, not turned into a cancel.
    let rendered = render(&event("tool_result"), &deny);
    assert_eq!(stdout_json(&rendered), json!({}));
    assert_eq!(rendered.losses, vec![Loss::Deny]);
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
        assert_eq!(
            rendered.losses,
            vec![
                Loss::Deny,
                Loss::Halt,
                Loss::Context,
                Loss::InputRewrite,
                Loss::Followup
            ],
            "{stem}"
        );
    }
}
