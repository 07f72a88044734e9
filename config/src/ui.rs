//! `[ui]`: the local web console (off unless the section is present).
//!
//! Loopback only: the console shows what the agents did (masked) and can
//! approve held calls, so no other host may ever reach it; the browser
//! side is guarded by a login token, a session cookie and a CSRF header
//! (`daemon/src/console`).

use std::net::SocketAddr;

use serde::Deserialize;
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::numbers::int_or;

/// Live streams (browser tabs) open at once by default.
const DEFAULT_MAX_CLIENTS: usize = 8;

/// `[ui]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUi {
    listen: Spanned<String>,
    max_clients: Option<Spanned<i64>>,
}

/// `[ui]`, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UiConfig {
    /// A loopback address (port 0: any free port).
    pub listen: SocketAddr,
    /// Live streams open at once; past it a new one is refused (503).
    pub max_clients: usize,
}

pub(super) fn ui(at: &Locator<'_>, raw: RawUi) -> Result<UiConfig, ConfigError> {
    let listen: SocketAddr = raw.listen.get_ref().parse().map_err(|_| {
        at.error(
            raw.listen.span(),
            "ui.listen",
            format!(
                "`{}` is not an IP address with a port (e.g. \"127.0.0.1:8788\")",
                raw.listen.get_ref()
            ),
        )
    })?;
    if !listen.ip().is_loopback() {
        return Err(at.error(
            raw.listen.span(),
            "ui.listen",
            format!(
                "{listen} is not a loopback address: the console serves this machine only \
                 (use 127.0.0.1 or [::1])"
            ),
        ));
    }
    let max_clients = int_or(
        at,
        raw.max_clients.as_ref(),
        "ui.max_clients",
        1..=64,
        DEFAULT_MAX_CLIENTS,
    )?;
    Ok(UiConfig {
        listen,
        max_clients,
    })
}

#[cfg(test)]
mod tests {
    use crate::{Config, Env};

    /// The `[ui]` body, and the address and client cap it gives or the
    /// words its error must contain.
    type Case = (&'static str, Result<(&'static str, usize), &'static str>);

    #[test]
    fn only_loopback_addresses_with_a_port() {
        let cases: [Case; 6] = [
            ("listen = \"127.0.0.1:8788\"", Ok(("127.0.0.1:8788", 8))),
            ("listen = \"[::1]:0\"\nmax_clients = 2", Ok(("[::1]:0", 2))),
            ("listen = \"0.0.0.0:8788\"", Err("not a loopback address")),
            ("listen = \"192.168.1.2:80\"", Err("not a loopback address")),
            ("listen = \"localhost:8788\"", Err("not an IP address")),
            (
                "listen = \"127.0.0.1:1\"\nmax_clients = 0",
                Err("out of range"),
            ),
        ];
        for (section, expected) in cases {
            let text = format!("[ui]\n{section}\n");
            let parsed = Config::parse("t.toml", &text, &Env::default());
            match (parsed, expected) {
                (Ok(config), Ok((addr, max))) => {
                    let ui = config.ui.expect("[ui] parsed");
                    assert_eq!(ui.listen.to_string(), addr, "{section}");
                    assert_eq!(ui.max_clients, max, "{section}");
                }
                (Err(err), Err(needle)) => {
                    let text = err.to_string();
                    assert!(
                        text.contains(needle) && text.contains("ui."),
                        "{section}: {text}"
                    );
                }
                (parsed, expected) => panic!("{section}: {parsed:?} vs {expected:?}"),
            }
        }
        let none = Config::parse("t.toml", "", &Env::default()).unwrap();
        assert!(none.ui.is_none(), "off by default");
    }
}
