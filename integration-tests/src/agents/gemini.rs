//! Gemini CLI's side of a run (0.61.0, observed in docs/agents.md): the
//! user settings `~/.gemini/settings.json` with `gateway-shim` — no agent
//! argument — as the command hook of each event, API-key auth against the
//! fake model (`GOOGLE_GEMINI_BASE_URL`), and `gemini -p` in YOLO mode.

use std::path::Path;

use serde_json::{Value, json};

use super::setup::{Launch, Setup, hook_groups};

/// The events a Gemini CLI run hooks by default: the session, agent and
/// tool events of a headless run. The model events (BeforeModel,
/// AfterModel, BeforeToolSelection, PreCompress) fire on every model call
/// and are left out to keep runs short.
pub(crate) const DEFAULT_HOOKS: [&str; 6] = [
    "SessionStart",
    "BeforeAgent",
    "BeforeTool",
    "AfterTool",
    "AfterAgent",
    "SessionEnd",
];

/// The model asked for (the fake model answers any).
const MODEL: &str = "gemini-2.5-flash";
/// Gemini's command-hook timeout is in milliseconds.
const HOOK_TIMEOUT_MS: u64 = 30_000;

/// Writes `~/.gemini/settings.json` and returns how to start Gemini CLI.
pub(crate) fn prepare(program: &Path, setup: &Setup<'_>) -> std::io::Result<Launch> {
    let settings = settings_json(setup.hooks, setup.shim).to_string();
    setup.write_home(".gemini/settings.json", &settings)?;
    let args = [
        "-p",
        setup.prompt,
        "--approval-mode",
        "yolo",
        "--output-format",
        "json",
        "-m",
        MODEL,
    ];
    let env = [
        // Any key: the fake model does not check it. Gemini hands it to
        // every hook process; the shim must not forward it.
        ("GEMINI_API_KEY", "hookgate-test-key".to_owned()),
        ("GOOGLE_GEMINI_BASE_URL", setup.model_url("")),
        ("GEMINI_TELEMETRY_ENABLED", "false".to_owned()),
    ];
    Ok(Launch::new(program, &args, &env))
}

/// API-key auth, folder trust, telemetry, usage statistics and updates
/// off, and `{"hooks": {"<Event>": [{"matcher": "", "hooks": [{"type":
/// "command", "command": "'<shim>'", "timeout": <ms>}]}]}}` with
/// `hooksConfig.enabled` — none of either in a run whose hooks `gateway
/// install` writes, which proves hooks run by default.
pub(super) fn settings_json(hooks: &[String], shim: &Path) -> Value {
    let mut settings = json!({
        "security": {
            "auth": {"selectedType": "gemini-api-key"},
            "folderTrust": {"enabled": false},
        },
        "telemetry": {"enabled": false},
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
    });
    if !hooks.is_empty() {
        settings["hooksConfig"] = json!({"enabled": true});
        settings["hooks"] = Value::Object(hook_groups(hooks, shim, "", HOOK_TIMEOUT_MS));
    }
    settings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_are_on_with_api_key_auth() {
        let settings = settings_json(&["BeforeTool".to_owned()], Path::new("/opt/gateway-shim"));
        assert_eq!(settings["hooksConfig"]["enabled"], true);
        let installed = settings_json(&[], Path::new("/opt/gateway-shim"));
        assert!(installed.get("hooksConfig").is_none() && installed.get("hooks").is_none());
        assert_eq!(
            settings["security"]["auth"]["selectedType"],
            "gemini-api-key"
        );
    }
}
