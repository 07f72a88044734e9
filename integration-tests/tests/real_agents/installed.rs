//! `gateway install`, then the real agent with the config install wrote:
//! no gateway started by the test (the shim's autostart starts it), the
//! agent launched with a minimal PATH and no `XDG_RUNTIME_DIR` — the
//! situations that left users silently unprotected before (issue 15).

use std::path::Path;
use std::process::Command;

use hookgate_integration_tests::agents::Agent;
use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::fake_model::Script;

use crate::support::{quoted, run};

/// What an agent gets as PATH: neither the shim nor the gateway is on it.
const MINIMAL_PATH: &str = "/usr/bin:/bin";

/// Runs `gateway install --agent <agent>` for the user whose HOME is
/// `home`, in an environment without XDG_RUNTIME_DIR.
fn install(home: &Path, agent: &str) {
    let bins = binaries();
    let output = Command::new(&bins.gateway)
        .args(["install", "--agent", agent, "--shim"])
        .arg(&bins.shim)
        .env_clear()
        .env("HOME", home)
        .env("PATH", MINIMAL_PATH)
        .output()
        .expect("run gateway install");
    assert!(
        output.status.success(),
        "gateway install failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_claude_code_is_guarded_by_an_autostarted_gateway() {
    let run = run(Agent::ClaudeCode).installed_hooks();
    let home = run.home().to_path_buf();
    install(&home, "claude-code");
    std::fs::write(run.work().join(".env"), "TOKEN=hg-installed-secret\n").unwrap();
    let copy = run.work().join("secret-copy");
    let command = format!("cat .env > {}", quoted(&copy));

    let outcome = run
        .env("PATH", MINIMAL_PATH)
        .script(Script::shell_then_text(&command, "Understood."))
        .run()
        .await;

    assert!(!copy.exists(), "the guarded command ran\n{outcome}");
    let calls = outcome.model_calls();
    assert_eq!(calls.len(), 2, "a tool turn and a final turn\n{outcome}");
    let results = calls[1].anthropic_tool_results();
    assert!(
        results.len() == 1
            && results[0].is_error
            && results[0].content.contains("reading a secrets file"),
        "the model must read the guard's reason: {results:?}\n{outcome}"
    );
    // The gateway that answered was started by the shim, in the state
    // directory the hooks pinned (the agent had no XDG_RUNTIME_DIR).
    let state = home.join(".local/state/hookgate");
    assert!(state.join("gateway.log").exists(), "{outcome}");
    let audit = std::fs::read_to_string(state.join("audit.jsonl")).unwrap_or_default();
    assert!(audit.contains("PreToolUse"), "audit: {audit}\n{outcome}");
}
