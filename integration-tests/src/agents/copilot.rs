//! GitHub Copilot CLI's side of a run (1.0.102, observed in
//! docs/agents.md): a user hook file `~/.copilot/hooks/hookgate.json` in
//! either config dialect — PascalCase (`PreToolUse`: Claude-shaped
//! payloads; `gateway-shim` with no argument) or camelCase (`preToolUse`:
//! payloads that name no event; `gateway-shim copilot preToolUse`) — a
//! bring-your-own-key OpenAI provider pointed at the fake model, offline,
//! and `copilot -p` with every tool allowed.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::setup::{Launch, Setup, shell_word};

/// The events a PascalCase run hooks by default: every event of a `-p`
/// run, the same six as Claude Code's headless run.
pub(crate) const PASCAL_HOOKS: [&str; 6] = super::claude::DEFAULT_HOOKS;

/// The same events in the camelCase dialect.
pub(crate) const CAMEL_HOOKS: [&str; 6] = [
    "sessionStart",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "agentStop",
    "sessionEnd",
];

/// Copilot's hook timeout is in seconds.
const HOOK_TIMEOUT_SECS: u64 = 30;

/// Which config dialect a run uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Case {
    Pascal,
    Camel,
}

/// Writes `~/.copilot/hooks/hookgate.json`; returns how to start Copilot.
pub(crate) fn prepare(program: &Path, setup: &Setup<'_>, case: Case) -> std::io::Result<Launch> {
    // No hooks: no file (`gateway install` writes its own), but its
    // directory, where install writes it.
    std::fs::create_dir_all(setup.paths.home.join(".copilot/hooks"))?;
    if !setup.hooks.is_empty() {
        let hooks = hooks_json(setup.hooks, setup.shim, case).to_string();
        setup.write_home(".copilot/hooks/hookgate.json", &hooks)?;
    }
    let model = crate::fake_model::MODEL;
    let args = ["-p", setup.prompt, "--allow-all-tools", "--model", model];
    let env = [
        ("COPILOT_OFFLINE", "true".to_owned()),
        ("COPILOT_PROVIDER_TYPE", "openai".to_owned()),
        ("COPILOT_PROVIDER_BASE_URL", setup.model_url("/v1")),
        // Any key: the fake model does not check it.
        ("COPILOT_PROVIDER_API_KEY", "hookgate-test-key".to_owned()),
        ("COPILOT_MODEL", model.to_owned()),
    ];
    Ok(Launch::new(program, &args, &env))
}

/// `{"version": 1, "hooks": {"<event>": [{"type": "command", "bash":
/// <command>, "timeoutSec": 30}]}}`: PascalCase events run the shim with
/// no argument, camelCase ones `'<shim>' copilot <event>`.
fn hooks_json(hooks: &[String], shim: &Path, case: Case) -> Value {
    let shim = shell_word(shim);
    let events: Map<String, Value> = hooks
        .iter()
        .map(|event| {
            let command = match case {
                Case::Pascal => shim.clone(),
                Case::Camel => format!("{shim} copilot {event}"),
            };
            let entry =
                json!([{"type": "command", "bash": command, "timeoutSec": HOOK_TIMEOUT_SECS}]);
            (event.clone(), entry)
        })
        .collect();
    json!({"version": 1, "hooks": events})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_runs_the_shim_bare_and_camel_names_agent_and_event() {
        let shim = Path::new("/opt/gateway-shim");
        let pascal = hooks_json(&["PreToolUse".to_owned()], shim, Case::Pascal);
        assert_eq!(
            pascal["hooks"]["PreToolUse"][0],
            json!({"type": "command", "bash": "'/opt/gateway-shim'", "timeoutSec": 30})
        );
        let camel = hooks_json(&["preToolUse".to_owned()], shim, Case::Camel);
        assert_eq!(
            camel["hooks"]["preToolUse"][0]["bash"],
            "'/opt/gateway-shim' copilot preToolUse"
        );
        assert_eq!(camel["version"], 1);
    }
}
