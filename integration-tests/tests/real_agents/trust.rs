//! Fail-closed means closed against what a model can make an agent send
//! (issue #11): the model puts a lone UTF-16 surrogate into a tool
//! argument, which Claude Code's `JSON.stringify` writes as `\ud800` into
//! the hook payload. serde_json alone rejects that payload, and hookgate
//! used to answer it neutrally, so `cat .env > leaked.txt` ran. With the
//! embedded default config the guard must see the command and deny it.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::ClaudeCode;
use hookgate_integration_tests::fake_model::{LONE_SURROGATE, Script};
use hookgate_integration_tests::{TestGateway, default_config, private_dir};

use crate::scenario::Marker;
use crate::support::run;

async fn a_lone_surrogate_does_not_get_past_the_guard(which: ClaudeCode) {
    let run = run(Dialect::ClaudeCode)
        .claude_code(which)
        .hooks(&["PreToolUse"])
        .work_file(".env", "API_TOKEN=hg-secret-that-must-stay\n");
    let leaked = Marker::in_work(&run, "leaked.txt");
    let command = format!("cat .env > leaked.txt # {LONE_SURROGATE}");
    let dir = private_dir();
    let config = default_config(&dir.path().join("audit.jsonl"));
    let gateway = TestGateway::start_in(dir, &config, &[]).await;

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Understood."))
        .run()
        .await;

    leaked.assert_not_ran(&outcome, "the guard must deny reading .env");
    let calls = outcome.model_calls();
    assert!(
        calls
            .get(1)
            .is_some_and(|call| call.mentions("reading a secrets file (.env)")),
        "the model reads the guard's reason next\n{outcome}"
    );
    let status = gateway.status_json().await;
    assert_eq!(status["parse_errors"], 0, "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_surrogate_does_not_get_past_the_guard_oldest() {
    a_lone_surrogate_does_not_get_past_the_guard(ClaudeCode::Oldest).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_surrogate_does_not_get_past_the_guard_newest() {
    a_lone_surrogate_does_not_get_past_the_guard(ClaudeCode::Newest).await;
}
