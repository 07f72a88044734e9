//! Where the kit finds things: the hookgate repository, its sample
//! payloads (`adapters/test_data`) with their table
//! (`adapters/test_data/shell-calls.json`), and the binaries.

#![expect(
    clippy::disallowed_methods,
    reason = "test support: reads sample files, never on a server's path"
)]

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::KitError;

/// One sample payload of the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// The agent's sample directory (`claude-code`, `copilot-camel`, ...).
    pub directory: String,
    /// The file name without `.json` (`PreToolUse`, `Stop.stop_hook_active`).
    pub name: String,
    pub payload: Vec<u8>,
    /// The shim's arguments for it.
    pub args: Vec<String>,
}

impl Sample {
    /// `claude-code/PreToolUse.json`.
    pub fn path(&self) -> String {
        format!("{}/{}.json", self.directory, self.name)
    }
}

/// The hookgate repository: `HOOKGATE_REPO`, else the first parent of the
/// working directory holding `adapters/test_data`.
pub fn repository() -> Result<PathBuf, KitError> {
    if let Some(named) = std::env::var_os("HOOKGATE_REPO") {
        return Ok(PathBuf::from(named));
    }
    let here = std::env::current_dir().map_err(|e| KitError(format!("current_dir: {e}")))?;
    here.ancestors()
        .find(|dir| dir.join("adapters/test_data").is_dir())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            KitError("no hookgate repository above the working directory: set HOOKGATE_REPO".into())
        })
}

/// The `gateway` and `gateway-shim` binaries: `HOOKGATE_GATEWAY_BIN` and
/// `HOOKGATE_SHIM_BIN`, else the running test's own profile directory
/// (where `cargo test --workspace` built them), else the repository's
/// `target/debug/`.
pub fn binaries() -> Result<(PathBuf, PathBuf), KitError> {
    if let (Some(gateway), Some(shim)) = (
        std::env::var_os("HOOKGATE_GATEWAY_BIN"),
        std::env::var_os("HOOKGATE_SHIM_BIN"),
    ) {
        return checked(PathBuf::from(gateway), PathBuf::from(shim));
    }
    let profile = std::env::current_exe().ok().and_then(|exe| {
        let dir = exe.parent()?;
        let dir = if dir.ends_with("deps") {
            dir.parent()?
        } else {
            dir
        };
        dir.join("gateway").is_file().then(|| dir.to_path_buf())
    });
    let dir = match profile {
        Some(dir) => dir,
        None => repository()?.join("target").join("debug"),
    };
    checked(dir.join("gateway"), dir.join("gateway-shim"))
}

fn checked(gateway: PathBuf, shim: PathBuf) -> Result<(PathBuf, PathBuf), KitError> {
    for path in [&gateway, &shim] {
        if !path.is_file() {
            return Err(KitError(format!(
                "{} does not exist: run `cargo build --workspace`, or set HOOKGATE_GATEWAY_BIN \
                 and HOOKGATE_SHIM_BIN",
                path.display()
            )));
        }
    }
    Ok((gateway, shim))
}

fn table() -> Result<Value, KitError> {
    let path = repository()?.join("adapters/test_data/shell-calls.json");
    let text =
        std::fs::read_to_string(&path).map_err(|e| KitError(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| KitError(format!("{}: {e}", path.display())))
}

/// Every sample payload of every agent (`None`), or of one directory.
pub fn samples(directory: Option<&str>) -> Result<Vec<Sample>, KitError> {
    let root = repository()?.join("adapters/test_data");
    let table = table()?;
    let dirs = table["samples"]
        .as_object()
        .ok_or_else(|| KitError("shell-calls.json: no `samples`".into()))?;
    let mut out = Vec::new();
    for (dir, args) in dirs {
        if directory.is_some_and(|d| d != dir) {
            continue;
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .map_err(|e| KitError(format!("{dir}: {e}")))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            let name = file
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default()
                .to_owned();
            let event = name.split('.').next().unwrap_or_default();
            let args = args
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|a| a.replace("{event}", event))
                .collect();
            let payload = std::fs::read(&file).map_err(|e| KitError(format!("{name}: {e}")))?;
            out.push(Sample {
                directory: dir.clone(),
                name,
                payload,
                args,
            });
        }
    }
    if out.is_empty() {
        return Err(KitError(format!("no samples for {directory:?}")));
    }
    Ok(out)
}

/// One sample: `"claude-code/PreToolUse"`.
pub fn sample(path: &str) -> Result<Sample, KitError> {
    let (directory, name) = path
        .split_once('/')
        .ok_or_else(|| KitError(format!("{path:?}: expected directory/name")))?;
    samples(Some(directory))?
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| KitError(format!("no sample {path:?}")))
}

/// The dialects [`shell_call`] knows.
pub fn shell_dialects() -> Result<Vec<String>, KitError> {
    let table = table()?;
    let mut names: Vec<String> = table["shell"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    names.sort();
    Ok(names)
}

/// The pre-tool sample of `dialect` made to run `command` in the agent's
/// shell tool.
pub fn shell_call(dialect: &str, command: &str) -> Result<Sample, KitError> {
    let table = table()?;
    let entry = &table["shell"][dialect];
    let file = entry["sample"]
        .as_str()
        .ok_or_else(|| KitError(format!("no shell call for {dialect:?}")))?;
    let mut base = sample(file.strip_suffix(".json").unwrap_or(file))?;
    let mut payload: Value =
        serde_json::from_slice(&base.payload).map_err(|e| KitError(format!("{file}: {e}")))?;
    for (pointer, value) in entry["set"].as_object().into_iter().flatten() {
        let mut doc = &mut payload;
        let keys: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
        for key in &keys {
            if !doc.is_object() {
                *doc = Value::Object(serde_json::Map::new());
            }
            doc = doc
                .as_object_mut()
                .map(|o| o.entry((*key).to_owned()).or_insert(Value::Null))
                .ok_or_else(|| KitError(format!("{file}: {pointer}")))?;
        }
        *doc = fill(value, command);
    }
    base.payload = payload.to_string().into_bytes();
    Ok(base)
}

fn fill(value: &Value, command: &str) -> Value {
    match value {
        Value::String(s) if s == "{command}" => Value::String(command.to_owned()),
        Value::String(s) if s == "{commands_json}" => {
            Value::String(Value::Array(vec![Value::String(command.to_owned())]).to_string())
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| fill(v, command)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill(v, command)))
                .collect(),
        ),
        other => other.clone(),
    }
}
