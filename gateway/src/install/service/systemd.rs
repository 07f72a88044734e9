//! The systemd user units: `hookgate.socket` listens on the socket the
//! hooks pin, and the first connection starts `hookgate.service` (`gateway
//! serve`, which takes the inherited socket: `transport::activation`). After
//! a reboot or a logout nothing runs until an agent's first hook call.
//!
//! With `[http]` on, `hookgate-http.socket` holds the HTTP hook port the
//! same way: the user manager listens on it from the moment it starts (at
//! login; at boot with `loginctl enable-linger`), so no other local user
//! can take the port while the gateway is not running, and the first HTTP
//! hook call starts the gateway, which takes the port over.

use std::net::SocketAddr;
use std::path::Path;

use super::{MARKER, Unit};

/// The socket unit's file name.
pub(crate) const SOCKET_UNIT: &str = "hookgate.socket";
/// The service unit's file name.
pub(crate) const SERVICE_UNIT: &str = "hookgate.service";
/// The HTTP hook port's socket unit file name.
pub(crate) const HTTP_SOCKET_UNIT: &str = "hookgate-http.socket";
/// Where user units live, under the config directory
/// (`$XDG_CONFIG_HOME`, else `~/.config`): where the user manager looks.
pub(crate) const UNIT_DIR: &str = "systemd/user";

/// The unit files for `gateway` serving `socket` and, if `http`, the HTTP
/// hook port at that address.
pub(crate) fn units(gateway: &Path, socket: &Path, http: Option<SocketAddr>) -> Vec<Unit> {
    let sockets = match http {
        Some(_) => format!("{SOCKET_UNIT} {HTTP_SOCKET_UNIT}"),
        None => SOCKET_UNIT.to_owned(),
    };
    // Only wanted: when another user took the port before the user
    // manager started, the HTTP socket fails but the service still starts
    // for the shims (and the gateway names who holds the port).
    let wants = match http {
        Some(_) => format!("Wants={HTTP_SOCKET_UNIT}\n"),
        None => String::new(),
    };
    let socket_text = format!(
        "{MARKER}
[Unit]
Description=hookgate gateway socket (the first hook call starts the gateway)
Documentation=man:gateway(1)

[Socket]
ListenStream={socket}
FileDescriptorName=hookgate
SocketMode=0600
DirectoryMode=0700
RemoveOnStop=yes

[Install]
WantedBy=sockets.target
",
        socket = escape_value(&socket.display().to_string()),
    );
    let service_text = format!(
        "{MARKER}
[Unit]
Description=hookgate gateway (policy for coding agents' hooks)
Documentation=man:gateway(1)
Requires={SOCKET_UNIT}
{wants}After={sockets}

[Service]
Type=simple
Sockets={sockets}
ExecStart={gateway} serve --socket {socket}
# Drains in-flight hook calls on SIGTERM; config changes are picked up
# without a restart (file watch, `gateway reload`).
Restart=on-failure
RestartSec=1

[Install]
Also={sockets}
",
        gateway = quote_arg(&gateway.display().to_string()),
        socket = quote_arg(&socket.display().to_string()),
    );
    let mut units = vec![
        Unit {
            name: SOCKET_UNIT,
            text: socket_text,
        },
        Unit {
            name: SERVICE_UNIT,
            text: service_text,
        },
    ];
    if let Some(addr) = http {
        units.push(Unit {
            name: HTTP_SOCKET_UNIT,
            text: http_socket(addr),
        });
    }
    units
}

/// `hookgate-http.socket`: the HTTP hook port, held by the user manager.
fn http_socket(addr: SocketAddr) -> String {
    format!(
        "{MARKER}
[Unit]
Description=hookgate HTTP hook port (held from login: no other user can take it; the first call starts the gateway)
Documentation=man:gateway(1)

[Socket]
ListenStream={addr}
FileDescriptorName=hookgate-http
Service={SERVICE_UNIT}
BindIPv6Only=ipv6-only
NoDelay=yes

[Install]
WantedBy=sockets.target
"
    )
}

/// A value with systemd's `%` specifiers escaped.
fn escape_value(text: &str) -> String {
    text.replace('%', "%%")
}

/// One `ExecStart=` argument: double-quoted, with `\`, `"`, `%` and `$`
/// escaped, so a path with spaces or specials is one literal word.
fn quote_arg(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '\\' => quoted.push_str("\\\\"),
            '"' => quoted.push_str("\\\""),
            '%' => quoted.push_str("%%"),
            '$' => quoted.push_str("$$"),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of `lines` is a whole line of the unit `text`.
    fn assert_has_lines(text: &str, lines: &[&str]) {
        for line in lines {
            assert!(text.lines().any(|l| l == *line), "{line}\n{text}");
        }
    }

    /// Self-protection denies stopping, killing or disabling these units.
    #[test]
    fn self_protection_knows_the_units() {
        for unit in [SOCKET_UNIT, SERVICE_UNIT, HTTP_SOCKET_UNIT] {
            assert!(hookgate_daemon::protect::UNITS.contains(&unit), "{unit}");
        }
        assert!(
            hookgate_daemon::protect::LABELS.contains(&super::super::launchd::LABEL),
            "launchd"
        );
    }

    #[test]
    fn the_socket_unit_listens_where_the_hooks_point() {
        let units = units(
            Path::new("/home/ada/.cargo/bin/gateway"),
            Path::new("/run/user/1000/hookgate/gateway.sock"),
            None,
        );
        let [socket, service] = units.as_slice() else {
            panic!("two units")
        };
        assert_eq!(socket.name, "hookgate.socket");
        assert_has_lines(
            &socket.text,
            &[
                "ListenStream=/run/user/1000/hookgate/gateway.sock",
                "FileDescriptorName=hookgate",
                "SocketMode=0600",
                "DirectoryMode=0700",
                "WantedBy=sockets.target",
            ],
        );
        assert_eq!(service.name, "hookgate.service");
        assert_has_lines(
            &service.text,
            &[
                r#"ExecStart="/home/ada/.cargo/bin/gateway" serve --socket "/run/user/1000/hookgate/gateway.sock""#,
                "Requires=hookgate.socket",
                "Sockets=hookgate.socket",
                "Also=hookgate.socket",
            ],
        );
        assert!(socket.text.starts_with(MARKER) && service.text.starts_with(MARKER));
    }

    #[test]
    fn the_http_port_is_held_by_its_own_socket_unit() {
        let units = units(
            Path::new("/usr/bin/gateway"),
            Path::new("/run/user/1000/hookgate/gateway.sock"),
            Some("127.0.0.1:8787".parse().unwrap()),
        );
        let [_, service, http] = units.as_slice() else {
            panic!("three units: {units:?}")
        };
        assert_eq!(http.name, "hookgate-http.socket");
        assert!(http.text.starts_with(MARKER));
        assert_has_lines(
            &http.text,
            &[
                "ListenStream=127.0.0.1:8787",
                "FileDescriptorName=hookgate-http",
                "Service=hookgate.service",
                "WantedBy=sockets.target",
            ],
        );
        assert_has_lines(
            &service.text,
            &[
                "Requires=hookgate.socket",
                "Wants=hookgate-http.socket",
                "After=hookgate.socket hookgate-http.socket",
                "Sockets=hookgate.socket hookgate-http.socket",
                "Also=hookgate.socket hookgate-http.socket",
            ],
        );
        let v6 = super::units(
            Path::new("/g"),
            Path::new("/s"),
            Some("[::1]:8787".parse().unwrap()),
        );
        assert_has_lines(&v6[2].text, &["ListenStream=[::1]:8787"]);
    }

    #[test]
    fn paths_are_literal_words() {
        let cases = [
            ("/opt/my tools/gateway", r#""/opt/my tools/gateway""#),
            ("/o/100%/g$HOME", r#""/o/100%%/g$$HOME""#),
            (r#"/o/a"b\c"#, r#""/o/a\"b\\c""#),
        ];
        for (path, expected) in cases {
            assert_eq!(quote_arg(path), expected);
        }
        assert_eq!(escape_value("/run/%t/x"), "/run/%%t/x");
    }
}
