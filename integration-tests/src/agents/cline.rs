//! The Cline CLI's side of a run: its provider and settings files, hook
//! files and command line, as docs/agents.md, section
//! "Running the real CLIs headless and offline", records them working.
//!
//! Cline starts a hook file as `bash <file>` (never exec), so each hook is
//! a two-line bash wrapper that execs `gateway-shim cline`. The files go in
//! `<cwd>/.clinerules/hooks/` (`--hooks-dir` is ignored in 3.0).

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

use serde_json::json;

use super::install::Clis;
use super::setup::{Launch, Setup, shell_word, write_file};

/// The events a Cline run hooks by default: the blocking tool hooks (the
/// others run detached and their output is ignored).
pub(crate) const DEFAULT_HOOKS: [&str; 2] = ["PreToolUse", "PostToolUse"];

/// The quiet settings: the CLI reads them from `$HOME/.cline/data/settings`
/// only, not from `--data-dir` (there it still resolves otel.cline.bot).
const GLOBAL_SETTINGS: &str = r#"{"telemetryOptOut":true,"autoUpdateEnabled":false}"#;

/// Writes the data dir, settings and hook files; returns how to start
/// Cline.
pub(crate) fn prepare(clis: &Clis, setup: &Setup<'_>) -> std::io::Result<Launch> {
    let paths = setup.paths;
    setup.write_home(".cline/data/settings/global-settings.json", GLOBAL_SETTINGS)?;

    let data = paths.root.join("cline-data");
    let data_settings = data.join("settings");
    write_file(&data_settings.join("global-settings.json"), GLOBAL_SETTINGS)?;
    // What `cline auth --provider openai-compatible` writes (3 s faster to
    // write it). Without `updatedAt` the file is silently replaced by the
    // default provider, which then tries the internet.
    let providers = json!({
        "version": 1,
        "lastUsedProvider": "openai-compatible",
        "modes": {},
        "providers": {"openai-compatible": {
            "settings": {
                "provider": "openai-compatible",
                "apiKey": "hookgate-test-key",
                "model": crate::fake_model::MODEL,
                "baseUrl": setup.model_url("/v1"),
            },
            "updatedAt": "2026-01-01T00:00:00.000Z",
            "tokenSource": "manual",
        }},
    });
    write_file(
        &data_settings.join("providers.json"),
        &providers.to_string(),
    )?;

    let hooks_dir = paths.work.join(".clinerules/hooks");
    let wrapper = hook_wrapper(setup.shim);
    for event in setup.hooks {
        let file = hooks_dir.join(event);
        write_file(&file, &wrapper)?;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755))?;
    }

    // Always with --data-dir: without it the CLI leaves a hub daemon behind.
    let (data, work) = (data.display().to_string(), paths.work.display().to_string());
    let args = ["--data-dir", &data, "--cwd", &work, "--json", setup.prompt];
    let env = [
        ("E2E_TEST", "true".to_owned()),
        ("CLINE_NO_AUTO_UPDATE", "1".to_owned()),
        ("DO_NOT_TRACK", "1".to_owned()),
    ];
    Ok(Launch::new(&clis.cline, &args, &env))
}

fn hook_wrapper(shim: &Path) -> String {
    format!(
        "#!/bin/bash\n# hookgate: Cline runs hook files with bash, so this script hands over to the shim.\nexec {} cline\n",
        shell_word(shim)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hook_file_execs_the_shim() {
        let wrapper = hook_wrapper(Path::new("/a b/gateway-shim"));
        assert!(wrapper.starts_with("#!/bin/bash\n"), "{wrapper}");
        assert!(
            wrapper.ends_with("\nexec '/a b/gateway-shim' cline\n"),
            "{wrapper}"
        );
    }
}
