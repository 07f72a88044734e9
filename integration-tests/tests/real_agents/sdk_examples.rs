//! The README's Python and JavaScript subscribers ("Write a subscriber", as
//! written, on the SDKs installed as users install them) behind a real
//! gateway, under the real Claude Code CLI: the model asks for a command
//! that runs `terraform destroy`; the command does not run (its marker file
//! is never written) and the model reads the example's reason as the
//! tool's result; the example's session-start context reaches the model.

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use hookgate_adapters::Dialect;
use hookgate_integration_tests::sdk;
use hookgate_integration_tests::{SubscriberEntry, TestGateway, config_toml, private_dir};

use crate::flows::{anthropic_tool_texts, final_turn_tool_texts};
use crate::scenario::Marker;
use crate::support::run;

/// A running example, killed on drop.
struct Example(Child);

impl Drop for Example {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `command` (an example in `dir`) and waits for its `policy.sock`.
async fn start(mut command: Command, dir: &Path) -> Example {
    let mut example = Example(command.spawn().expect("start the example"));
    let socket = dir.join("policy.sock");
    let until = Instant::now() + Duration::from_secs(30);
    while std::os::unix::net::UnixStream::connect(&socket).is_err() {
        assert!(
            example
                .0
                .try_wait()
                .expect("the example's status")
                .is_none(),
            "the example exited before listening"
        );
        assert!(Instant::now() < until, "the example did not listen");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    example
}

/// The example on `dir/policy.sock` decides for Claude Code.
async fn destroy_is_denied_and_the_model_reads_why(dir: &Path, greeting: &str) {
    let endpoint = format!("unix://{}", dir.join("policy.sock").display());
    let gateway = TestGateway::start(&config_toml(&[SubscriberEntry::decide(
        "policy", &endpoint,
    )]))
    .await;
    let run = run(Dialect::ClaudeCode);
    let marker = Marker::in_work(&run, "destroyed-marker");
    let command = format!("{} && terraform destroy -auto-approve", marker.touch());

    let outcome = run
        .socket(gateway.socket())
        .script(
            hookgate_integration_tests::fake_model::Script::shell_then_text(
                &command,
                "Understood.",
            ),
        )
        .run()
        .await;

    marker.assert_not_ran(&outcome, "the denied command ran");
    let results = final_turn_tool_texts(&outcome, anthropic_tool_texts);
    assert!(
        results.len() == 1 && results[0].contains("no terraform destroy"),
        "the model must read the example's reason as the tool's result: {results:?}\n{outcome}"
    );
    assert!(
        outcome.model_calls()[0].mentions(greeting),
        "the session-start context reaches the model\n{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_readme_example_under_claude_code() {
    let dir = private_dir();
    let _example = start(sdk::python_example_in(dir.path()), dir.path()).await;
    destroy_is_denied_and_the_model_reads_why(dir.path(), "hello from python").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_readme_example_under_claude_code() {
    let dir = private_dir();
    let _example = start(sdk::typescript_example_in(dir.path()), dir.path()).await;
    destroy_is_denied_and_the_model_reads_why(dir.path(), "hello from typescript").await;
}
