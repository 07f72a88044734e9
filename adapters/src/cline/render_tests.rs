//! Golden replies: every Cline fixture (both dialects) rendered with each
//! kind of answer (`test_data/cline/replies/<event>.txt`), plus the rules
//! that matter most spelled out as assertions.

use serde_json::{Value, json};

use super::parse_tests::{event, parse_fixture};
use super::render;
use crate::testing::{check_golden, fixtures};
use crate::{Decision, Loss, Permission, Rendered};

fn scenarios() -> Vec<(&'static str, Decision)> {
    let reason = || Some("Destructive git command blocked.".to_owned());
    vec![
        ("neutral", Decision::default()),
        (
            "allow",
            Decision {
                permission: Permission::Allow,
                ..Decision::default()
            },
        ),
        (
            "deny",
            Decision {
                permission: Permission::Deny,
                reason: reason(),
                agent_message: Some("Open a pull request instead.".into()),
                ..Decision::default()
            },
        ),
        (
            "ask",
            Decision {
                permission: Permission::Ask,
                reason: reason(),
                ..Decision::default()
            },
        ),
        (
            "context",
            Decision {
                additional_context: Some("Current branch: feat/validation".into()),
                ..Decision::default()
            },
        ),
        (
            "rewrite",
            Decision {
                updated_input: Some(json!({"commands": ["npm test -- --ci"]})),
                ..Decision::default()
            },
        ),
        (
            "halt",
            Decision {
                halt: true,
                reason: Some("Budget exhausted.".into()),
                ..Decision::default()
            },
        ),
        (
            "followup",
            Decision {
                followup_message: Some("Run the tests again.".into()),
                ..Decision::default()
            },
        ),
        (
            "deny+context+rewrite",
            Decision {
                permission: Permission::Deny,
                reason: reason(),
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
    ]
}

fn describe(name: &str, rendered: &Rendered) -> String {
    let losses: Vec<&str> = rendered.losses.iter().map(|loss| loss.as_str()).collect();
    format!(
        "## {name}\nexit_code: {}\nlosses: {losses:?}\nstdout: {}stderr: {:?}\n\n",
        rendered.reply.exit_code,
        String::from_utf8_lossy(&rendered.reply.stdout),
        String::from_utf8_lossy(&rendered.reply.stderr),
    )
}

#[test]
fn every_event_renders_every_answer() {
    for (stem, bytes) in fixtures("cline") {
        let event = parse_fixture(&stem, &bytes).unwrap();
        let mut golden = format!("# {stem}: {:?}\n\n", event.capabilities);
        for (name, decision) in scenarios() {
            let rendered = render(&event, &decision);
            assert_eq!(rendered.reply.exit_code, 0, "{stem} {name}");
            assert!(rendered.reply.stderr.is_empty(), "{stem} {name}");
            let value: Value = serde_json::from_slice(&rendered.reply.stdout)
                .unwrap_or_else(|err| panic!("{stem} {name}: stdout is not JSON: {err}"));
            if stem.starts_with("legacy.") {
                assert!(value.get("overrideInput").is_none() && value.get("context").is_none());
            } else {
                assert!(value.get("contextModification").is_none());
            }
            golden.push_str(&describe(name, &rendered));
        }
        check_golden(&format!("cline/replies/{stem}.txt"), &golden);
    }
}

fn stdout(rendered: &Rendered) -> Value {
    serde_json::from_slice(&rendered.reply.stdout).unwrap()
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
        stdout(&rendered),
        json!({"cancel": true, "errorMessage": "no"})
    );
    assert!(rendered.losses.is_empty());
    let ask = Decision {
        permission: Permission::Ask,
        ..Decision::default()
    };
    let rendered = render(&event("legacy.PreToolUse"), &ask);
    assert_eq!(stdout(&rendered), json!({"cancel": true}));
    assert_eq!(rendered.losses, vec![Loss::Ask]);
    // A deny after the tool ran is lost, not turned into a cancel.
    let rendered = render(&event("tool_result"), &deny);
    assert_eq!(stdout(&rendered), json!({}));
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
        stdout(&sdk),
        json!({"context": "ctx", "overrideInput": {"commands": ["ls"]}})
    );
    assert!(sdk.losses.is_empty());
    let legacy = render(&event("legacy.PreToolUse"), &decision);
    assert_eq!(
        stdout(&legacy),
        json!({"cancel": false, "contextModification": "ctx"})
    );
    assert_eq!(legacy.losses, vec![Loss::InputRewrite]);
    let result = render(&event("tool_result"), &decision);
    assert_eq!(stdout(&result), json!({"context": "ctx"}));
    assert_eq!(result.losses, vec![Loss::InputRewrite]);
}

#[test]
fn detached_events_lose_everything() {
    let everything = Decision {
        permission: Permission::Deny,
        additional_context: Some("c".into()),
        updated_input: Some(json!({})),
        halt: true,
        followup_message: Some("f".into()),
        ..Decision::default()
    };
    for stem in [
        "agent_start",
        "prompt_submit",
        "session_shutdown",
        "legacy.TaskComplete",
    ] {
        let rendered = render(&event(stem), &everything);
        assert_eq!(
            stdout(&rendered)["cancel"],
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
