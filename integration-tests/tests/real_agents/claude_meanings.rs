//! Each canonical part does what it means in both pinned Claude Code
//! versions (issue #13): a deny keeps the loop running even when the
//! policy also denies `PostToolBatch`, context on `Stop` is no
//! continuation, a skill's inline shell command is guarded like a shell
//! call, a botched rewrite does not cancel the deny next to it.
//!
//! Every assertion is on what the agent did: marker files, the model's
//! requests, how many there were.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::{AgentOutcome, AgentRun, ClaudeCode};
use hookgate_integration_tests::decisions;
use hookgate_integration_tests::fake_model::{Script, Step};
use hookgate_proto::v1::{EventKind, HookEvent};

use crate::scenario::{Gated, Marker, only_on};
use crate::support::{of_kind, run};

/// Every event a plain headless run fires, `PostToolBatch` included.
const ALL_HOOKS: [&str; 7] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolBatch",
    "Stop",
    "SessionEnd",
];

fn claude(which: ClaudeCode) -> AgentRun {
    run(Dialect::ClaudeCode)
        .claude_code(which)
        .hooks(&ALL_HOOKS)
}

/// Does the event's own payload mention `needle`?
fn mentions(event: &HookEvent, needle: &str) -> bool {
    event.raw_json.contains(needle)
}

fn model_calls(outcome: &AgentOutcome) -> usize {
    outcome.model_calls().len()
}

/// Case 1: a natural policy — deny every event that mentions the command —
/// also denies `PostToolBatch`, which lists the denied call. The loop must
/// go on and the model must read why.
async fn deny_everything_mentioning_the_command(which: ClaudeCode) {
    const REASON: &str = "HG-DENY-MENTIONS: that command is not allowed";
    let run = claude(which);
    let marker = Marker::in_work(&run, "mention-marker");
    let command = marker.touch();
    let needle = command.clone();
    let gated = Gated::deciding(move |event| {
        if mentions(event, &needle) {
            decisions::deny(REASON)
        } else {
            decisions::neutral()
        }
    })
    .await;

    let outcome = gated.shell_then_text(run, &command, "Understood.").await;

    marker.assert_not_ran(&outcome, "the denied command ran");
    let batch = (gated.policy)
        .events()
        .into_iter()
        .filter(|e| e.native_event == "PostToolBatch")
        .count();
    assert_eq!(
        batch, 1,
        "PostToolBatch fired and was denied too\n{outcome}"
    );
    assert_eq!(
        model_calls(&outcome),
        2,
        "the loop must go on after the deny\n{outcome}"
    );
    assert!(
        outcome.model_calls()[1].mentions(REASON),
        "the model's next request carries the deny reason\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denying_every_event_mentioning_a_command_keeps_the_loop_running_oldest() {
    deny_everything_mentioning_the_command(ClaudeCode::Oldest).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denying_every_event_mentioning_a_command_keeps_the_loop_running_newest() {
    deny_everything_mentioning_the_command(ClaudeCode::Newest).await;
}

/// Case 2: a subscriber adding a note to every event, `Stop` included,
/// must not make Claude keep working: one tool turn, one final turn.
async fn a_note_on_every_event(which: ClaudeCode) {
    const NOTE: &str = "HG-NOTE-ON-EVERY-EVENT";
    let run = claude(which);
    let marker = Marker::in_work(&run, "note-marker");
    let command = marker.touch();
    let gated = Gated::deciding(|_| decisions::context(NOTE)).await;

    let outcome = gated.shell_then_text(run, &command, "Done.").await;

    marker.assert_ran(&outcome, "a note must not block anything");
    let events = gated.policy.events();
    let stops = of_kind(&events, EventKind::Stop).len();
    assert_eq!(
        (model_calls(&outcome), stops),
        (2, 1),
        "context on Stop is no continuation\n{outcome}"
    );
    assert!(
        outcome.model_calls()[1].mentions(NOTE),
        "the note still reaches the model\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_on_stop_does_not_make_claude_continue_oldest() {
    a_note_on_every_event(ClaudeCode::Oldest).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_on_stop_does_not_make_claude_continue_newest() {
    a_note_on_every_event(ClaudeCode::Newest).await;
}

/// Case 4: `/mk` runs `` !`echo skill > skillmarker.txt` `` inline. On
/// 2.1.332 that is a `PreSkillShellCommand`: a pre_tool_use shell call that
/// the built-in guard (one rule on `skillmarker`) blocks. The subscriber is
/// neutral, so the block is the guard's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skill_shell_command_is_blocked_by_the_guard_newest() {
    let run = claude(ClaudeCode::Newest)
        .hooks(&["UserPromptSubmit", "PreSkillShellCommand", "PreToolUse", "Stop"])
        .work_file(
            ".claude/commands/mk.md",
            "---\ndescription: make a marker\n---\nContext: !`echo skill > skillmarker.txt`\n\nSay done.\n",
        );
    let marker = Marker::in_work(&run, "skillmarker.txt");
    let guard = "\n[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\nevents = [\"pre_tool_use\"]\n\
                 [[subscriber.rules]]\nshell = 'skillmarker'\nreason = \"HG-GUARD-SKILL\"\n";
    let gated = Gated::deciding_with(|_| decisions::neutral(), guard).await;

    let outcome = run
        .socket(gated.socket())
        .prompt("/mk")
        .script(Script {
            turns: vec![Step::Text {
                text: "Done.".to_owned(),
            }],
            side_text: "ok".to_owned(),
        })
        .run()
        .await;

    marker.assert_not_ran(&outcome, "the guard must block the skill's shell command");
    let skill = (gated.policy)
        .events()
        .into_iter()
        .find(|e| e.native_event == "PreSkillShellCommand")
        .unwrap_or_else(|| panic!("no PreSkillShellCommand event\n{outcome}"));
    assert_eq!(skill.kind(), EventKind::PreToolUse, "{skill:?}");
    assert!(
        outcome
            .model_calls()
            .first()
            .is_some_and(|call| call.mentions("HG-GUARD-SKILL")),
        "the model reads why the command did not run\n{outcome}"
    );
}

/// Case 5: a deny whose rewrite is not a JSON object still denies, even
/// with `on_error = "allow"` (the default).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_rewrite_does_not_cancel_the_deny() {
    let run = claude(ClaudeCode::Oldest);
    let marker = Marker::in_work(&run, "bad-rewrite-marker");
    let command = marker.touch();
    let deny = decisions::deny_with_bad_rewrite("HG-BAD-REWRITE-DENY");
    let gated = Gated::deciding(only_on(EventKind::PreToolUse, deny)).await;

    let outcome = gated.shell_then_text(run, &command, "Understood.").await;

    marker.assert_not_ran(&outcome, "the deny must survive its bad rewrite");
    assert!(
        outcome.model_calls()[1].mentions("HG-BAD-REWRITE-DENY"),
        "{outcome}"
    );
}
