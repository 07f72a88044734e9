//! Claude Code's side of a run: its settings file (gateway-shim as the
//! command hook of each event), command line and environment, as recorded
//! working headless and offline in docs/real-agents-findings.md §3.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::install::{ClaudeCode, Clis};
use super::run::{Launch, RunPaths, shell_quote};

/// The events a Claude Code run hooks by default: every event of a plain
/// headless run.
pub(crate) const DEFAULT_HOOKS: [&str; 6] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SessionEnd",
];

/// Which Claude Code runs, and how its Bash permission is set.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub(crate) which: ClaudeCode,
    /// `--permission-mode default` instead of `--allowedTools Bash`.
    pub(crate) ask_permissions: bool,
    /// No `--settings`: the hooks are those `gateway install` wrote into
    /// `~/.claude/settings.json`.
    pub(crate) installed_hooks: bool,
    /// `type: "http"` hooks POSTing to this URL (with the token header)
    /// instead of command hooks running the shim.
    pub(crate) http_url: Option<String>,
    /// The HTTP hooks carry `onFailure: "block"`.
    pub(crate) http_block: bool,
}

/// Writes `settings.json` and returns how to start Claude Code.
pub(crate) fn prepare(
    clis: &Clis,
    options: Options,
    paths: &RunPaths,
    port: u16,
    prompt: &str,
    hooks: &[String],
    shim: &Path,
) -> std::io::Result<Launch> {
    // As root, bypassing permissions is refused; the Bash tool must be
    // allowed explicitly or it is blocked before any hook could allow it.
    // With permission prompts the Bash call asks instead, which fires
    // PermissionRequest (2.1.332) and is refused when nobody answers.
    let permissions = if options.ask_permissions {
        ["--permission-mode", "default"]
    } else {
        ["--allowedTools", "Bash"]
    };
    let mut args = vec!["-p".to_owned(), prompt.to_owned()];
    if !options.installed_hooks {
        let settings = paths.root.join("settings.json");
        let hook = match &options.http_url {
            Some(url) => http_hook(url, options.http_block),
            None => command_hook(shim),
        };
        std::fs::write(&settings, settings_json(hooks, &hook).to_string())?;
        args.extend(["--settings".to_owned(), settings.display().to_string()]);
    }
    args.extend(permissions.map(str::to_owned));
    args.extend(["--output-format", "stream-json", "--verbose"].map(str::to_owned));
    let env = [
        ("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}")),
        ("ANTHROPIC_API_KEY", "hookgate-test-key".to_owned()),
        // Without these four it resolves api.anthropic.com.
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".to_owned()),
        ("DISABLE_TELEMETRY", "1".to_owned()),
        ("DISABLE_AUTOUPDATER", "1".to_owned()),
        ("DISABLE_ERROR_REPORTING", "1".to_owned()),
    ];
    Ok(Launch {
        program: clis.claude(options.which).to_path_buf(),
        args,
        env: env.map(|(k, v)| (k.to_owned(), v)).to_vec(),
    })
}

/// `{"type": "command", "command": "'<shim>' claude-code"}`.
fn command_hook(shim: &Path) -> Value {
    let command = format!("{} claude-code", shell_quote(&shim.display().to_string()));
    json!({"type": "command", "command": command})
}

/// An HTTP hook to `url` carrying the gateway's token from the
/// environment (`gateway install --transport http` writes the token
/// itself; both reach the same header).
fn http_hook(url: &str, block: bool) -> Value {
    let var = crate::http_hook::TOKEN_VAR;
    let mut hook = json!({
        "type": "http",
        "url": url,
        "headers": {"Authorization": format!("Bearer ${var}")},
        "allowedEnvVars": [var],
        "timeout": 30,
    });
    if block {
        hook["onFailure"] = json!("block");
    }
    hook
}

/// `{"hooks": {"<Event>": [{"hooks": [<hook>]}]}}`: no matcher, so every
/// tool matches.
fn settings_json(hooks: &[String], hook: &Value) -> Value {
    let mut events = Map::new();
    for event in hooks {
        events.insert(event.clone(), json!([{"hooks": [hook]}]));
    }
    json!({"hooks": events})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hooked_event_runs_the_shim() {
        let settings = settings_json(
            &["PreToolUse".to_owned(), "Stop".to_owned()],
            &command_hook(Path::new("/opt/it's/gateway-shim")),
        );
        for event in ["PreToolUse", "Stop"] {
            assert_eq!(
                settings["hooks"][event][0]["hooks"][0],
                json!({"type": "command", "command": r"'/opt/it'\''s/gateway-shim' claude-code"})
            );
        }
        assert_eq!(settings["hooks"].as_object().map(Map::len), Some(2));
    }
}
