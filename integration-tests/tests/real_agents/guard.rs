//! The embedded default guard against the real Claude Code, in shapes the
//! guard used to let through (issue #24, finding 5): a `.env` read through
//! `xargs` fed by a pipe, and a recursive delete of the home directory
//! after `cd -P`. Both would only touch the run's own temporary work
//! directory and HOME if they ran; each test asserts they did not (the
//! secret not copied, the HOME's file still there, the secret never in a
//! model request) and that the model read the guard's reason as the tool's
//! result. Finding 2 too: a line built to keep the guard busy past the
//! shim's deadline (so fail-open would run it) is denied as too complex,
//! well within that deadline, and does not run.

use hookgate_adapters::Dialect;
use hookgate_integration_tests::TestGateway;
use hookgate_integration_tests::agents::AgentOutcome;
use hookgate_integration_tests::fake_model::Script;

use crate::flows::{anthropic_tool_texts, final_turn_tool_texts};
use crate::support::run;

/// The guard's reason, as the model read it for the one blocked call.
fn reason_read(outcome: &AgentOutcome) -> String {
    let results = final_turn_tool_texts(outcome, anthropic_tool_texts);
    assert_eq!(results.len(), 1, "one tool result: {results:?}\n{outcome}");
    results[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_env_read_through_xargs_is_denied_and_the_model_reads_why() {
    const SECRET: &str = "HG-FAKE-SECRET-7c1e";
    let gateway = TestGateway::start_embedded().await;
    let run = run(Dialect::ClaudeCode).work_file(".env", &format!("API_KEY={SECRET}\n"));
    let copy = run.work().join("leaked.txt");
    let command = "echo .env | xargs cat > leaked.txt";

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(command, "Understood."))
        .run()
        .await;

    assert!(!copy.exists(), "the .env was copied\n{outcome}");
    let reason = reason_read(&outcome);
    assert!(
        reason.contains("hookgate guard") && reason.contains("reading a secrets file"),
        "{reason}\n{outcome}"
    );
    for call in outcome.model_calls() {
        assert!(
            !call.body.to_string().contains(SECRET),
            "the secret reached the model\n{outcome}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recursive_delete_of_home_after_cd_is_denied_and_the_model_reads_why() {
    let gateway = TestGateway::start_embedded().await;
    let run = run(Dialect::ClaudeCode);
    let kept = run.home().join("hg-keep-me");
    std::fs::write(&kept, "still here").expect("write the HOME's marker");
    let command = "cd -P ~ && rm -rf ./*";

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(command, "Understood."))
        .run()
        .await;

    assert!(kept.exists(), "the HOME was emptied\n{outcome}");
    let reason = reason_read(&outcome);
    assert!(
        reason.contains("hookgate guard") && reason.contains("recursive delete"),
        "{reason}\n{outcome}"
    );
}

/// Many variables, each holding the one before twice, then nested
/// subshells each `eval`-ing all of them (the it test `guard_bounds`'s
/// shape), and at its end a command that leaves a mark if the line runs.
fn cubic_line_then_mark() -> String {
    let mut line = String::from("v0=xxxxxxxx; ");
    for i in 1..40 {
        line.push_str(&format!("v{i}=\"$v{}$v{}\"; ", i - 1, i - 1));
    }
    let all: String = (0..40).map(|i| format!("$v{i} ")).collect();
    for _ in 0..8 {
        line.push_str(&format!("( eval \"true {all}\"; "));
    }
    line.push_str(&")".repeat(8));
    line.push_str("; touch ran.txt");
    line
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_too_complex_to_check_is_denied_not_run_on_fail_open() {
    let gateway = TestGateway::start_embedded().await;
    let run = run(Dialect::ClaudeCode);
    let mark = run.work().join("ran.txt");
    let command = cubic_line_then_mark();

    let outcome = run
        .socket(gateway.socket())
        .script(Script::shell_then_text(&command, "Understood."))
        .run()
        .await;

    assert!(!mark.exists(), "the line ran\n{outcome}");
    let reason = reason_read(&outcome);
    assert!(
        reason.contains("hookgate guard") && reason.contains("too complex to check"),
        "{reason}\n{outcome}"
    );
}
