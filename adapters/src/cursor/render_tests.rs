//! Golden replies: every Cursor fixture rendered with each kind of answer
//! (`test_data/cursor/replies/<event>.txt`), plus the rules that matter
//! most spelled out as assertions.

use serde_json::json;

use super::parse_tests::SUITE;
use super::{parse, render};
use crate::testing::{self, ScenarioText, fixtures, stdout_json};
use crate::{Decision, HookEvent, Loss, Permission};

/// The answers every event is rendered with, by name.
fn scenarios() -> Vec<(&'static str, Decision)> {
    let reason = "Force-push is blocked by policy.";
    let context = "Branch feat/checkout.";
    let mut all = testing::scenarios(ScenarioText {
        allow_reason: None,
        deny_reason: reason,
        agent_message: "Open a pull request instead.",
        ask_reason: reason,
        context,
        rewrite: json!({"command": "npm test -- --ci"}),
        halt_reason: "Budget exhausted.",
        followup: "Run the tests again.",
    });
    all.push((
        "deny+context+rewrite",
        Decision {
            permission: Permission::Deny,
            reason: Some(reason.into()),
            additional_context: Some(context.into()),
            updated_input: Some(json!({"command": "true"})),
            ..Decision::default()
        },
    ));
    all
}

/// Every reply exits 0 with JSON on stdout: on exit 2 Cursor drops the JSON.
#[test]
fn every_event_renders_every_answer() {
    SUITE.check_json_replies(&scenarios(), |_, _, _| {});
}

fn event(stem: &str) -> HookEvent {
    SUITE.event(stem)
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
        stdout_json(&shell),
        json!({"permission": "ask", "user_message": "why", "agent_message": "why"})
    );
    assert!(shell.losses.is_empty());
    let generic = render(&event("preToolUse"), &ask);
    assert_eq!(stdout_json(&generic)["permission"], "deny");
    assert_eq!(generic.losses, vec![Loss::Ask]);
    let prompt = render(&event("beforeSubmitPrompt"), &ask);
    assert_eq!(
        stdout_json(&prompt),
        json!({"continue": false, "user_message": "why"})
    );
    assert_eq!(prompt.losses, vec![Loss::Ask]);
}

#[test]
fn answers_an_event_cannot_take_are_reported_not_rendered() {
    let everything = testing::every_answer();
    let rendered = render(&event("afterShellExecution"), &everything);
    assert_eq!(rendered.reply.stdout, b"{}\n");
    assert_eq!(rendered.losses, testing::EVERY_LOSS);
}

#[test]
fn rewrite_context_and_followup_where_supported() {
    let rewrite = Decision {
        updated_input: Some(json!({"command": "ls"})),
        ..Decision::default()
    };
    let rendered = render(&event("preToolUse"), &rewrite);
    assert_eq!(
        stdout_json(&rendered),
        json!({"updated_input": {"command": "ls"}})
    );
    let context = Decision {
        additional_context: Some("ctx".into()),
        ..Decision::default()
    };
    assert_eq!(
        stdout_json(&render(&event("sessionStart"), &context)),
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
        stdout_json(&render(&event("stop"), &followup)),
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
    assert_eq!(stdout_json(&rendered), json!({"permission": "deny"}));
    assert_eq!(rendered.losses, vec![Loss::Halt]);
    let prompt = render(&event("beforeSubmitPrompt"), &halt);
    assert_eq!(stdout_json(&prompt), json!({"continue": false}));
    assert!(prompt.losses.is_empty());
}
