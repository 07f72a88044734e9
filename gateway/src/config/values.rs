//! Checks of single values: endpoints, audit paths, guard rules. Each
//! error points at the value it rejects.

use std::ops::Range;
use std::path::PathBuf;

use toml::Spanned;

use hookgate_wire::socket::{PIPE_PREFIX, is_pipe_name};

use super::Env;
use super::error::{ConfigError, Locator};
use super::raw::RawRule;
use crate::builtin::guard::{Rule, Target};

/// Longest regex source accepted, and the compiled-size cap, so a config
/// cannot make the hook path slow.
const MAX_REGEX_LEN: usize = 4096;
const REGEX_SIZE_LIMIT: usize = 1 << 20;

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
    endpoint: &Spanned<String>,
    key: &str,
    platform: Platform,
) -> Result<String, ConfigError> {
    let value = endpoint.get_ref();
    let bad = |why: &str| {
        at.error(
            endpoint.span(),
            key,
            format!("bad endpoint `{value}`: {why}"),
        )
    };
    if let Some(path) = value.strip_prefix("unix://") {
        if platform == Platform::Windows {
            return Err(bad(
                "`unix://` endpoints are Unix-only; on Windows use `http://host:port`",
            ));
        }
        if !path.starts_with('/') || path.len() < 2 {
            return Err(bad("a unix endpoint is `unix:///absolute/path`"));
        }
        return Ok(value.clone());
    }
    let Some(rest) = value.strip_prefix("http://") else {
        return Err(bad(
            "expected `http://host:port` or `unix:///absolute/path` (TLS is not supported)",
        ));
    };
    if rest.is_empty() || rest.starts_with('/') {
        return Err(bad("missing host"));
    }
    tonic::transport::Endpoint::from_shared(value.clone()).map_err(|err| bad(&err.to_string()))?;
    Ok(value.clone())
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

pub(super) fn guard_rule(at: &Locator<'_>, rule: RawRule, key: &str) -> Result<Rule, ConfigError> {
    let targets = [
        (Target::Shell, rule.shell),
        (Target::FilePath, rule.file_path),
        (Target::McpTool, rule.mcp_tool),
    ];
    let mut present = targets.into_iter().filter_map(|(t, p)| p.map(|p| (t, p)));
    let Some((target, pattern)) = present.next() else {
        return Err(at.error(
            rule.reason.span(),
            key,
            "a rule needs one of `shell`, `file_path` or `mcp_tool`",
        ));
    };
    if let Some((other, extra)) = present.next() {
        return Err(at.error(
            extra.span(),
            format!("{key}.{}", other.as_str()),
            format!(
                "a rule has exactly one target; write a second rule for `{}`",
                other.as_str()
            ),
        ));
    }
    let pattern_key = format!("{key}.{}", target.as_str());
    if pattern.get_ref().len() > MAX_REGEX_LEN {
        return Err(at.error(
            pattern.span(),
            pattern_key,
            format!("regex longer than {MAX_REGEX_LEN} bytes"),
        ));
    }
    let regex = regex::RegexBuilder::new(pattern.get_ref())
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
        .map_err(|err| {
            at.error(
                pattern.span(),
                pattern_key,
                format!("bad regex: {}", one_line(&err.to_string())),
            )
        })?;
    if rule.reason.get_ref().trim().is_empty() {
        return Err(at.error(
            rule.reason.span(),
            format!("{key}.reason"),
            "must not be empty",
        ));
    }
    Ok(Rule {
        target,
        pattern: regex,
        reason: rule.reason.into_inner(),
    })
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
