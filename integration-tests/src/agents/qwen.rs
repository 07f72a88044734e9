//! Qwen Code's side of a run (0.24.4, observed in docs/agents.md): the
//! user settings `~/.qwen/settings.json` with `gateway-shim` — no agent
//! argument — as the command hook of each event, the OpenAI-compatible
//! provider pointed at the fake model, and `qwen -p` in YOLO mode.

use std::path::Path;

use serde_json::{Value, json};

use super::setup::{Launch, Setup, groups, hook_groups, http_hook};

/// The events a Qwen Code run hooks by default: every event of a plain
/// headless run (SessionEnd does not fire in `-p`).
pub(crate) const DEFAULT_HOOKS: [&str; 5] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
];

/// Qwen's command-hook timeout is in milliseconds.
const HOOK_TIMEOUT_MS: u64 = 30_000;

/// Writes `~/.qwen/settings.json` and returns how to start Qwen Code.
pub(crate) fn prepare(
    program: &Path,
    setup: &Setup<'_>,
    http_url: Option<&str>,
) -> std::io::Result<Launch> {
    let mut settings = settings_json(setup.hooks, setup.shim);
    if let Some(url) = http_url {
        settings["hooks"] = http_hooks(setup.hooks, url);
    }
    setup.write_home(".qwen/settings.json", &settings.to_string())?;
    let args = [
        "-p",
        setup.prompt,
        "--approval-mode",
        "yolo",
        "--output-format",
        "json",
    ];
    let env = [
        // Any key: the fake model does not check it. Qwen hands it to
        // every hook process; the shim must not forward it.
        ("OPENAI_API_KEY", "hookgate-test-key".to_owned()),
        ("OPENAI_BASE_URL", setup.model_url("/v1")),
        ("OPENAI_MODEL", crate::fake_model::MODEL.to_owned()),
        ("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1".to_owned()),
    ];
    Ok(Launch::new(program, &args, &env))
}

/// OpenAI auth, telemetry and updates off, and `{"hooks": {"<Event>":
/// [{"matcher": "", "hooks": [{"type": "command", "command": "'<shim>'",
/// "timeout": <ms>}]}]}}`.
pub(super) fn settings_json(hooks: &[String], shim: &Path) -> Value {
    let events = hook_groups(hooks, shim, "", HOOK_TIMEOUT_MS);
    json!({
        "security": {"auth": {"selectedType": "openai"}},
        "telemetry": {"enabled": false},
        "usageStatisticsEnabled": false,
        "general": {"disableAutoUpdate": true},
        "hooks": events,
    })
}

/// `type: "http"` hooks to `url` with the token header from the
/// environment; their timeout is in seconds.
fn http_hooks(hooks: &[String], url: &str) -> Value {
    let var = crate::http_hook::TOKEN_VAR;
    let hook = http_hook(url, &format!("Bearer ${{{var}}}"));
    groups(hooks, Some(""), &hook).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_provider_is_openai_compatible() {
        let settings = settings_json(&["PreToolUse".to_owned()], Path::new("/opt/gateway-shim"));
        assert_eq!(settings["security"]["auth"]["selectedType"], "openai");
    }
}
