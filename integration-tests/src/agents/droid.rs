//! Factory Droid's side of a run (0.225.2, observed in docs/agents.md):
//! `~/.factory/hooks.json` keyed by event name at the top level (a
//! Claude-style `{"hooks": …}` wrapper is ignored) with `gateway-shim` — no
//! agent argument — as the command hook, a custom Anthropic model in
//! `~/.factory/settings.json` pointed at the fake model, and `droid exec`.

use std::path::Path;

use serde_json::{Value, json};

use super::setup::{Launch, Setup, hook_groups};

/// The events a Droid run hooks by default: every event of `droid exec`
/// (UserPromptSubmit does not fire for its prompt).
pub(crate) const DEFAULT_HOOKS: [&str; 5] = [
    "SessionStart",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SessionEnd",
];

/// Droid's hook timeout is in seconds.
const HOOK_TIMEOUT_SECS: u64 = 30;

/// Writes `~/.factory/{settings,hooks}.json`; returns how to start Droid.
pub(crate) fn prepare(program: &Path, setup: &Setup<'_>) -> std::io::Result<Launch> {
    let hooks = hooks_json(setup.hooks, setup.shim).to_string();
    setup.write_home(".factory/hooks.json", &hooks)?;
    let settings = json!({
        "customModels": [{
            "model": crate::fake_model::MODEL,
            "displayName": crate::fake_model::MODEL,
            "baseUrl": setup.model_url(""),
            "apiKey": "hookgate-test-key",
            "provider": "anthropic",
            "maxOutputTokens": 4096,
        }],
        "enableTelemetry": false,
    });
    setup.write_home(".factory/settings.json", &settings.to_string())?;
    let model = format!("custom:{}", crate::fake_model::MODEL);
    let args = [
        "exec",
        "--auto",
        "high",
        "-o",
        "json",
        "-m",
        &model,
        setup.prompt,
    ];
    Ok(Launch::new(program, &args, &[]))
}

/// `{"<Event>": [{"matcher": "*", "hooks": [{"type": "command", "command":
/// "'<shim>'", "timeout": <s>}]}]}`.
pub(super) fn hooks_json(hooks: &[String], shim: &Path) -> Value {
    Value::Object(hook_groups(hooks, shim, "*", HOOK_TIMEOUT_SECS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_top_level_keys() {
        let hooks = hooks_json(&["PreToolUse".to_owned()], Path::new("/opt/gateway-shim"));
        assert!(hooks.get("PreToolUse").is_some() && hooks.get("hooks").is_none());
    }
}
