//! The first hour with the real agents (issues 27 §1–3 and 25 §4): each
//! test does what a new user does — `gateway install`, `gateway doctor`,
//! the agent — with the config install wrote and no gateway started by
//! the test, and asserts what the agent did (the secret copied or not,
//! what the model read next) and what doctor said about it.

use std::path::{Path, PathBuf};
use std::process::Command;

use hookgate_adapters::Dialect;
use hookgate_integration_tests::Autostarted;
use hookgate_integration_tests::agents::{AgentOutcome, AgentRun, ClaudeCode};
use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::fake_model::Script;

use crate::installed::{install_with, path_with_codex};
use crate::support::{quoted, run};

/// What an agent (and a user's shell here) gets as PATH.
const MINIMAL_PATH: &str = "/usr/bin:/bin";

/// The socket install pins for a HOME without XDG_RUNTIME_DIR.
fn socket(home: &Path) -> PathBuf {
    home.join(".local/state/hookgate/gateway.sock")
}

/// `gateway doctor` as the user, in the project (the run's work
/// directory): (exit code, stdout).
fn doctor(home: &Path, path: &str) -> (Option<i32>, String) {
    let work = home
        .parent()
        .expect("HOME is in the run directory")
        .join("work");
    let out = Command::new(&binaries().gateway)
        .arg("doctor")
        .current_dir(work)
        .env_clear()
        .env("HOME", home)
        .env("PATH", path)
        .output()
        .expect("run gateway doctor");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Stops the gateway a doctor run started for `home` (outside the agent's
/// namespace, it would outlive the test).
fn stop_gateway(home: &Path) {
    drop(Autostarted::on(&socket(home)));
}

/// Runs the agent (minimal PATH) asked to copy the run's `.env` with a
/// secret in it: its HOME, where the copy goes, and what happened.
async fn copy_the_secret(run: AgentRun) -> (PathBuf, PathBuf, AgentOutcome) {
    std::fs::write(run.work().join(".env"), "TOKEN=hg-first-hour-secret\n").expect("write .env");
    let home = run.home().to_path_buf();
    let copy = run.work().join("secret-copy");
    let command = format!("cat .env > {}", quoted(&copy));
    let outcome = run
        .env("PATH", MINIMAL_PATH)
        .script(Script::shell_then_text(&command, "Understood."))
        .run()
        .await;
    (home, copy, outcome)
}

/// The README's quick start, literally: `gateway install --all`, then
/// `gateway doctor`, which must pass (it starts the gateway through the
/// installed hook, as the first hook call would); then the agent is
/// guarded by that gateway.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_quick_start_followed_literally_ends_protected() {
    let run = run(Dialect::ClaudeCode).installed_hooks(|home| {
        install_with(home, "claude-code", &[], MINIMAL_PATH);
        let (code, out) = doctor(home, MINIMAL_PATH);
        assert_eq!(code, Some(0), "doctor right after install:\n{out}");
        assert!(
            out.contains("ok       gateway started by autostart (pid ")
                && out.ends_with("hookgate doctor: protected\n"),
            "{out}"
        );
    });
    let (home, copy, outcome) = copy_the_secret(run).await;
    stop_gateway(&home);
    assert!(!copy.exists(), "the guarded command ran\n{outcome}");
    let calls = outcome.model_calls();
    assert!(
        calls.len() >= 2 && calls[1].mentions("reading a secrets file"),
        "the model must read the guard's reason\n{outcome}"
    );
}

/// Codex skips hooks nobody trusted, silently (`codex exec`): installed
/// with `--no-trust`, the secret is copied; doctor, asking the real
/// `codex`, exits 64 and names the fix. After `gateway install` with
/// `codex` on PATH (which trusts them), doctor passes, and Codex has
/// nothing to warn about in what install wrote (issue 27 §7: it clamps a
/// SessionEnd timeout over 3 s, and says so on every run, as doctor shows
/// once the file asks for 30).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn untrusted_codex_hooks_let_the_secret_out_and_doctor_says_so() {
    let run = run(Dialect::Codex)
        .installed_hooks(|home| install_with(home, "codex", &["--no-trust"], &path_with_codex()));
    let (home, copy, outcome) = copy_the_secret(run).await;
    assert!(
        copy.exists(),
        "Codex ran hooks nobody trusted? the gap this test shows is gone\n{outcome}"
    );
    let (code, out) = doctor(&home, &path_with_codex());
    stop_gateway(&home);
    assert_eq!(code, Some(64), "{out}");
    assert!(
        out.contains("of hookgate's 12 hooks are not trusted in Codex")
            && out.contains("`codex exec` skips them silently")
            && out.contains("fix: gateway install --agent codex"),
        "{out}"
    );

    install_with(&home, "codex", &[], &path_with_codex());
    let (code, out) = doctor(&home, &path_with_codex());
    stop_gateway(&home);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("Codex trusts and runs hookgate's 12 hooks") && !out.contains("Codex warns"),
        "{out}"
    );

    let hooks = home.join(".codex/hooks.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&hooks).expect("hooks.json")).expect("JSON");
    let handler = &mut doc["hooks"]["SessionEnd"][0]["hooks"][0];
    assert_eq!(handler["timeout"], 3, "{handler}");
    handler["timeout"] = 30.into();
    std::fs::write(&hooks, doc.to_string()).expect("write hooks.json");
    let (_, out) = doctor(&home, &path_with_codex());
    stop_gateway(&home);
    assert!(
        out.contains("note     codex: Codex warns about hookgate's hooks on every run: clamping SessionEnd hook timeout to 3s"),
        "{out}"
    );
}

/// A broken autostart (an invalid gateway config), fail-closed: Claude
/// Code refuses the prompt itself (UserPromptSubmit is guarded) and shows
/// the user why, so no model call and no tool call happen; the reason is
/// recorded where status and doctor find it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_autostart_blocks_with_its_reason() {
    let run = run(Dialect::ClaudeCode).installed_hooks(|home| {
        install_with(home, "claude-code", &["--fail-closed"], MINIMAL_PATH);
        let config = home.join(".config/hookgate/gateway.toml");
        std::fs::create_dir_all(config.parent().expect("a directory")).expect("mkdir");
        std::fs::write(&config, "[server]\nqueue_wait_ms = \"soon\"\n").expect("write config");
    });
    let (home, copy, outcome) = copy_the_secret(run).await;
    assert!(!copy.exists(), "fail-closed let it run\n{outcome}");
    assert!(
        outcome.model_calls().is_empty(),
        "the prompt went to the model\n{outcome}"
    );
    let config = home.join(".config/hookgate/gateway.toml");
    assert!(
        outcome
            .stdout()
            .contains("UserPromptSubmit operation blocked by hook")
            && outcome.stdout().contains(&format!(
                "the hook gateway could not be started (fail-closed): invalid config at {}:2:",
                config.display()
            )),
        "the user must read why\n{outcome}"
    );
    let socket = socket(&home);
    let record = std::fs::read_to_string(socket.with_extension("sock.start-failed"))
        .expect("the start-failure record");
    assert!(
        record.contains(&format!("invalid config at {}:2:", config.display())),
        "{record}"
    );
    let fallbacks = std::fs::read_to_string(socket.with_extension("sock.fallbacks"))
        .expect("the fallback record");
    assert!(
        fallbacks
            .lines()
            .any(|l| l.ends_with(" autostart_failed closed")),
        "{fallbacks}"
    );
}

/// 25 §4: `disableAllHooks` in the project's `.claude/settings.json`:
/// both pinned Claude Code versions run `cat .env` past hookgate, and
/// doctor (which used to read only the user file) says PROBLEM.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disable_all_hooks_in_the_project_is_a_doctor_problem() {
    disable_all_hooks(ClaudeCode::Oldest).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disable_all_hooks_in_the_project_is_a_doctor_problem_in_the_newest_claude_code() {
    disable_all_hooks(ClaudeCode::Newest).await;
}

async fn disable_all_hooks(which: ClaudeCode) {
    let run = run(Dialect::ClaudeCode)
        .claude_code(which)
        .work_file(".claude/settings.json", "{\"disableAllHooks\": true}\n")
        .installed_hooks(|home| install_with(home, "claude-code", &[], MINIMAL_PATH));
    let (home, copy, outcome) = copy_the_secret(run).await;
    assert!(
        copy.exists(),
        "Claude Code honoured hooks under disableAllHooks? the gap is gone\n{outcome}"
    );
    let (code, out) = doctor(&home, MINIMAL_PATH);
    stop_gateway(&home);
    assert_eq!(code, Some(64), "{out}");
    let project = home
        .parent()
        .expect("the run directory")
        .join("work/.claude/settings.json");
    assert!(
        out.contains(&format!(
            "PROBLEM  claude-code: `disableAllHooks: true` in its project settings {} turns every hook off",
            project.display()
        )),
        "{out}"
    );
}
