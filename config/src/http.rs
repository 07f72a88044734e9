//! `[http]`: the HTTP hook endpoint (off unless the section is present).
//!
//! Loopback only: an agent's HTTP hook carries the whole payload, and the
//! token is the only thing a non-Linux kernel lets the gateway check, so
//! no other host may ever reach it.

use std::net::SocketAddr;

use serde::Deserialize;
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::numbers::int_or;

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
    let max_open = int_or(
        at,
        raw.max_open_connections.as_ref(),
        "http.max_open_connections",
        1..=65_536,
        DEFAULT_MAX_OPEN,
    )?;
    Ok(HttpConfig { listen, max_open })
}

#[cfg(test)]
mod tests {
    use crate::{Config, Env};

    /// The `[http]` body, and the address and connection cap it gives or
    /// the words its error must contain.
    type Case = (&'static str, Result<(&'static str, usize), &'static str>);

    #[test]
    fn only_loopback_addresses_with_a_port() {
        let cases: [Case; 7] = [
            ("listen = \"127.0.0.1:8787\"", Ok(("127.0.0.1:8787", 64))),
            (
                "listen = \"[::1]:0\"\nmax_open_connections = 8",
                Ok(("[::1]:0", 8)),
            ),
            ("listen = \"0.0.0.0:8787\"", Err("not a loopback address")),
            ("listen = \"10.1.2.3:8787\"", Err("not a loopback address")),
            ("listen = \"localhost:8787\"", Err("not an IP address")),
            ("listen = \"127.0.0.1\"", Err("not an IP address")),
            (
                "listen = \"127.0.0.1:1\"\nmax_open_connections = 0",
                Err("out of range"),
            ),
        ];
        for (section, expected) in cases {
            let text = format!("[http]\n{section}\n");
            let parsed = Config::parse("t.toml", &text, &Env::default());
            match (parsed, expected) {
                (Ok(config), Ok((addr, max_open))) => {
                    let http = config.http.expect("[http] parsed");
                    assert_eq!(http.listen.to_string(), addr, "{section}");
                    assert_eq!(http.max_open, max_open, "{section}");
                }
                (Err(err), Err(needle)) => {
                    let text = err.to_string();
                    assert!(
                        text.contains(needle) && text.contains("http."),
                        "{section}: {text}"
                    );
                }
                (parsed, expected) => panic!("{section}: {parsed:?} vs {expected:?}"),
            }
        }
        let none = Config::parse("t.toml", "", &Env::default()).unwrap();
        assert!(none.http.is_none(), "off by default");
    }
}
