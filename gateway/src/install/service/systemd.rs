//! The systemd user units: `hookgate.socket` listens on the socket the
//! hooks pin, and the first connection starts `hookgate.service` (`gateway
//! serve`, which takes the inherited socket: `transport::activation`). After
//! a reboot or a logout nothing runs until an agent's first hook call.

use std::path::Path;

use super::{MARKER, Unit};

/// The socket unit's file name.
pub(crate) const SOCKET_UNIT: &str = "hookgate.socket";
/// The service unit's file name.
pub(crate) const SERVICE_UNIT: &str = "hookgate.service";
/// Where user units live, under the config directory
/// (`$XDG_CONFIG_HOME`, else `~/.config`): where the user manager looks.
pub(crate) const UNIT_DIR: &str = "systemd/user";

/// The two unit files for `gateway` serving `socket`.
pub(crate) fn units(gateway: &Path, socket: &Path) -> Vec<Unit> {
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
After={SOCKET_UNIT}

[Service]
Type=simple
ExecStart={gateway} serve --socket {socket}
# Drains in-flight hook calls on SIGTERM; config changes are picked up
# without a restart (file watch, `gateway reload`).
Restart=on-failure
RestartSec=1

[Install]
Also={SOCKET_UNIT}
",
        gateway = quote_arg(&gateway.display().to_string()),
        socket = quote_arg(&socket.display().to_string()),
    );
    vec![
        Unit {
            name: SOCKET_UNIT,
            text: socket_text,
        },
        Unit {
            name: SERVICE_UNIT,
            text: service_text,
        },
    ]
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

    #[test]
    fn the_socket_unit_listens_where_the_hooks_point() {
        let units = units(
            Path::new("/home/ada/.cargo/bin/gateway"),
            Path::new("/run/user/1000/hookgate/gateway.sock"),
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
                "Also=hookgate.socket",
            ],
        );
        assert!(socket.text.starts_with(MARKER) && service.text.starts_with(MARKER));
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
