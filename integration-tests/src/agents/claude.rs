//! Claude Code's side of a run: its settings file (gateway-shim as the
//! command hook of each event), command line and environment, as
//! docs/agents.md, section "Running the real CLIs headless and offline",
//! records them working.

use std::path::Path;

use serde_json::{Value, json};

use super::install::{ClaudeCode, Clis};
use super::setup::{self, Launch, Setup, groups, shell_word, write_file};

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
pub(crate) fn prepare(clis: &Clis, options: Options, setup: &Setup<'_>) -> std::io::Result<Launch> {
    // As root, bypassing permissions is refused; the Bash tool must be
    // allowed explicitly or it is blocked before any hook could allow it.
    // With permission prompts the Bash call asks instead, which fires
    // PermissionRequest (2.1.332) and is refused when nobody answers.
    let permissions = if options.ask_permissions {
        ["--permission-mode", "default"]
    } else {
        ["--allowedTools", "Bash"]
    };
    let settings = setup.paths.root.join("settings.json").display().to_string();
    let mut args = vec!["-p", setup.prompt];
    if !options.installed_hooks {
        let hook = match &options.http_url {
            Some(url) => http_hook(url, options.http_block),
            None => command_hook(setup.shim),
        };
        let text = settings_json(setup.hooks, &hook).to_string();
        write_file(Path::new(&settings), &text)?;
        args.extend(["--settings", &settings]);
    }
    args.extend(permissions);
    args.extend(["--output-format", "stream-json", "--verbose"]);
    let env = [
        ("ANTHROPIC_BASE_URL", setup.model_url("")),
        ("ANTHROPIC_API_KEY", "hookgate-test-key".to_owned()),
        // Without these four it resolves api.anthropic.com.
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".to_owned()),
        ("DISABLE_TELEMETRY", "1".to_owned()),
        ("DISABLE_AUTOUPDATER", "1".to_owned()),
        ("DISABLE_ERROR_REPORTING", "1".to_owned()),
    ];
    Ok(Launch::new(clis.claude(options.which), &args, &env))
}

/// `{"type": "command", "command": "'<shim>' claude-code"}`.
fn command_hook(shim: &Path) -> Value {
    let command = format!("{} claude-code", shell_word(shim));
    json!({"type": "command", "command": command})
}

/// An HTTP hook to `url` carrying the gateway's token from the
/// environment (`gateway install --transport http` writes the token
/// itself; both reach the same header).
fn http_hook(url: &str, block: bool) -> Value {
    let var = crate::http_hook::TOKEN_VAR;
    let mut hook = setup::http_hook(url, &format!("Bearer ${var}"));
    if block {
        hook["onFailure"] = json!("block");
    }
    hook
}

/// `{"hooks": {"<Event>": [{"hooks": [<hook>]}]}}`: no matcher, so every
/// tool matches.
fn settings_json(hooks: &[String], hook: &Value) -> Value {
    json!({"hooks": groups(hooks, None, hook)})
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

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
