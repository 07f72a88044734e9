//! Approvals with real agents, set up by `gateway install` with an
//! `approval` in the config (so the held events' commands take holds and
//! the agent waits longer): Claude Code and Gemini CLI are held on a
//! matching shell call; the test, as the person, finds it with `gateway
//! approvals list --json` and approves it (the command runs) or denies it
//! with a reason (the command does not run, the model reads the reason);
//! nobody answering a short hold applies `on_timeout = "deny"`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::AgentRun;
use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::fake_model::Script;
use serde_json::Value;

use crate::installed::install;
use crate::support::{quoted, run};

/// The reason the person gives when denying.
const REASON: &str = "not-on-friday-7f3a";

/// The gateway config: an approval holding every `touch` for `hold_ms`,
/// then `on_timeout = "deny"` (the embedded guard and audit stay).
fn write_config(home: &Path, hold_ms: u64) {
    let dir = home.join(".config/hookgate");
    std::fs::create_dir_all(&dir).expect("the config directory");
    let config = format!(
        "[[subscriber]]\nname = \"ask\"\nbuiltin = \"approval\"\nhold_ms = {hold_ms}\n\
         on_timeout = \"deny\"\n\n[[subscriber.rules]]\nid = \"touch\"\n\
         shell = \"^touch \"\nreason = \"a person decides\"\n"
    );
    std::fs::write(dir.join("gateway.toml"), config).expect("write the config");
}

fn install_claude_held(home: &Path) {
    write_config(home, 90_000);
    install(home, "claude-code");
}

fn install_gemini_held(home: &Path) {
    write_config(home, 90_000);
    install(home, "gemini");
}

fn install_claude_briefly_held(home: &Path) {
    write_config(home, 2_000);
    install(home, "claude-code");
}

fn install_gemini_briefly_held(home: &Path) {
    write_config(home, 2_000);
    install(home, "gemini");
}

/// `gateway approvals ARGS` as the agent's user (HOME, no
/// XDG_RUNTIME_DIR: the socket the installed hooks pin).
fn approvals(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(&binaries().gateway)
        .arg("approvals")
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("run gateway approvals")
}

/// What the person does with the held call.
#[derive(Debug, Clone, Copy)]
enum Answer {
    Approve,
    Deny,
}

/// Polls `gateway approvals list --json` until a call is held, then
/// answers it; returns the held call (`None`: the agent's run ended, which
/// the harness bounds, and nothing was held).
fn answer_when_held(home: PathBuf, answer: Answer, ended: Arc<AtomicBool>) -> Option<Value> {
    while !ended.load(Ordering::Acquire) {
        let out = approvals(&home, &["list", "--json"]);
        let held: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if let Some(call) = held.into_iter().next() {
            let id = call["id"].to_string();
            let args: Vec<&str> = match answer {
                Answer::Approve => vec!["approve", &id, "--as", "ada"],
                Answer::Deny => vec!["deny", &id, "--reason", REASON, "--as", "ada"],
            };
            let out = approvals(&home, &args);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            return Some(call);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    None
}

/// The agent asked to `touch` a mark; the person answers `answer`.
async fn held_and_answered(run: AgentRun, agent: &str, answer: Answer) {
    let mark = run.work().join("held-mark");
    let command = format!("touch {}", quoted(&mark));
    let home = run.home().to_path_buf();
    let ended = Arc::new(AtomicBool::new(false));
    let person = {
        let ended = Arc::clone(&ended);
        tokio::task::spawn_blocking(move || answer_when_held(home, answer, ended))
    };
    let outcome = run
        .script(Script::shell_then_text(&command, "Understood."))
        .run()
        .await;
    ended.store(true, Ordering::Release);
    let held = person.await.expect("the person's task");
    let held = held.unwrap_or_else(|| panic!("the call was never held\n{outcome}"));
    assert_eq!(held["agent"], agent, "{held}");
    assert!(
        held["input"].as_str().is_some_and(|i| i.contains("touch")),
        "{held}"
    );
    match answer {
        Answer::Approve => assert!(mark.exists(), "the approved command did not run\n{outcome}"),
        Answer::Deny => {
            assert!(!mark.exists(), "the denied command ran\n{outcome}");
            let calls = outcome.model_calls();
            assert!(
                calls.len() >= 2 && calls[1].mentions(REASON),
                "the model must read the person's reason\n{outcome}"
            );
        }
    }
}

/// Nobody answers a 2 s hold: `on_timeout = "deny"` stops the command.
async fn nobody_answers(run: AgentRun) {
    let mark = run.work().join("held-mark");
    let command = format!("touch {}", quoted(&mark));
    let outcome = run
        .script(Script::shell_then_text(&command, "Understood."))
        .run()
        .await;
    assert!(!mark.exists(), "the unanswered command ran\n{outcome}");
    let calls = outcome.model_calls();
    assert!(
        calls.len() >= 2 && calls[1].mentions("nobody answered within"),
        "the model must read why\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_code_is_held_until_approved() {
    let run = run(Dialect::ClaudeCode).installed_hooks(install_claude_held);
    held_and_answered(run, "claude-code", Answer::Approve).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_code_is_held_and_denied_with_a_reason() {
    let run = run(Dialect::ClaudeCode).installed_hooks(install_claude_held);
    held_and_answered(run, "claude-code", Answer::Deny).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_code_held_by_nobody_gets_on_timeout() {
    let run = run(Dialect::ClaudeCode).installed_hooks(install_claude_briefly_held);
    nobody_answers(run).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gemini_cli_is_held_until_approved() {
    let run = run(Dialect::GeminiCli).installed_hooks(install_gemini_held);
    held_and_answered(run, "gemini-cli", Answer::Approve).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gemini_cli_is_held_and_denied_with_a_reason() {
    let run = run(Dialect::GeminiCli).installed_hooks(install_gemini_held);
    held_and_answered(run, "gemini-cli", Answer::Deny).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gemini_cli_held_by_nobody_gets_on_timeout() {
    let run = run(Dialect::GeminiCli).installed_hooks(install_gemini_briefly_held);
    nobody_answers(run).await;
}
