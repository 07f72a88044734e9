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
use super::run::{Launch, RunPaths, shell_quote};

/// The events a Cline run hooks by default: the blocking tool hooks (the
/// others run detached and their output is ignored).
pub(crate) const DEFAULT_HOOKS: [&str; 2] = ["PreToolUse", "PostToolUse"];

/// The quiet settings: the CLI reads them from `$HOME/.cline/data/settings`
/// only, not from `--data-dir` (there it still resolves otel.cline.bot).
const GLOBAL_SETTINGS: &str = r#"{"telemetryOptOut":true,"autoUpdateEnabled":false}"#;

/// Writes the data dir, settings and hook files; returns how to start
/// Cline.
pub(crate) fn prepare(
    clis: &Clis,
    paths: &RunPaths,
    port: u16,
    prompt: &str,
    hooks: &[String],
    shim: &Path,
) -> std::io::Result<Launch> {
    let home_settings = paths.home.join(".cline/data/settings");
    std::fs::create_dir_all(&home_settings)?;
    std::fs::write(home_settings.join("global-settings.json"), GLOBAL_SETTINGS)?;

    let data = paths.root.join("cline-data");
    let data_settings = data.join("settings");
    std::fs::create_dir_all(&data_settings)?;
    std::fs::write(data_settings.join("global-settings.json"), GLOBAL_SETTINGS)?;
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
                "baseUrl": format!("http://127.0.0.1:{port}/v1"),
            },
            "updatedAt": "2026-01-01T00:00:00.000Z",
            "tokenSource": "manual",
        }},
    });
    std::fs::write(data_settings.join("providers.json"), providers.to_string())?;

    let hooks_dir = paths.work.join(".clinerules/hooks");
    std::fs::create_dir_all(&hooks_dir)?;
    let wrapper = hook_wrapper(shim);
    for event in hooks {
        let file = hooks_dir.join(event);
        std::fs::write(&file, &wrapper)?;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755))?;
    }

    // Always with --data-dir: without it the CLI leaves a hub daemon behind.
    let args = vec![
        "--data-dir".to_owned(),
        data.display().to_string(),
        "--cwd".to_owned(),
        paths.work.display().to_string(),
        "--json".to_owned(),
        prompt.to_owned(),
    ];
    let env = [
        ("E2E_TEST", "true"),
        ("CLINE_NO_AUTO_UPDATE", "1"),
        ("DO_NOT_TRACK", "1"),
    ];
    Ok(Launch {
        program: clis.cline.clone(),
        args,
        env: env.map(|(k, v)| (k.to_owned(), v.to_owned())).to_vec(),
    })
}

fn hook_wrapper(shim: &Path) -> String {
    format!(
        "#!/bin/bash\n# hookgate: Cline runs hook files with bash, so this script hands over to the shim.\nexec {} cline\n",
        shell_quote(&shim.display().to_string())
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
