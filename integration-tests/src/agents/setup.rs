//! What every agent's `prepare` shares: the run's directories and
//! parameters ([`Setup`]), the launch it returns ([`Launch`]), and the
//! config pieces several agents write the same way. Each agent module only
//! says what differs: its files, arguments and environment.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// The directories of one run.
#[derive(Debug, Clone)]
pub(crate) struct RunPaths {
    /// Everything of the run: settings, logs, the two below.
    pub(crate) root: PathBuf,
    /// The agent's `HOME`.
    pub(crate) home: PathBuf,
    /// The agent's working directory (the project).
    pub(crate) work: PathBuf,
}

/// What an agent's `prepare` is given: where the run lives, the fake
/// model's port, the prompt, the hook events to install (none when
/// `gateway install` writes them) and the hook program.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup<'a> {
    pub(crate) paths: &'a RunPaths,
    pub(crate) port: u16,
    pub(crate) prompt: &'a str,
    pub(crate) hooks: &'a [String],
    pub(crate) shim: &'a Path,
}

impl Setup<'_> {
    /// The fake model's address followed by `path` (`""` or `/v1`).
    pub(crate) fn model_url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Writes `text` to `relative` under the agent's HOME, creating its
    /// directories.
    pub(crate) fn write_home(&self, relative: &str, text: &str) -> std::io::Result<()> {
        write_file(&self.paths.home.join(relative), text)
    }
}

/// Writes `text` to `file`, creating its directories.
pub(crate) fn write_file(file: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(file, text)
}

/// What every agent gets: its own HOME, a plain terminal, a UTF-8 locale.
pub(crate) fn base_env(paths: &RunPaths) -> Vec<(String, String)> {
    let mut env = vec![
        ("HOME".to_owned(), paths.home.display().to_string()),
        ("TERM".to_owned(), "dumb".to_owned()),
        ("LANG".to_owned(), "C.UTF-8".to_owned()),
        ("SHELL".to_owned(), "/bin/bash".to_owned()),
        (
            "USER".to_owned(),
            std::env::var("USER").unwrap_or_else(|_| "root".to_owned()),
        ),
    ];
    // Node (Cline's launcher), timeout, ip and the shell tools.
    if let Ok(path) = std::env::var("PATH") {
        env.push(("PATH".to_owned(), path));
    }
    env
}

/// How to start an agent (inside the fake model's namespace).
#[derive(Debug, Clone)]
pub(crate) struct Launch {
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<String>,
    pub(crate) env: Vec<(String, String)>,
}

impl Launch {
    /// `program` with `args`, `env` added to the run's environment.
    pub(crate) fn new(program: &Path, args: &[&str], env: &[(&str, String)]) -> Launch {
        Launch {
            program: program.to_path_buf(),
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
            env: env
                .iter()
                .map(|(name, value)| ((*name).to_owned(), value.clone()))
                .collect(),
        }
    }
}

/// Claude Code-style hook groups running `gateway-shim` (no agent
/// argument) for each of `hooks`: `{"<Event>": [{"matcher": <matcher>,
/// "hooks": [{"type": "command", "command": "'<shim>'", "timeout":
/// <timeout>}]}]}`, the timeout in the agent's own unit.
pub(crate) fn hook_groups(
    hooks: &[String],
    shim: &Path,
    matcher: &str,
    timeout: u64,
) -> Map<String, Value> {
    let hook = json!({"type": "command", "command": shell_word(shim), "timeout": timeout});
    groups(hooks, Some(matcher), &hook)
}

/// `{"<Event>": [{"matcher": <matcher>, "hooks": [<hook>]}]}` for each of
/// `hooks` (no `matcher` key without one).
pub(crate) fn groups(hooks: &[String], matcher: Option<&str>, hook: &Value) -> Map<String, Value> {
    hooks
        .iter()
        .map(|event| {
            let mut group = json!({"hooks": [hook]});
            if let Some(matcher) = matcher {
                group["matcher"] = json!(matcher);
            }
            (event.clone(), json!([group]))
        })
        .collect()
}

/// A `type: "http"` hook to `url` whose `Authorization` header `header`
/// reads the gateway's token from the environment (the agent's own
/// variable syntax), with a 30 s timeout.
pub(crate) fn http_hook(url: &str, header: &str) -> Value {
    json!({
        "type": "http",
        "url": url,
        "headers": {"Authorization": header},
        "allowedEnvVars": [crate::http_hook::TOKEN_VAR],
        "timeout": 30,
    })
}

/// `path` as one single-quoted shell word.
pub(crate) fn shell_word(path: &Path) -> String {
    shell_quote(&path.display().to_string())
}

/// `text` as one single-quoted shell word.
pub(crate) fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_in_a_path_stays_one_shell_word() {
        assert_eq!(shell_quote("/opt/it's"), r"'/opt/it'\''s'");
    }
}
