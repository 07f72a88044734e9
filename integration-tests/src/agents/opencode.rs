//! OpenCode's side of a run (1.18.33, observed in docs/agents.md):
//! `~/.config/opencode/opencode.json` with an `@ai-sdk/openai-compatible`
//! provider pointed at the fake model (title generation off, every tool
//! allowed), hookgate's plugin in `~/.config/opencode/plugin/` running
//! `gateway-shim` — no agent argument — and `opencode run`.
//!
//! OpenCode has no per-event hook config: the run's hook list becomes the
//! plugin's `EVENTS` (install leaves it `null`: every event).
//! Offline, OpenCode would try to `npm install @opencode-ai/plugin` into
//! its config directory at every start (a minute's stall, with or without
//! any plugin); the run leaves that directory as an online start leaves it
//! (a `node_modules` and a lock naming the package), so nothing is fetched.

use std::path::Path;

use serde_json::{Value, json};

use super::setup::{Launch, Setup, shell_word};

/// The plugin `gateway install` writes, with its command still to set.
const PLUGIN: &str = include_str!("../../../gateway/src/install/opencode/hookgate.js");
const COMMAND_LINE: &str = r#"const COMMAND = "@COMMAND_LINE@";"#;
const EVENTS_LINE: &str = "const EVENTS = null;";

/// The events a run hooks by default: every event the plugin forwards
/// (the plugin is written when any is asked).
pub(crate) const DEFAULT_HOOKS: [&str; 5] = [
    "session.created",
    "chat.message",
    "tool.execute.before",
    "tool.execute.after",
    "session.idle",
];

/// Writes OpenCode's config (and the plugin, when any hook is asked) and
/// returns how to start `opencode run`.
pub(crate) fn prepare(program: &Path, setup: &Setup<'_>) -> std::io::Result<Launch> {
    setup.write_home(
        ".config/opencode/opencode.json",
        &config_json(&setup.model_url("/v1")).to_string(),
    )?;
    setup.write_home(
        ".config/opencode/package-lock.json",
        r#"{"packages":{"":{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}}}"#,
    )?;
    std::fs::create_dir_all(setup.paths.home.join(".config/opencode/node_modules"))?;
    if !setup.hooks.is_empty() {
        setup.write_home(
            ".config/opencode/plugin/hookgate.js",
            &plugin(&shell_word(setup.shim), setup.hooks),
        )?;
    }
    let env = [
        ("OPENCODE_DISABLE_MODELS_FETCH", "1".to_owned()),
        ("OPENCODE_DISABLE_AUTOUPDATE", "1".to_owned()),
    ];
    Ok(Launch::new(program, &["run", setup.prompt], &env))
}

/// The plugin running `command` (a shell command line) for `events`.
pub(crate) fn plugin(command: &str, events: &[String]) -> String {
    let literal = Value::String(command.to_owned()).to_string();
    let events = Value::from(events.to_vec()).to_string();
    PLUGIN
        .replacen(COMMAND_LINE, &format!("const COMMAND = {literal};"), 1)
        .replacen(EVENTS_LINE, &format!("const EVENTS = {events};"), 1)
}

/// The fake model as the only provider and model, no title requests (they
/// would be extra model calls), every tool allowed without asking.
fn config_json(base_url: &str) -> Value {
    let model = crate::fake_model::MODEL;
    json!({
        "$schema": "https://opencode.ai/config.json",
        "autoupdate": false,
        "share": "disabled",
        "model": format!("fake/{model}"),
        "provider": {
            "fake": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "hookgate fake model",
                "options": {"baseURL": base_url, "apiKey": "hookgate-test-key"},
                "models": {model: {"name": model}},
            }
        },
        "agent": {"title": {"disable": true}},
        "permission": {"bash": "allow", "edit": "allow", "webfetch": "allow"},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_runs_the_shim_without_an_agent_argument() {
        let text = plugin("'/opt/gateway-shim'", &["chat.message".to_owned()]);
        assert!(text.contains(r#"const COMMAND = "'/opt/gateway-shim'";"#));
        assert!(text.contains(r#"const EVENTS = ["chat.message"];"#));
        assert!(!text.contains("@COMMAND_LINE@"));
    }
}
