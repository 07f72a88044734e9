//! Hermes Agent's side of a run (0.19.0 from PyPI, observed in
//! docs/agents.md): `~/.hermes/config.yaml` with the `custom` provider
//! pointed at the fake model's OpenAI-compatible route and a `hooks:`
//! block running `gateway-shim` — no agent argument — for each event, the
//! consent Hermes asks for each `(event, command)` pair recorded in
//! `~/.hermes/shell-hooks-allowlist.json` as `gateway install` records it
//! (never `hooks_auto_accept`), and `hermes chat -Q -q PROMPT`.
//!
//! Hermes runs a hook command without a shell (`shlex` split): the shim's
//! single-quoted path is one word. The gateway socket and the shim's
//! other settings reach it through the environment Hermes passes on.

use std::path::Path;

use serde_json::{Value, json};

use super::setup::{Launch, Setup, shell_word};

/// The events a Hermes run hooks by default: every event of a `-q` run
/// but `post_llm_call` (which carries the whole conversation, and which
/// `gateway install` leaves out too).
pub(crate) const DEFAULT_HOOKS: [&str; 6] = [
    "on_session_start",
    "pre_llm_call",
    "pre_tool_call",
    "post_tool_call",
    "on_session_end",
    "on_session_finalize",
];

/// Hermes' hook timeout is in seconds (what `gateway install` writes).
const HOOK_TIMEOUT_SECS: u64 = 30;

/// What keeps a run from reaching out by its settings (and from changing
/// the cached venv): Hermes `pip install`s a missing optional package at
/// run time (`edge-tts` for its TTS tool, ~10 s offline) and downloads its
/// `tirith` command scanner unless told not to; a given context length
/// spares the model-metadata probes.
const OFFLINE: &str = "security:\n  allow_lazy_installs: false\n  tirith_enabled: false\n";

/// Writes `~/.hermes/config.yaml` (and the allowlist, when any hook is
/// asked) and returns how to start a one-prompt Hermes run.
pub(crate) fn prepare(program: &Path, setup: &Setup<'_>) -> std::io::Result<Launch> {
    let command = shell_word(setup.shim);
    let config = config_yaml(&setup.model_url("/v1"), setup.hooks, &command);
    setup.write_home(".hermes/config.yaml", &config)?;
    if !setup.hooks.is_empty() {
        setup.write_home(
            ".hermes/shell-hooks-allowlist.json",
            &allowlist(setup.hooks, &command).to_string(),
        )?;
    }
    let env = [
        (
            "HERMES_HOME",
            setup.paths.home.join(".hermes").display().to_string(),
        ),
        // Plain output in the run's logs.
        ("NO_COLOR", "1".to_owned()),
    ];
    Ok(Launch::new(
        program,
        &["chat", "-Q", "-q", setup.prompt],
        &env,
    ))
}

/// The fake model as the `custom` provider, and a `hooks:` block running
/// `command` for each of `hooks` (none: the config `gateway install`
/// merges into, with no `hooks:` key).
pub(crate) fn config_yaml(base_url: &str, hooks: &[String], command: &str) -> String {
    // A JSON string is a YAML double-quoted scalar.
    let quote = |text: &str| Value::String(text.to_owned()).to_string();
    let mut out = format!(
        "model:\n  provider: custom\n  base_url: {}\n  default: {}\n  api_key: hookgate-test-key\n  context_length: 128000\n{OFFLINE}",
        quote(base_url),
        quote(crate::fake_model::MODEL)
    );
    if !hooks.is_empty() {
        out.push_str("hooks:\n");
        for event in hooks {
            out.push_str(&format!(
                "  {event}:\n    - command: {}\n      timeout: {HOOK_TIMEOUT_SECS}\n",
                quote(command)
            ));
        }
    }
    out
}

/// Hermes' consent for each `(event, command)` pair, as `gateway install`
/// records it.
fn allowlist(hooks: &[String], command: &str) -> Value {
    let approvals: Vec<Value> = hooks
        .iter()
        .map(|event| {
            json!({
                "event": event,
                "command": command,
                "approved_at": "2026-01-01T00:00:00Z",
                "script_mtime_at_approval": null,
            })
        })
        .collect();
    json!({"approvals": approvals})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_hook_runs_the_shim_and_is_approved() {
        let hooks = ["pre_tool_call".to_owned()];
        let config = config_yaml("http://127.0.0.1:9/v1", &hooks, "'/opt/gateway-shim'");
        assert!(config.contains("  pre_tool_call:\n    - command: \"'/opt/gateway-shim'\"\n"));
        assert!(config.contains("base_url: \"http://127.0.0.1:9/v1\""));
        let list = allowlist(&hooks, "'/opt/gateway-shim'");
        assert_eq!(list["approvals"][0]["event"], "pre_tool_call");
        assert_eq!(list["approvals"][0]["command"], "'/opt/gateway-shim'");
        assert!(!config_yaml("u", &[], "c").contains("hooks:"));
    }
}
