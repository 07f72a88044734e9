//! Codex's own gate in front of hooks: it runs a hook only once the user
//! trusted that exact definition (0.171.0: `[hooks.state."<key>"]
//! trusted_hash = "sha256:…"` in `~/.codex/config.toml`, the key
//! `<hooks.json path>:<event_in_snake_case>:<group>:<handler>`). Until
//! then `codex exec` skips the hook silently and the TUI asks ("Hooks need
//! review"). Codex computes the hash itself; its app server lists every
//! hook with its key, `currentHash` and `trustStatus` (`hooks/list`), so
//! install and doctor ask the user's own `codex` rather than guess at the
//! hash.
//!
//! - [`list`]: `codex app-server` over stdio, one `hooks/list` call,
//!   bounded in time;
//! - [`trust`]: the config text with `trusted_hash` set for hookgate's own
//!   hooks (and nothing else), edited with `toml_edit`;
//! - [`untrust`]: those entries removed again, for uninstall.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use serde_json::{Value, json};
use toml_edit::{DocumentMut, Item, Table, value};

use super::command;

/// How long `codex app-server` may take to answer (it starts in about a
/// second; a slow disk or a first run takes longer).
const LIST_TIMEOUT: Duration = Duration::from_secs(30);

/// One hook as Codex sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CodexHook {
    pub(crate) key: String,
    pub(crate) source_path: PathBuf,
    pub(crate) event: String,
    pub(crate) command: String,
    pub(crate) current_hash: String,
    /// `trusted`, `untrusted`, `modified` (trusted once, changed since) or
    /// `managed`.
    pub(crate) trust_status: String,
    pub(crate) enabled: bool,
    pub(crate) timeout_secs: Option<u64>,
}

impl CodexHook {
    /// Whether install wrote it.
    pub(crate) fn is_ours(&self) -> bool {
        command::is_ours(&self.command)
    }
}

/// What `hooks/list` said for one working directory.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listing {
    pub(crate) hooks: Vec<CodexHook>,
    /// What Codex says about the hook files as it loads them: warnings
    /// (`clamping SessionEnd hook timeout to 3s in …`) and errors (a file
    /// it could not use), each naming the file.
    pub(crate) warnings: Vec<String>,
    pub(crate) errors: Vec<String>,
}

/// The `codex` program on `path` (the PATH variable), if any.
pub(crate) fn find(path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .map(|dir| dir.join("codex"))
        .find(|program| super::shim::is_executable(program))
}

/// The hooks Codex would run for a session in `cwd`, as its app server
/// (`program app-server`, with `CODEX_HOME` at `home/.codex`, where install
/// writes) lists them.
pub(crate) fn list(program: &Path, home: &Path, cwd: &Path) -> anyhow::Result<Listing> {
    let mut child = Command::new(program)
        .arg("app-server")
        .env("CODEX_HOME", home.join(".codex"))
        .env("HOME", home)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting `{} app-server`", program.display()))?;
    let result = converse(&mut child, cwd);
    let _ = child.kill();
    let _ = child.wait();
    parse_listing(&result?, cwd)
}

/// `initialize`, `initialized`, `hooks/list`: the response to the last.
fn converse(child: &mut std::process::Child, cwd: &Path) -> anyhow::Result<Value> {
    let stdout = child.stdout.take().context("no stdout")?;
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().context("no stdin")?;
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"clientInfo": {"name": "hookgate", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"jsonrpc": "2.0", "method": "initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list",
               "params": {"cwds": [cwd]}}),
    ];
    for request in requests {
        writeln!(stdin, "{request}").context("writing to codex app-server")?;
    }
    stdin.flush().context("writing to codex app-server")?;
    let started = Instant::now();
    loop {
        let left = LIST_TIMEOUT.saturating_sub(started.elapsed());
        let line = match received.recv_timeout(left) {
            Ok(line) => line,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                bail!("codex app-server did not answer within {LIST_TIMEOUT:?}")
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                bail!("codex app-server exited without answering")
            }
        };
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        if message["id"] != 2 {
            continue;
        }
        if let Some(error) = message.get("error") {
            bail!("codex app-server refused hooks/list: {error}");
        }
        return Ok(message["result"].clone());
    }
}

/// The listing for `cwd` in a `hooks/list` result.
fn parse_listing(result: &Value, cwd: &Path) -> anyhow::Result<Listing> {
    let data = result["data"]
        .as_array()
        .context("no `data` in hooks/list")?;
    let entry = data
        .iter()
        .find(|d| d["cwd"].as_str() == cwd.to_str())
        .or_else(|| data.first());
    let Some(entry) = entry else {
        return Ok(Listing::default());
    };
    let hooks = entry["hooks"]
        .as_array()
        .map(|hooks| hooks.iter().filter_map(hook).collect())
        .unwrap_or_default();
    let texts = |key: &str| -> Vec<String> {
        entry[key]
            .as_array()
            .map(|all| {
                all.iter()
                    .filter_map(|v| v.as_str().or_else(|| v["message"].as_str()))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    Ok(Listing {
        hooks,
        warnings: texts("warnings"),
        errors: texts("errors"),
    })
}

fn hook(value: &Value) -> Option<CodexHook> {
    let text = |key: &str| value[key].as_str().map(str::to_owned);
    Some(CodexHook {
        key: text("key")?,
        source_path: PathBuf::from(text("sourcePath")?),
        event: text("eventName").unwrap_or_default(),
        command: text("command").unwrap_or_default(),
        current_hash: text("currentHash")?,
        trust_status: text("trustStatus").unwrap_or_default(),
        enabled: value["enabled"].as_bool().unwrap_or(true),
        timeout_secs: value["timeoutSec"].as_u64(),
    })
}

/// `text` (Codex's `config.toml`) with `trusted_hash` set for each of
/// hookgate's hooks in `hooks` defined in `hooks_file` that Codex does not
/// trust yet; the user's own hooks are never touched. Returns the text and
/// how many were trusted.
pub(crate) fn trust(
    text: &str,
    hooks: &[CodexHook],
    hooks_file: &Path,
) -> anyhow::Result<(String, usize)> {
    let mut doc: DocumentMut = text
        .parse()
        .context("Codex's config.toml is not valid TOML")?;
    let mut trusted = 0;
    for hook in hooks {
        if !hook.is_ours() || hook.source_path != hooks_file || hook.trust_status == "trusted" {
            continue;
        }
        let state = state_table(&mut doc)?;
        let entry = state
            .entry(&hook.key)
            .or_insert_with(|| Item::Table(Table::new()))
            .as_table_like_mut()
            .context("a `hooks.state` entry is not a table")?;
        entry.insert("trusted_hash", value(hook.current_hash.clone()));
        trusted += 1;
    }
    Ok((doc.to_string(), trusted))
}

/// `text` without the `hooks.state` entries of `keys` (and without
/// `[hooks.state]` / `[hooks]` when that leaves them empty and they hold
/// nothing else).
pub(crate) fn untrust(text: &str, keys: &[String]) -> anyhow::Result<String> {
    let mut doc: DocumentMut = text
        .parse()
        .context("Codex's config.toml is not valid TOML")?;
    let Some(hooks) = doc.get_mut("hooks").and_then(Item::as_table_like_mut) else {
        return Ok(text.to_owned());
    };
    if let Some(state) = hooks.get_mut("state").and_then(Item::as_table_like_mut) {
        for key in keys {
            state.remove(key);
        }
        if state.is_empty() {
            hooks.remove("state");
        }
    }
    if hooks.is_empty() {
        doc.remove("hooks");
    }
    Ok(doc.to_string())
}

/// The keys Codex gives hookgate's handlers in `hooks_file` (the events
/// object of a Codex `hooks.json`, parsed): one per handler, by position.
pub(crate) fn keys_of_ours(hooks_file: &Path, events: &super::json::Json) -> Vec<String> {
    use super::json::Json;
    let Json::Object(members) = events else {
        return Vec::new();
    };
    let mut keys = Vec::new();
    for (event, groups) in members {
        let Json::Array(groups) = groups else {
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let Some(Json::Array(handlers)) = group.get("hooks") else {
                continue;
            };
            for (h, handler) in handlers.iter().enumerate() {
                if handler
                    .get("command")
                    .and_then(Json::as_str)
                    .is_some_and(command::is_ours)
                {
                    keys.push(format!(
                        "{}:{}:{g}:{h}",
                        hooks_file.display(),
                        snake_case(event)
                    ));
                }
            }
        }
    }
    keys
}

/// `PreToolUse` → `pre_tool_use`, as Codex names events in hook keys.
fn snake_case(event: &str) -> String {
    let mut out = String::with_capacity(event.len() + 4);
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `[hooks.state]`, created (as implicit parents) when absent.
fn state_table(doc: &mut DocumentMut) -> anyhow::Result<&mut dyn toml_edit::TableLike> {
    let hooks = doc
        .entry("hooks")
        .or_insert_with(|| {
            let mut table = Table::new();
            table.set_implicit(true);
            Item::Table(table)
        })
        .as_table_like_mut()
        .context("`hooks` in Codex's config.toml is not a table")?;
    hooks
        .entry("state")
        .or_insert_with(|| {
            let mut table = Table::new();
            table.set_implicit(true);
            Item::Table(table)
        })
        .as_table_like_mut()
        .context("`hooks.state` in Codex's config.toml is not a table")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(key: &str, status: &str) -> CodexHook {
        CodexHook {
            key: key.to_owned(),
            source_path: PathBuf::from("/h/.codex/hooks.json"),
            event: "preToolUse".to_owned(),
            command: "HOOKGATE_SOCKET='/s' '/b/gateway-shim' codex".to_owned(),
            current_hash: format!("sha256:{key}"),
            trust_status: status.to_owned(),
            enabled: true,
            timeout_secs: Some(30),
        }
    }

    #[test]
    fn only_our_untrusted_hooks_are_trusted_and_untrust_gives_the_text_back() {
        let original = "# mine\nmodel = \"o3\"\n\n[features]\nhooks = true\n";
        let mut theirs = ours("/h/.codex/hooks.json:stop:0:0", "untrusted");
        theirs.command = "my-lint".to_owned();
        let mut elsewhere = ours("/p/.codex/hooks.json:stop:0:0", "untrusted");
        elsewhere.source_path = PathBuf::from("/p/.codex/hooks.json");
        let hooks = [
            ours("/h/.codex/hooks.json:pre_tool_use:0:0", "untrusted"),
            ours("/h/.codex/hooks.json:session_end:1:0", "modified"),
            ours("/h/.codex/hooks.json:stop:1:0", "trusted"),
            theirs,
            elsewhere,
        ];
        let (text, n) = trust(original, &hooks, Path::new("/h/.codex/hooks.json")).unwrap();
        assert_eq!(n, 2);
        assert!(text.starts_with(original), "{text}");
        assert!(
            text.contains(
                "[hooks.state.\"/h/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:/h/.codex/hooks.json:pre_tool_use:0:0\"\n"
            ),
            "{text}"
        );
        assert!(!text.contains("stop:0:0"), "{text}");
        let doc: toml::Table = toml::from_str(&text).unwrap();
        assert!(doc["hooks"]["state"].as_table().unwrap().len() == 2);
        let keys = [
            "/h/.codex/hooks.json:pre_tool_use:0:0".to_owned(),
            "/h/.codex/hooks.json:session_end:1:0".to_owned(),
        ];
        assert_eq!(untrust(&text, &keys).unwrap(), original);
    }

    #[test]
    fn keys_follow_codex_positions() {
        let events = super::super::json::Json::parse(
            r#"{"PreToolUse": [{"hooks": [{"command": "lint"}]}, {"matcher": "", "hooks": [{"command": "HOOKGATE_SOCKET='/s' '/b/gateway-shim' codex"}]}],
                "SessionEnd": [{"hooks": [{"command": "HOOKGATE_SOCKET='/s' HOOKGATE_TIMEOUT_MS=2500 '/b/gateway-shim' codex"}]}]}"#,
        )
        .unwrap();
        assert_eq!(
            keys_of_ours(Path::new("/h/.codex/hooks.json"), &events),
            [
                "/h/.codex/hooks.json:pre_tool_use:1:0",
                "/h/.codex/hooks.json:session_end:0:0"
            ]
        );
        assert_eq!(snake_case("UserPromptSubmit"), "user_prompt_submit");
    }

    #[test]
    fn a_listing_is_read_from_the_app_server_reply() {
        let result = json!({"data": [{"cwd": "/w", "hooks": [
            {"key": "/h/.codex/hooks.json:pre_tool_use:0:0", "eventName": "preToolUse",
             "command": "HOOKGATE_SOCKET='/s' '/b/gateway-shim' codex", "sourcePath": "/h/.codex/hooks.json",
             "currentHash": "sha256:ab", "trustStatus": "untrusted", "enabled": true, "timeoutSec": 30}],
            "warnings": ["clamping SessionEnd hook timeout to 3s in /h/.codex/hooks.json"], "errors": []}]});
        let listing = parse_listing(&result, Path::new("/w")).unwrap();
        assert_eq!(listing.hooks.len(), 1);
        assert!(listing.hooks[0].is_ours());
        assert_eq!(listing.hooks[0].trust_status, "untrusted");
        assert_eq!(
            listing.warnings,
            ["clamping SessionEnd hook timeout to 3s in /h/.codex/hooks.json"]
        );
        assert!(listing.errors.is_empty());
    }
}
