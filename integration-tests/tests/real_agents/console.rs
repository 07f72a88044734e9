//! The console's approvals inbox against the real Claude Code and Gemini
//! CLI, clicked in a real headless Chromium: a scripted `touch` the
//! `approval` built-in holds shows in the inbox; Approve lets the command
//! run (the mark file is written), Deny with a reason stops it (no mark)
//! and the model's next request carries the reason as the tool's result.

use std::path::Path;
use std::time::Duration;

use hookgate_adapters::Dialect;
use hookgate_integration_tests::TestGateway;
use hookgate_integration_tests::agents::AgentOutcome;
use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::browser::Browser;
use hookgate_integration_tests::fake_model::{RecordedRequest, Script};
use tokio::task::JoinHandle;

use crate::flows::{ToolTexts, anthropic_tool_texts, final_turn_tool_texts};
use crate::support::{quoted, run};

/// The agent CLI may be installed first (a minute or more).
const HELD_WITHIN: Duration = Duration::from_secs(400);

/// A gateway with the console and an `approval` holding every `touch`.
async fn gateway() -> TestGateway {
    let config = r#"
[ui]
listen = "127.0.0.1:0"

[[subscriber]]
name = "hold"
builtin = "approval"
hold_ms = 120000

[[subscriber.rules]]
id = "touch"
shell = "^touch "
reason = "touching files needs a person"
"#;
    TestGateway::start_in(hookgate_integration_tests::private_dir(), config, &[]).await
}

/// A browser logged in to `gateway`'s console, on its inbox.
async fn inbox(gateway: &TestGateway) -> Browser {
    let out = tokio::process::Command::new(&binaries().gateway)
        .arg("ui")
        .arg("--socket")
        .arg(gateway.socket())
        .output()
        .await
        .expect("run gateway ui");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let url = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let browser = Browser::start().await;
    browser.goto(&url).await;
    let tab = browser
        .wait_for("nav button[data-tab=inbox]", Duration::from_secs(10))
        .await;
    browser.click(&tab).await;
    browser
}

/// `agent` running the scripted `touch MARK`, its hooks taking holds.
fn touch(gateway: &TestGateway, agent: Dialect, mark: &Path) -> JoinHandle<AgentOutcome> {
    let command = format!("touch {}", quoted(mark));
    let run = run(agent)
        .socket(gateway.socket())
        .env("HOOKGATE_HOLD_MAX_MS", "120000")
        .script(Script::shell_then_text(&command, "Understood."));
    tokio::spawn(run.run())
}

/// Holds `agent`'s `touch`, clicks Approve in the inbox: the command runs.
async fn approving_lets_the_command_run(agent: Dialect) {
    let gateway = gateway().await;
    let browser = inbox(&gateway).await;
    let dir = tempfile::tempdir().expect("a directory for the mark");
    let mark = dir.path().join("approved-mark");
    let run = touch(&gateway, agent, &mark);

    let approve = browser
        .wait_for("#held .card button.approve", HELD_WITHIN)
        .await;
    assert!(!mark.exists(), "the command ran before it was approved");
    browser.click(&approve).await;
    let outcome = run.await.expect("the agent run");
    assert!(
        mark.exists(),
        "approved, but the command did not run\n{outcome}"
    );
}

/// Holds `agent`'s `touch`, denies it with a reason in the inbox: the
/// command does not run and the model's next request carries the reason.
async fn denying_stops_the_command_and_the_model_reads_why(agent: Dialect, texts: ToolTexts) {
    let gateway = gateway().await;
    let browser = inbox(&gateway).await;
    let dir = tempfile::tempdir().expect("a directory for the mark");
    let mark = dir.path().join("denied-mark");
    let run = touch(&gateway, agent, &mark);

    let reason = browser
        .wait_for("#held .card input.deny-reason", HELD_WITHIN)
        .await;
    browser.type_into(&reason, "not without a ticket").await;
    let deny = browser
        .wait_for("#held .card button.deny", Duration::from_secs(10))
        .await;
    browser.click(&deny).await;
    let outcome = run.await.expect("the agent run");
    assert!(!mark.exists(), "denied, but the command ran\n{outcome}");
    let results = final_turn_tool_texts(&outcome, texts);
    assert!(
        results.iter().any(|r| r.contains("not without a ticket")),
        "the model did not read the reason: {results:?}\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approving_in_the_console_lets_claude_codes_command_run() {
    approving_lets_the_command_run(Dialect::ClaudeCode).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denying_in_the_console_stops_claude_codes_command_and_the_model_reads_why() {
    denying_stops_the_command_and_the_model_reads_why(Dialect::ClaudeCode, anthropic_tool_texts)
        .await;
}

/// Gemini CLI's hook timeout (30 s in the harness) outlasts the click.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approving_in_the_console_lets_gemini_clis_command_run() {
    approving_lets_the_command_run(Dialect::GeminiCli).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn denying_in_the_console_stops_gemini_clis_command_and_the_model_reads_why() {
    denying_stops_the_command_and_the_model_reads_why(
        Dialect::GeminiCli,
        RecordedRequest::gemini_function_responses,
    )
    .await;
}
