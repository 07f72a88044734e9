//! `gateway install`, then the real agent with the config install wrote:
//! no gateway started by the test (the shim's autostart starts it), the
//! agent launched with a minimal PATH and no `XDG_RUNTIME_DIR` — the
//! situations that left users silently unprotected before (issue 15).
//! Nothing the agent needs besides is given by the harness: Gemini CLI
//! gets no `hooksConfig` (hooks run by default) and settings with a
//! comment, Codex no `--dangerously-bypass-hook-trust` (install trusted
//! hookgate's hooks through the real `codex`).

use std::path::Path;
use std::process::Command;

use hookgate_adapters::Dialect;
use hookgate_integration_tests::agents::install::CODEX;
use hookgate_integration_tests::agents::{AgentOutcome, AgentRun, ClaudeCode, npm_cli};
use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::fake_model::Script;

use crate::support::{quoted, run};

/// What an agent gets as PATH: neither the shim nor the gateway is on it.
const MINIMAL_PATH: &str = "/usr/bin:/bin";

/// Runs `gateway install --agent <agent>` for the user whose HOME is
/// `home`, in an environment without XDG_RUNTIME_DIR.
pub(crate) fn install(home: &Path, agent: &str) {
    install_in(home, agent, &[]);
}

/// [`install`] with more arguments, run in the run's work directory (the
/// project, for `--scope project`).
fn install_in(home: &Path, agent: &str, more: &[&str]) {
    install_with(home, agent, more, MINIMAL_PATH);
}

/// PATH with the real `codex` on it, as for a user who has it installed.
pub(crate) fn path_with_codex() -> String {
    let codex = npm_cli(&CODEX);
    let dir = codex.parent().expect("codex's bin directory");
    format!("{}:{MINIMAL_PATH}", dir.display())
}

/// [`install_in`] with `path` as PATH.
pub(crate) fn install_with(home: &Path, agent: &str, more: &[&str], path: &str) {
    let bins = binaries();
    let work = home
        .parent()
        .expect("HOME is in the run directory")
        .join("work");
    let output = Command::new(&bins.gateway)
        .args(["install", "--agent", agent, "--shim"])
        .arg(&bins.shim)
        .args(more)
        .current_dir(work)
        .env_clear()
        .env("HOME", home)
        .env("PATH", path)
        .output()
        .expect("run gateway install");
    assert!(
        output.status.success(),
        "gateway install failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The agent, set up by `gateway install`, asked to run `command`: the
/// guard of the gateway its shim started refuses it (`not_made` is not
/// made), the model reads `reason`, and the gateway ran where the hooks
/// pinned it. Returns the run and that gateway's audit log.
async fn installed_agent_refuses(
    run: AgentRun,
    command: &str,
    not_made: &Path,
    reason: &str,
) -> (AgentOutcome, String) {
    let home = run.home().to_path_buf();
    let outcome = run
        .env("PATH", MINIMAL_PATH)
        .script(Script::shell_then_text(command, "Understood."))
        .run()
        .await;

    assert!(!not_made.exists(), "the guarded command ran\n{outcome}");
    let calls = outcome.model_calls();
    assert!(
        calls.len() >= 2,
        "no request after the tool call\n{outcome}"
    );
    assert!(
        calls[1].mentions(reason),
        "the model must read the guard's reason\n{outcome}"
    );
    // The gateway that answered was started by the shim, in the state
    // directory the hooks pinned (the agent had no XDG_RUNTIME_DIR).
    let state = home.join(".local/state/hookgate");
    assert!(state.join("gateway.log").exists(), "{outcome}");
    let audit = std::fs::read_to_string(state.join("audit.jsonl")).unwrap_or_default();
    (outcome, audit)
}

/// The agent, set up by `gateway install`, asked to copy a secrets file:
/// the guard of the gateway its shim started denies it, and audits it.
async fn installed_agent_is_guarded(run: AgentRun) {
    std::fs::write(run.work().join(".env"), "TOKEN=hg-installed-secret\n").expect("write .env");
    let copy = run.work().join("secret-copy");
    let command = format!("cat .env > {}", quoted(&copy));
    let (outcome, audit) =
        installed_agent_refuses(run, &command, &copy, "reading a secrets file").await;
    assert!(audit.contains("secret-copy"), "audit: {audit}\n{outcome}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_claude_code_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::ClaudeCode).installed_hooks(|home| install(home, "claude-code"));
    installed_agent_is_guarded(run).await;
}

/// The newest pinned Claude Code reads the same installed settings,
/// including the events only it has (PreSkillShellCommand, ...).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_newest_claude_code_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::ClaudeCode)
        .claude_code(ClaudeCode::Newest)
        .installed_hooks(|home| install(home, "claude-code"));
    installed_agent_is_guarded(run).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_qwen_code_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::QwenCode).installed_hooks(|home| install(home, "qwen-code"));
    installed_agent_is_guarded(run).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_droid_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::Droid).installed_hooks(|home| install(home, "droid"));
    installed_agent_is_guarded(run).await;
}

/// User scope: `~/Documents/Cline/Hooks/`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_cline_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::ClineSdk).installed_hooks(|home| install(home, "cline"));
    installed_agent_is_guarded(run).await;
}

/// Project scope: `.clinerules/hooks/` in the working directory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_project_installed_cline_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::ClineSdk)
        .installed_hooks(|home| install_in(home, "cline", &["--scope", "project"]));
    installed_agent_is_guarded(run).await;
}

/// `~/.gemini/settings.json`, merged into the run's own settings (auth,
/// telemetry off) by install; they start with a comment, which Gemini
/// reads and install keeps. No `hooksConfig.enabled`: hooks are on by
/// default (0.61.0), and install does not write it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_gemini_cli_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::GeminiCli).installed_hooks(|home| {
        let settings = home.join(".gemini/settings.json");
        let text = std::fs::read_to_string(&settings).expect("the run's settings");
        std::fs::write(&settings, format!("// the harness's settings\n{text}"))
            .expect("write the settings");
        install(home, "gemini");
        let installed = std::fs::read_to_string(&settings).expect("the installed settings");
        assert!(
            installed.starts_with("// the harness's settings\n")
                && !installed.contains("hooksConfig"),
            "{installed}"
        );
    });
    installed_agent_is_guarded(run).await;
}

/// `~/.codex/hooks.json`, and the `hooks` feature install turns on in the
/// run's `config.toml` (written with `hooks = false`): without it Codex
/// would read no hooks at all. Run without `--dangerously-bypass-hook-trust`:
/// Codex runs the hooks because install trusted them through the real
/// `codex` on its PATH.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_codex_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::Codex)
        .installed_hooks(|home| install_with(home, "codex", &[], &path_with_codex()));
    installed_agent_is_guarded(run).await;
}

/// `~/.copilot/hooks/hookgate.json` in the camelCase dialect: every
/// command names its event for the shim.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_copilot_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::CopilotCamel).installed_hooks(|home| install(home, "copilot"));
    installed_agent_is_guarded(run).await;
}

/// `~/.config/opencode/plugin/hookgate.js`: hookgate's plugin, next to the
/// run's own OpenCode config.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_opencode_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::OpenCode).installed_hooks(|home| install(home, "opencode"));
    installed_agent_is_guarded(run).await;
}

/// `~/.hermes/config.yaml`'s marked `hooks:` block, appended to the run's
/// own config (the fake model as provider), and consent for each of its
/// hooks in `~/.hermes/shell-hooks-allowlist.json`: without it Hermes
/// would skip every hook of a non-interactive run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_hermes_is_guarded_by_an_autostarted_gateway() {
    let run = run(Dialect::Hermes).installed_hooks(|home| install(home, "hermes"));
    installed_agent_is_guarded(run).await;
}

/// The installed Hermes asked for a force push: the built-in guard of the
/// gateway its shim started stops it, the model reads why, and every event
/// that gateway audited is Hermes'.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_installed_hermes_cannot_force_push() {
    let run = run(Dialect::Hermes).installed_hooks(|home| install(home, "hermes"));
    let marker = run.work().join("pushed-marker");
    let command = format!("git push --force origin main; touch {}", quoted(&marker));
    let (outcome, audit) = installed_agent_refuses(run, &command, &marker, "force push").await;
    let records: Vec<serde_json::Value> = audit
        .lines()
        .map(|line| serde_json::from_str(line).expect("an audit record is JSON"))
        .collect();
    assert!(
        records.iter().any(|r| r["kind"] == "pre_tool_use"),
        "the force push was not audited: {audit}\n{outcome}"
    );
    for record in &records {
        assert_eq!(record["agent"], "hermes", "audit: {audit}\n{outcome}");
    }
}
