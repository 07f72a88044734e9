//! A built-in `rego` subscriber's keys: its policy files and data, or an
//! OPA bundle with its signing key, the query, and its bounds.
//!
//! Policy files are read and compiled here, when the config is read, so a
//! policy that does not compile is a config error naming its file and
//! line (and `gateway reload` refuses it, the running policy staying).
//! Their digest joins the subscriber's settings: a reload after a policy
//! edit builds the subscriber anew. A bundle is fetched by the running
//! subscriber (the daemon's `builtin::rego`); here its URL and key are checked.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hookgate_policy::bundle::{Algorithm, Key, Verification};
use hookgate_policy::{DataFile, Limits, Module, Policy};
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::numbers::millis;
use super::raw::{RawMode, RawOnError, RawSubscriber};
use super::table::Table;
use super::{Env, OnError, SubscriberKind};

/// The query asked when the config names none.
pub const DEFAULT_QUERY: &str = "data.hookgate.decision";
const DEFAULT_TIMEOUT: Duration = Duration::from_millis(100);
const DEFAULT_POLL: Duration = Duration::from_secs(60);
/// A policy file or data file larger than this is refused.
const MAX_FILE_BYTES: u64 = 4 << 20;
/// At most this many files per `policy`/`data` list, globs expanded.
const MAX_FILES: usize = 1000;

/// A built-in `rego` subscriber, validated.
#[derive(Debug, Clone)]
pub struct RegoConfig {
    pub query: String,
    /// Evaluation time limit, and how long the hook path waits for it.
    pub timeout: Duration,
    pub on_error: OnError,
    /// `mode = "shadow"`: decisions counted, never merged.
    pub shadow: bool,
    pub limits: Limits,
    /// The local `policy` and `data` files, read.
    pub modules: Vec<Module>,
    pub data: Vec<DataFile>,
    /// Compiled from the files alone, when there is no bundle.
    pub compiled: Option<Arc<Policy>>,
    pub bundle: Option<BundleConfig>,
}

/// Where a bundle comes from and how it is trusted.
#[derive(Debug, Clone)]
pub struct BundleConfig {
    pub url: String,
    pub poll: Duration,
    pub verification: Verification,
    /// The last good bundle, kept for an offline restart.
    pub cache_dir: PathBuf,
}

pub(super) fn rego_kind(
    table: &Table<'_>,
    raw: &mut RawSubscriber,
) -> Result<SubscriberKind, ConfigError> {
    let raw: &RawSubscriber = raw;
    let (at, env, name, key) = (table.at, table.env, table.name, table.key);
    let query = match &raw.query {
        Some(q) => q.get_ref().trim().to_owned(),
        None => DEFAULT_QUERY.to_owned(),
    };
    let timeout = millis(
        at,
        raw.timeout_ms.as_ref(),
        &key("timeout_ms"),
        DEFAULT_TIMEOUT,
    )?;
    let limits = Limits {
        time: timeout,
        ..Limits::default()
    };
    let base = Path::new(at.file).parent().map(Path::to_path_buf);
    let modules = read_files(
        at,
        base.as_deref(),
        raw.policy.as_ref(),
        &key("policy"),
        "rego",
    )?
    .into_iter()
    .map(|(name, text)| Module { name, text })
    .collect::<Vec<_>>();
    let data = read_files(at, base.as_deref(), raw.data.as_ref(), &key("data"), "json")?
        .into_iter()
        .map(|(name, text)| {
            let value = serde_json::from_str(&text).map_err(|err| {
                let span = raw.data.as_ref().map_or(0..0, Spanned::span);
                at.error(span, key("data"), format!("{name}: {err}"))
            })?;
            Ok(DataFile {
                name,
                path: Vec::new(),
                value,
            })
        })
        .collect::<Result<Vec<_>, ConfigError>>()?;
    let bundle = match &raw.bundle {
        Some(url) => Some(bundle(at, env, raw, url, name, key)?),
        None => None,
    };
    if bundle.is_none() && modules.is_empty() {
        return Err(table.error_here(
            "policy",
            "a `rego` subscriber needs `policy` files or a `bundle`",
        ));
    }
    let compiled = if bundle.is_none() {
        let policy = Policy::compile(&modules, &data, &query, None, limits).map_err(|err| {
            let span = raw.policy.as_ref().map_or(0..0, Spanned::span);
            at.error(span, key("policy"), err.to_string())
        })?;
        Some(Arc::new(policy))
    } else {
        None
    };
    Ok(SubscriberKind::Rego(Box::new(RegoConfig {
        query,
        timeout,
        on_error: match raw.on_error.as_ref().map(Spanned::get_ref) {
            None | Some(RawOnError::Allow) => OnError::Allow,
            Some(RawOnError::Deny) => OnError::Deny,
        },
        shadow: match raw.mode.as_ref() {
            None => false,
            Some(mode) => match mode.get_ref() {
                RawMode::Decide => false,
                RawMode::Shadow => true,
                RawMode::Observe => {
                    return Err(at.error(
                        mode.span(),
                        key("mode"),
                        "the built-in `rego` decides or shadows (`decide`, `shadow`)",
                    ));
                }
            },
        },
        limits,
        modules,
        data,
        compiled,
        bundle,
    })))
}

/// The bundle URL, its signing key and where its last good copy is kept.
fn bundle(
    at: &Locator<'_>,
    env: &Env,
    raw: &RawSubscriber,
    url: &Spanned<String>,
    name: &str,
    key: &dyn Fn(&str) -> String,
) -> Result<BundleConfig, ConfigError> {
    let value = url.get_ref();
    let host = value
        .strip_prefix("https://")
        .map(|rest| (rest, true))
        .or_else(|| value.strip_prefix("http://").map(|rest| (rest, false)));
    let Some((rest, tls)) = host else {
        return Err(at.error(
            url.span(),
            key("bundle"),
            "expected an `https://` (or loopback `http://`) URL",
        ));
    };
    let host = rest.split(['/', '?']).next().unwrap_or_default();
    let host = host.rsplit_once(':').map_or(host, |(h, _)| h);
    let loopback = matches!(host, "127.0.0.1" | "localhost" | "[::1]") || host.starts_with("127.");
    let mut keys = Vec::new();
    if let Some(file) = &raw.bundle_key_file {
        let path = resolve(Path::new(at.file).parent(), file.get_ref());
        let pem = hookgate_transport::files::read_to_string(&path, 64 << 10).map_err(|err| {
            at.error(
                file.span(),
                key("bundle_key_file"),
                format!("{}: {err}", path.display()),
            )
        })?;
        let algorithm = match &raw.bundle_key_alg {
            None => Algorithm::Rs256,
            Some(alg) => Algorithm::from_name(alg.get_ref())
                .ok_or_else(|| at.error(alg.span(), key("bundle_key_alg"), "`RS256` or `ES256`"))?,
        };
        let id = raw
            .bundle_key_id
            .as_ref()
            .map_or_else(|| "default".to_owned(), |id| id.get_ref().clone());
        keys.push(Key { id, algorithm, pem });
    } else if let Some(span) = [raw.bundle_key_alg.as_ref(), raw.bundle_key_id.as_ref()]
        .into_iter()
        .flatten()
        .map(Spanned::span)
        .next()
    {
        return Err(at.error(
            span,
            key("bundle_key_file"),
            "a signing key's algorithm or id without `bundle_key_file`",
        ));
    }
    let required = match &raw.bundle_signed {
        Some(signed) if *signed.get_ref() && keys.is_empty() => {
            return Err(at.error(
                signed.span(),
                key("bundle_signed"),
                "signed bundles need `bundle_key_file`",
            ));
        }
        Some(signed) => *signed.get_ref(),
        None => !keys.is_empty(),
    };
    // Plain HTTP lets anyone on the path change the bundle: only loopback,
    // or with signatures required (then it can only be withheld or
    // replayed, which anti-rollback refuses).
    if !tls && !loopback && !required {
        return Err(at.error(
            url.span(),
            key("bundle"),
            "a plain `http://` bundle from another host must be signed: set `bundle_key_file` (or use `https://`)",
        ));
    }
    let verification = Verification {
        key_id: raw
            .bundle_key_id
            .is_none()
            .then(|| "default".to_owned())
            .filter(|_| !keys.is_empty()),
        keys,
        required,
        scope: raw.bundle_scope.as_ref().map(|s| s.get_ref().clone()),
    };
    verification.check_keys().map_err(|err| {
        at.error(
            raw.bundle_key_file.as_ref().map_or(0..0, Spanned::span),
            key("bundle_key_file"),
            err,
        )
    })?;
    let state = env
        .default_audit_path()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .ok_or_else(|| {
            at.error(
                url.span(),
                key("bundle"),
                "no state directory for the bundle cache (set $HOME or $XDG_STATE_HOME)",
            )
        })?;
    Ok(BundleConfig {
        url: value.clone(),
        poll: millis(
            at,
            raw.bundle_poll_ms.as_ref(),
            &key("bundle_poll_ms"),
            DEFAULT_POLL,
        )?,
        verification,
        cache_dir: state.join("policy").join(name),
    })
}

/// A policy edited on disk is another subscriber, though its table reads
/// the same: its digest joins the settings, so a reload compiles it anew.
pub(super) fn note_revision(kind: &SubscriberKind, settings: &mut toml::Value) {
    if let (SubscriberKind::Rego(rego), toml::Value::Table(settings)) = (kind, settings)
        && let Some(policy) = &rego.compiled
    {
        settings.insert("policy_revision".into(), policy.revision().into());
    }
}

/// The file keys of a table written in `file`, made absolute: merged with
/// other layers' tables, they still name the files beside `file`.
pub(super) fn anchor_paths(file: &str, table: &mut toml::Table) {
    let base = Path::new(file).parent();
    let anchor = |value: &mut toml::Value| {
        if let toml::Value::String(path) = value {
            *path = resolve(base, path).display().to_string();
        }
    };
    for list in ["policy", "data"] {
        if let Some(toml::Value::Array(entries)) = table.get_mut(list) {
            entries.iter_mut().for_each(anchor);
        }
    }
    if let Some(value) = table.get_mut("bundle_key_file") {
        anchor(value);
    }
}

fn resolve(base: Option<&Path>, path: &str) -> PathBuf {
    let path = Path::new(path);
    match base {
        Some(base) if path.is_relative() => base.join(path),
        _ => path.to_path_buf(),
    }
}

/// The files a `policy` or `data` list names, read: each entry a path
/// (relative to the config file) whose file name may hold `*` and `?`.
fn read_files(
    at: &Locator<'_>,
    base: Option<&Path>,
    list: Option<&Spanned<Vec<String>>>,
    key: &str,
    extension: &str,
) -> Result<Vec<(String, String)>, ConfigError> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let error = |message: String| at.error(list.span(), key, message);
    let mut out = Vec::new();
    for entry in list.get_ref() {
        let path = resolve(base, entry);
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let paths = if name.contains(['*', '?', '[']) {
            let dir = path.parent().unwrap_or(Path::new("."));
            let glob = globset::Glob::new(name)
                .map_err(|err| error(format!("`{entry}`: {err}")))?
                .compile_matcher();
            let mut found: Vec<PathBuf> = list_dir(dir)
                .map_err(|err| error(format!("`{entry}`: {}: {err}", dir.display())))?
                .into_iter()
                .filter(|p| p.file_name().is_some_and(|n| glob.is_match(n)))
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(error(format!("`{entry}` matches no file")));
            }
            found
        } else {
            vec![path]
        };
        for path in paths {
            if out.len() == MAX_FILES {
                return Err(error(format!("more than {MAX_FILES} files")));
            }
            let text = hookgate_transport::files::read_to_string(&path, MAX_FILE_BYTES)
                .map_err(|err| error(format!("{}: {err}", path.display())))?;
            if path.extension().and_then(|e| e.to_str()) != Some(extension) {
                return Err(error(format!(
                    "{}: expected a .{extension} file",
                    path.display()
                )));
            }
            out.push((path.display().to_string(), text));
        }
    }
    Ok(out)
}

fn list_dir(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::read_dir(dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect()
}
