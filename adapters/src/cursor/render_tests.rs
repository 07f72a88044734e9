//! Golden replies: every Cursor fixture rendered with each kind of answer
//! (`test_data/cursor/replies/<event>.txt`), plus the rules that matter
//! most spelled out as assertions.

use serde_json::json;

use super::{parse, render};
use crate::testing::{check_golden, fixture, fixtures};
use crate::{Decision, HookEvent, Loss, Permission, Rendered};

/// The answers every event is rendered with, by name.
fn scenarios() -> Vec<(&'static str, Decision)> {
    let reason = || Some("Force-push is blocked by policy.".to_owned());
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
                additional_context: Some("Branch feat/checkout.".into()),
                ..Decision::default()
            },
        ),
        (
            "rewrite",
            Decision {
                updated_input: Some(json!({"command": "npm test -- --ci"})),
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
                additional_context: Some("Branch feat/checkout.".into()),
                updated_input: Some(json!({"command": "true"})),
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
    for (stem, bytes) in fixtures("cursor") {
        let event = parse(&bytes).unwrap();
        let mut golden = format!("# {stem}: {:?}\n\n", event.capabilities);
        for (name, decision) in scenarios() {
            let rendered = render(&event, &decision);
            assert_eq!(
                rendered.reply.exit_code, 0,
                "{stem} {name}: never exit 2 (Cursor drops the JSON)"
            );
            assert!(rendered.reply.stderr.is_empty(), "{stem} {name}");
            serde_json::from_slice::<serde_json::Value>(&rendered.reply.stdout)
                .unwrap_or_else(|err| panic!("{stem} {name}: stdout is not JSON: {err}"));
            golden.push_str(&describe(name, &rendered));
        }
        check_golden(&format!("cursor/replies/{stem}.txt"), &golden);
    }
}

fn event(stem: &str) -> HookEvent {
    parse(&fixture(&format!("cursor/{stem}.json"))).unwrap()
}

fn stdout(rendered: &Rendered) -> serde_json::Value {
    serde_json::from_slice(&rendered.reply.stdout).unwrap()
}

#[test]
fn neutral_is_an_empty_object_everywhere() {
    for (stem, bytes) in fixtures("cursor") {
        let rendered = render(&parse(&bytes).unwrap(), &Decision::default());
        assert_eq!(rendered.reply.stdout, b"{}\n", "{stem}");
        assert!(rendered.losses.is_empty(), "{stem}");
    }
}

#[test]
fn ask_is_kept_where_enforced_and_becomes_deny_elsewhere() {
    let ask = Decision {
        permission: Permission::Ask,
        reason: Some("why".into()),
        ..Decision::default()
    };
    let shell = render(&event("beforeShellExecution"), &ask);
    assert_eq!(
        stdout(&shell),
        json!({"permission": "ask", "user_message": "why", "agent_message": "why"})
    );
    assert!(shell.losses.is_empty());
    let generic = render(&event("preToolUse"), &ask);
    assert_eq!(stdout(&generic)["permission"], "deny");
    assert_eq!(generic.losses, vec![Loss::Ask]);
    let prompt = render(&event("beforeSubmitPrompt"), &ask);
    assert_eq!(
        stdout(&prompt),
        json!({"continue": false, "user_message": "why"})
    );
    assert_eq!(prompt.losses, vec![Loss::Ask]);
}

#[test]
fn answers_an_event_cannot_take_are_reported_not_rendered() {
    let everything = Decision {
        permission: Permission::Deny,
        additional_context: Some("c".into()),
        updated_input: Some(json!({})),
        halt: true,
        followup_message: Some("f".into()),
        ..Decision::default()
    };
    let rendered = render(&event("afterShellExecution"), &everything);
    assert_eq!(rendered.reply.stdout, b"{}\n");
    assert_eq!(
        rendered.losses,
        vec![
            Loss::Deny,
            Loss::Halt,
            Loss::Context,
            Loss::InputRewrite,
            Loss::Followup
        ]
    );
}

#[test]
fn rewrite_context_and_followup_where_supported() {
    let rewrite = Decision {
        updated_input: Some(json!({"command": "ls"})),
        ..Decision::default()
    };
    let rendered = render(&event("preToolUse"), &rewrite);
    assert_eq!(
        stdout(&rendered),
        json!({"updated_input": {"command": "ls"}})
    );
    let context = Decision {
        additional_context: Some("ctx".into()),
        ..Decision::default()
    };
    assert_eq!(
        stdout(&render(&event("sessionStart"), &context)),
        json!({"additional_context": "ctx"})
    );
    assert_eq!(
        render(&event("beforeShellExecution"), &context).losses,
        vec![Loss::Context]
    );
    let followup = Decision {
        followup_message: Some("again".into()),
        ..Decision::default()
    };
    assert_eq!(
        stdout(&render(&event("stop"), &followup)),
        json!({"followup_message": "again"})
    );
}

#[test]
fn halt_denies_where_only_a_deny_exists() {
    let halt = Decision {
        halt: true,
        ..Decision::default()
    };
    let rendered = render(&event("preToolUse"), &halt);
    assert_eq!(stdout(&rendered), json!({"permission": "deny"}));
    assert_eq!(rendered.losses, vec![Loss::Halt]);
    let prompt = render(&event("beforeSubmitPrompt"), &halt);
    assert_eq!(stdout(&prompt), json!({"continue": false}));
    assert!(prompt.losses.is_empty());
}
