//! Codex's side of a run (0.171.0, observed in docs/agents.md): the
//! default `~/.codex/config.toml` (a custom Responses-API provider pointed
//! at the fake model, hooks on, analytics, feedback and update checks off)
//! and `~/.codex/hooks.json` with `gateway-shim` — no agent argument — as
//! the command hook of each event, and `codex exec` through its npm
//! launcher, with `--dangerously-bypass-hook-trust` (without it, hooks
//! nobody has trusted are skipped silently) — but not in a run whose
//! hooks `gateway install` wrote: there Codex runs them only if install
//! trusted them, as for a user.

use std::path::Path;

use serde_json::{Value, json};

use super::setup::{Launch, Setup, hook_groups};

/// The events a Codex run hooks by default: every event of a plain
/// `codex exec` run, the same six as Claude Code's headless run.
pub(crate) const DEFAULT_HOOKS: [&str; 6] = super::claude::DEFAULT_HOOKS;

/// Codex's hook timeout is in seconds.
const HOOK_TIMEOUT_SECS: u64 = 30;
/// The variable naming the provider's key (any value: the fake model does
/// not check it).
const KEY_ENV: &str = "HOOKGATE_FAKE_MODEL_KEY";

/// Writes `~/.codex/{config.toml,hooks.json}`; returns how to start Codex.
pub(crate) fn prepare(program: &Path, setup: &Setup<'_>) -> std::io::Result<Launch> {
    // No hooks (a run whose hooks `gateway install` writes): neither
    // hooks.json nor the `hooks` feature, which install must turn on.
    let hooked = !setup.hooks.is_empty();
    setup.write_home(".codex/config.toml", &config_toml(setup.port, hooked))?;
    if hooked {
        let hooks = hooks_json(setup.hooks, setup.shim).to_string();
        setup.write_home(".codex/hooks.json", &hooks)?;
    }
    let work = setup.paths.work.display().to_string();
    let mut args = vec![
        "exec",
        "--skip-git-repo-check",
        "--dangerously-bypass-approvals-and-sandbox",
    ];
    if hooked {
        args.push("--dangerously-bypass-hook-trust");
    }
    args.extend(["--json", "-C", &work, setup.prompt]);
    let env = [(KEY_ENV, "hookgate-test-key".to_owned())];
    Ok(Launch::new(program, &args, &env))
}

/// The provider, features and switches of `config.toml`; the `hooks`
/// feature on when `hooks`.
fn config_toml(port: u16, hooks: bool) -> String {
    format!(
        r#"# Written by the hookgate test harness.
model = "{model}"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "{KEY_ENV}"

[analytics]
enabled = false

[feedback]
enabled = false

[features]
# Plugins would fetch from the network.
plugins = false
hooks = {hooks}
"#,
        model = crate::fake_model::MODEL,
    )
}

/// `{"hooks": {"<Event>": [{"matcher": "", "hooks": [{"type": "command",
/// "command": "'<shim>'", "timeout": <s>}]}]}}`.
pub(super) fn hooks_json(hooks: &[String], shim: &Path) -> Value {
    json!({"hooks": hook_groups(hooks, shim, "", HOOK_TIMEOUT_SECS)})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_provider_is_the_fake_model_and_hooks_follow_the_hooks() {
        let config = config_toml(4242, true);
        assert!(config.contains("base_url = \"http://127.0.0.1:4242/v1\""));
        assert!(config.contains("wire_api = \"responses\""));
        assert!(config.contains("hooks = true"));
        assert!(config_toml(4242, false).contains("hooks = false"));
    }
}
