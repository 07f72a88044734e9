//! How a remote subscriber is reached: its endpoints, TLS files and
//! token source, checked where they are written.
//!
//! Rules: one endpoint or a list of them, all of one scheme; `tls_*` keys
//! only with `https://`; a client certificate with its key; a token from
//! `token_file` or `token_env` (never the config text itself), and only
//! over TLS (`https://`) or to a Unix socket (`unix://`, whose server's uid
//! the dialer checks): never over plaintext TCP, loopback included, since
//! every local user shares loopback and any of them may listen on a port
//! its service left free, then read the token and every event.

use std::path::PathBuf;

use toml::Spanned;

use super::Env;
use super::error::{ConfigError, Locator};
use super::raw::{RawEndpoints, RawSubscriber};
use super::values::{Platform, check_endpoint, file_path};

/// Most endpoints one subscriber may list.
const MAX_ENDPOINTS: usize = 16;

/// A remote subscriber's connection settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Connection {
    /// At least one, all of one scheme; calls are balanced over them and
    /// fail over inside the call's deadline.
    pub endpoints: Vec<String>,
    /// `Some` exactly for `https://` endpoints.
    pub tls: Option<TlsFiles>,
    pub token: Option<TokenSource>,
}

/// `tls_*`: `None` fields take the defaults (system roots, no client
/// certificate, the endpoint's host as server name).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsFiles {
    pub ca_file: Option<PathBuf>,
    pub cert_file: Option<PathBuf>,
    pub key_file: Option<PathBuf>,
    pub server_name: Option<String>,
}

/// Where the bearer token comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenSource {
    File(PathBuf),
    Env(String),
}

/// The connection settings of a remote subscriber whose `endpoint` is
/// `endpoint`.
pub(super) fn connection(
    at: &Locator<'_>,
    env: &Env,
    endpoint: &Spanned<RawEndpoints>,
    raw: &RawSubscriber,
    key: &dyn Fn(&str) -> String,
) -> Result<Connection, ConfigError> {
    let span = endpoint.span();
    let list: Vec<&str> = match endpoint.get_ref() {
        RawEndpoints::One(one) => vec![one.as_str()],
        RawEndpoints::Many(many) => many.iter().map(String::as_str).collect(),
    };
    if list.is_empty() || list.len() > MAX_ENDPOINTS {
        return Err(at.error(
            span,
            key("endpoint"),
            format!("list 1 to {MAX_ENDPOINTS} endpoints"),
        ));
    }
    let endpoints = list
        .iter()
        .map(|e| check_endpoint(at, e, span.clone(), &key("endpoint"), Platform::CURRENT))
        .collect::<Result<Vec<_>, _>>()?;
    let scheme = |e: &str| e.split_once("://").map_or("", |(s, _)| s).to_owned();
    let first = scheme(&endpoints[0]);
    if endpoints.iter().any(|e| scheme(e) != first) {
        return Err(at.error(
            span,
            key("endpoint"),
            "all endpoints of one subscriber must use the same scheme",
        ));
    }
    let tls = if first == "https" {
        Some(tls_files(at, env, raw, key)?)
    } else {
        no_tls(at, raw, key)?;
        None
    };
    let token = token(at, env, raw, key)?;
    if token.is_some() && first == "http" {
        let field = raw.token_file.as_ref().or(raw.token_env.as_ref());
        return Err(at.error(
            field.map_or(span, Spanned::span),
            key(if raw.token_file.is_some() { "token_file" } else { "token_env" }),
            "a token is never sent over plaintext `http://`, not even to loopback: another local user \
             who listens on the port while the subscriber is down would get it (and every event). \
             Use `https://` (TLS) or `unix://` (the server's uid is checked)",
        ));
    }
    Ok(Connection {
        endpoints,
        tls,
        token,
    })
}

/// The `tls_*` keys of an `https://` subscriber.
fn tls_files(
    at: &Locator<'_>,
    env: &Env,
    raw: &RawSubscriber,
    key: &dyn Fn(&str) -> String,
) -> Result<TlsFiles, ConfigError> {
    let path = |field: &Option<Spanned<String>>, name: &str| {
        field
            .as_ref()
            .map(|raw| file_path(at, env, raw, &key(name)))
            .transpose()
    };
    match (&raw.tls_cert_file, &raw.tls_key_file) {
        (Some(cert), None) => {
            return Err(at.error(
                cert.span(),
                key("tls_cert_file"),
                "needs `tls_key_file` too",
            ));
        }
        (None, Some(k)) => {
            return Err(at.error(k.span(), key("tls_key_file"), "needs `tls_cert_file` too"));
        }
        _ => {}
    }
    if let Some(name) = &raw.tls_server_name {
        let value = name.get_ref();
        if value.is_empty()
            || value.len() > 253
            || !value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-.:[]".contains(c))
        {
            return Err(at.error(name.span(), key("tls_server_name"), "not a host name"));
        }
    }
    Ok(TlsFiles {
        ca_file: path(&raw.tls_ca_file, "tls_ca_file")?,
        cert_file: path(&raw.tls_cert_file, "tls_cert_file")?,
        key_file: path(&raw.tls_key_file, "tls_key_file")?,
        server_name: raw.tls_server_name.as_ref().map(|s| s.get_ref().clone()),
    })
}

/// A plaintext subscriber has no `tls_*` key.
fn no_tls(
    at: &Locator<'_>,
    raw: &RawSubscriber,
    key: &dyn Fn(&str) -> String,
) -> Result<(), ConfigError> {
    let tls_keys = [
        (&raw.tls_ca_file, "tls_ca_file"),
        (&raw.tls_cert_file, "tls_cert_file"),
        (&raw.tls_key_file, "tls_key_file"),
        (&raw.tls_server_name, "tls_server_name"),
    ];
    for (field, name) in tls_keys {
        if let Some(value) = field {
            return Err(at.error(
                value.span(),
                key(name),
                "only `https://` endpoints use TLS settings",
            ));
        }
    }
    Ok(())
}

/// `token_file` or `token_env` (a variable's name, never the token).
fn token(
    at: &Locator<'_>,
    env: &Env,
    raw: &RawSubscriber,
    key: &dyn Fn(&str) -> String,
) -> Result<Option<TokenSource>, ConfigError> {
    secret_source(
        at,
        env,
        (raw.token_file.as_ref(), &key("token_file")),
        (raw.token_env.as_ref(), &key("token_env")),
        "token",
    )
}

/// A secret's source from a pair of keys: a file, or the name of an
/// environment variable (never the secret, `what`, itself); not both.
pub(super) fn secret_source(
    at: &Locator<'_>,
    env: &Env,
    (file, file_key): (Option<&Spanned<String>>, &str),
    (var, env_key): (Option<&Spanned<String>>, &str),
    what: &str,
) -> Result<Option<TokenSource>, ConfigError> {
    Ok(match (file, var) {
        (Some(_), Some(var)) => {
            let file_name = file_key.rsplit('.').next().unwrap_or(file_key);
            let env_name = env_key.rsplit('.').next().unwrap_or(env_key);
            return Err(at.error(
                var.span(),
                env_key,
                format!("set `{file_name}` or `{env_name}`, not both"),
            ));
        }
        (Some(file), None) => Some(TokenSource::File(file_path(at, env, file, file_key)?)),
        (None, Some(var)) => {
            let name = var.get_ref();
            let valid = !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(at.error(
                    var.span(),
                    env_key,
                    format!("the name of an environment variable (A-Z a-z 0-9 _), not the {what}"),
                ));
            }
            Some(TokenSource::Env(name.clone()))
        }
        (None, None) => None,
    })
}

/// The keys only a remote subscriber has, for the built-ins' refusal.
pub(super) fn remote_only_keys(
    raw: &RawSubscriber,
) -> [(&Option<Spanned<String>>, &'static str); 6] {
    [
        (&raw.tls_ca_file, "tls_ca_file"),
        (&raw.tls_cert_file, "tls_cert_file"),
        (&raw.tls_key_file, "tls_key_file"),
        (&raw.tls_server_name, "tls_server_name"),
        (&raw.token_file, "token_file"),
        (&raw.token_env, "token_env"),
    ]
}
