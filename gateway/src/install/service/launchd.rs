//! The macOS launchd agent: `~/Library/LaunchAgents/dev.hookgate.gateway.plist`
//! runs `gateway serve` at login and again if it fails. launchd's own
//! socket activation (`launch_activate_socket`) is not the systemd
//! protocol, so the agent starts the gateway at load instead; the shim's
//! autostart still covers the moments it is not running.
//!
//! Generated here and unit-tested for content: no macOS in CI.

use std::path::Path;

use super::{MARKER, Unit};

/// The agent's label and file name stem.
pub(crate) const LABEL: &str = "dev.hookgate.gateway";
/// Where user agents live, relative to HOME.
pub(crate) const AGENT_DIR: &str = "Library/LaunchAgents";

/// The plist for `gateway` serving `socket`, logging to `log`.
pub(crate) fn unit(gateway: &Path, socket: &Path, log: &Path) -> Unit {
    let args = [
        gateway.display().to_string(),
        "serve".to_owned(),
        "--socket".to_owned(),
        socket.display().to_string(),
    ];
    let args: String = args
        .iter()
        .map(|arg| format!("        <string>{}</string>\n", escape(arg)))
        .collect();
    // The marker is an XML comment here: the plist must start with the
    // declaration, so it goes right after it.
    let marker = MARKER.trim_start_matches("# ");
    let text = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- {marker} -->
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
    <key>Label</key>
    <string>{LABEL}</string>
    <key>ProgramArguments</key>
    <array>
{args}    </array>
    <key>RunAtLoad</key>
    <true/>
    <key>KeepAlive</key>
    <dict>
        <key>SuccessfulExit</key>
        <false/>
    </dict>
    <key>ProcessType</key>
    <string>Background</string>
    <key>StandardErrorPath</key>
    <string>{log}</string>
</dict>
</plist>
"#,
        log = escape(&log.display().to_string()),
    );
    Unit {
        name: "dev.hookgate.gateway.plist",
        text,
    }
}

/// `text` as XML character data.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agent_runs_the_gateway_on_the_pinned_socket() {
        let unit = unit(
            Path::new("/Users/ada/.cargo/bin/gateway"),
            Path::new("/Users/ada/Library/Caches/hookgate/a&b/gateway.sock"),
            Path::new("/Users/ada/Library/Logs/hookgate/gateway.log"),
        );
        assert_eq!(unit.name, format!("{LABEL}.plist"));
        let text = &unit.text;
        assert!(text.starts_with("<?xml version=\"1.0\""), "{text}");
        assert!(text.contains(MARKER.trim_start_matches("# ")), "{text}");
        let expected_args = "    <array>
        <string>/Users/ada/.cargo/bin/gateway</string>
        <string>serve</string>
        <string>--socket</string>
        <string>/Users/ada/Library/Caches/hookgate/a&amp;b/gateway.sock</string>
    </array>";
        assert!(text.contains(expected_args), "{text}");
        for part in [
            "<key>Label</key>\n    <string>dev.hookgate.gateway</string>",
            "<key>RunAtLoad</key>\n    <true/>",
            "<key>SuccessfulExit</key>\n        <false/>",
            "<string>/Users/ada/Library/Logs/hookgate/gateway.log</string>",
        ] {
            assert!(text.contains(part), "{part}\n{text}");
        }
        // Balanced: every element opened is closed.
        for tag in ["dict", "array", "plist"] {
            assert_eq!(
                text.matches(&format!("<{tag}")).count(),
                text.matches(&format!("</{tag}>")).count(),
                "{tag}"
            );
        }
    }
}
