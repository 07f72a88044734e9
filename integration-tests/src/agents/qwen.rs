//! Qwen Code's side of a run (0.24.4, observed in docs/agents.md): the
//! user settings `~/.qwen/settings.json` with `gateway-shim` — no agent
//! argument — as the command hook of each event, the OpenAI-compatible
//! provider pointed at the fake model, and `qwen -p` in YOLO mode.

use std::path::Path;

use serde_json::{Value, json};

use super::run::{Launch, RunPaths, hook_groups};

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
    paths: &RunPaths,
    port: u16,
    prompt: &str,
    hooks: &[String],
    (shim, http_url): (&Path, Option<&str>),
) -> std::io::Result<Launch> {
    let dir = paths.home.join(".qwen");
    std::fs::create_dir_all(&dir)?;
    let mut settings = settings_json(hooks, shim);
    if let Some(url) = http_url {
        settings["hooks"] = http_hooks(hooks, url);
    }
    std::fs::write(dir.join("settings.json"), settings.to_string())?;
    let args = [
        "-p",
        prompt,
        "--approval-mode",
        "yolo",
        "--output-format",
        "json",
    ];
    let env = [
        // Any key: the fake model does not check it. Qwen hands it to
        // every hook process; the shim must not forward it.
        ("OPENAI_API_KEY", "hookgate-test-key".to_owned()),
        ("OPENAI_BASE_URL", format!("http://127.0.0.1:{port}/v1")),
        ("OPENAI_MODEL", crate::fake_model::MODEL.to_owned()),
        ("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1".to_owned()),
    ];
    Ok(Launch {
        program: program.to_path_buf(),
        args: args.map(str::to_owned).to_vec(),
        env: env.map(|(k, v)| (k.to_owned(), v)).to_vec(),
    })
}

/// OpenAI auth, telemetry and updates off, and `{"hooks": {"<Event>":
/// [{"matcher": "", "hooks": [{"type": "command", "command": "'<shim>'",
/// "timeout": <ms>}]}]}}`.
fn settings_json(hooks: &[String], shim: &Path) -> Value {
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
    let hook = json!({
        "type": "http",
        "url": url,
        "headers": {"Authorization": format!("Bearer ${{{var}}}")},
        "allowedEnvVars": [var],
        "timeout": 30,
    });
    hooks
        .iter()
        .map(|event| (event.clone(), json!([{"matcher": "", "hooks": [hook]}])))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hooked_event_runs_the_shim_without_an_agent_argument() {
        let settings = settings_json(&["PreToolUse".to_owned()], Path::new("/opt/gateway-shim"));
        assert_eq!(
            settings["hooks"]["PreToolUse"][0]["hooks"][0],
            json!({"type": "command", "command": "'/opt/gateway-shim'", "timeout": 30_000})
        );
        assert_eq!(settings["security"]["auth"]["selectedType"], "openai");
    }
}
