//! `[http]`: the HTTP hook endpoint (off unless the section is present).
//!
//! Loopback only: an agent's HTTP hook carries the whole payload, and the
//! token is the only thing a non-Linux kernel lets the gateway check, so
//! no other host may ever reach it.

use std::net::SocketAddr;

use serde::Deserialize;
use toml::Spanned;

use super::error::{ConfigError, Locator};

/// Connections open at once on the endpoint by default: agents keep one
/// alive per hook process at most, so a few dozen is plenty.
const DEFAULT_MAX_OPEN: usize = 64;

/// `[http]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHttp {
    listen: Spanned<String>,
    max_open_connections: Option<Spanned<i64>>,
}

/// `[http]`, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpConfig {
    /// A loopback address (port 0: any free port).
    pub listen: SocketAddr,
    /// Connections open at once (idle keep-alive ones included); past it a
    /// new connection is closed at once.
    pub max_open: usize,
}

pub(super) fn http(at: &Locator<'_>, raw: RawHttp) -> Result<HttpConfig, ConfigError> {
    let listen: SocketAddr = raw.listen.get_ref().parse().map_err(|_| {
        at.error(
            raw.listen.span(),
            "http.listen",
            format!(
                "`{}` is not an IP address with a port (e.g. \"127.0.0.1:8787\")",
                raw.listen.get_ref()
            ),
        )
    })?;
    if !listen.ip().is_loopback() {
        return Err(at.error(
            raw.listen.span(),
            "http.listen",
            format!(
                "{listen} is not a loopback address: the HTTP hook endpoint serves this machine only \
                 (use 127.0.0.1 or [::1])"
            ),
        ));
    }
    let max_open = match raw.max_open_connections {
        None => DEFAULT_MAX_OPEN,
        Some(v) => {
            let n = *v.get_ref();
            if !(1..=65_536).contains(&n) {
                return Err(at.error(
                    v.span(),
                    "http.max_open_connections",
                    format!("{n} is out of range 1..=65536"),
                ));
            }
            usize::try_from(n).unwrap_or(DEFAULT_MAX_OPEN)
        }
    };
    Ok(HttpConfig { listen, max_open })
}
