//! Checks of single values: endpoints, audit paths. Each
//! error points at the value it rejects.

use std::net::SocketAddr;
use std::ops::Range;
use std::path::PathBuf;

use toml::Spanned;

use hookgate_wire::socket::{PIPE_PREFIX, is_pipe_name};

use super::Env;
use super::error::{ConfigError, Locator};
use super::raw::RawAddr;

/// What the platform the gateway runs on can use: Unix sockets (for
/// `unix://` endpoints, and as its own socket) or, on Windows, named pipes.
/// A parameter rather than a `cfg` so both sides are tested everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Platform {
    Unix,
    Windows,
}

impl Platform {
    pub(super) const CURRENT: Platform = if cfg!(windows) {
        Platform::Windows
    } else {
        Platform::Unix
    };
}

/// `server.socket`: an absolute path on Unix, a pipe name on Windows.
pub(super) fn check_socket(
    at: &Locator<'_>,
    socket: &Spanned<String>,
    key: &str,
    platform: Platform,
) -> Result<PathBuf, ConfigError> {
    let value = socket.get_ref();
    match platform {
        Platform::Unix if !value.starts_with('/') => {
            Err(at.error(socket.span(), key, "must be an absolute path"))
        }
        Platform::Windows if !is_pipe_name(value) => Err(at.error(
            socket.span(),
            key,
            format!("on Windows the socket is a named pipe: `{PIPE_PREFIX}NAME`"),
        )),
        _ => Ok(PathBuf::from(value)),
    }
}

pub(super) fn check_endpoint(
    at: &Locator<'_>,
    value: &str,
    span: Range<usize>,
    key: &str,
    platform: Platform,
) -> Result<String, ConfigError> {
    let bad = |why: &str| at.error(span.clone(), key, format!("bad endpoint `{value}`: {why}"));
    if let Some(path) = value.strip_prefix("unix://") {
        if platform == Platform::Windows {
            return Err(bad(
                "`unix://` endpoints are Unix-only; on Windows use `http://host:port`",
            ));
        }
        if !path.starts_with('/') || path.len() < 2 {
            return Err(bad("a unix endpoint is `unix:///absolute/path`"));
        }
        return Ok(value.to_owned());
    }
    let Some(rest) = value
        .strip_prefix("http://")
        .or_else(|| value.strip_prefix("https://"))
    else {
        return Err(bad(
            "expected `http://host:port`, `https://host:port` or `unix:///absolute/path`",
        ));
    };
    if rest.is_empty() || rest.starts_with('/') {
        return Err(bad("missing host"));
    }
    tonic::transport::Endpoint::from_shared(value.to_owned())
        .map_err(|err| bad(&err.to_string()))?;
    Ok(value.to_owned())
}

pub(super) fn audit_path(
    at: &Locator<'_>,
    env: &Env,
    raw: Option<Spanned<String>>,
    key: &str,
    name_span: Range<usize>,
) -> Result<PathBuf, ConfigError> {
    let Some(raw) = raw else {
        return env.default_audit_path().ok_or_else(|| {
            at.error(
                name_span,
                key,
                "no default audit path: neither $XDG_STATE_HOME nor $HOME is set; set `path`",
            )
        });
    };
    file_path(at, env, &raw, key)
}

/// A file path setting: absolute, or `~/…` under `$HOME`.
pub(super) fn file_path(
    at: &Locator<'_>,
    env: &Env,
    raw: &Spanned<String>,
    key: &str,
) -> Result<PathBuf, ConfigError> {
    let value = raw.get_ref();
    let path = match value.strip_prefix("~/") {
        Some(rest) => match &env.home {
            Some(home) => home.join(rest),
            None => return Err(at.error(raw.span(), key, "`~` used but $HOME is not set")),
        },
        None => PathBuf::from(value),
    };
    if !path.is_absolute() || path.file_name().is_none() {
        return Err(at.error(
            raw.span(),
            key,
            "must be an absolute file path (or start with `~/`)",
        ));
    }
    Ok(path)
}

/// `server.metrics_addr`: `"HOST:PORT"` (an IP address), or a port alone,
/// which means loopback (`127.0.0.1`): the endpoint has no
/// authentication, so only an explicit address exposes it further.
pub(super) fn check_metrics_addr(
    at: &Locator<'_>,
    raw: &Spanned<RawAddr>,
    key: &str,
) -> Result<SocketAddr, ConfigError> {
    match raw.get_ref() {
        RawAddr::Port(port) => u16::try_from(*port)
            .map(|port| SocketAddr::from(([127, 0, 0, 1], port)))
            .map_err(|_| at.error(raw.span(), key, format!("{port} is not a port (0..=65535)"))),
        RawAddr::Addr(text) => text.parse().map_err(|_| {
            at.error(
                raw.span(),
                key,
                format!(
                    "`{text}` is not an IP address with a port (e.g. \"127.0.0.1:9464\"), nor a port"
                ),
            )
        }),
    }
}

pub(super) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
