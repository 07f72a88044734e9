//! The hook command install writes into every agent's config.
//!
//! One shell command line, the same for every agent but its hint:
//!
//! ```text
//! HOOKGATE_SOCKET='/run/user/1000/hookgate/gateway.sock' HOOKGATE_AUTOSTART=1 \
//!   HOOKGATE_GATEWAY='/home/ada/.cargo/bin/gateway' '/home/ada/.local/bin/gateway-shim' claude-code
//! ```
//!
//! - the shim by its **absolute path**, so the agent's PATH cannot lose it;
//! - the socket **pinned** to the one the gateway resolves at install time,
//!   so an agent started without `XDG_RUNTIME_DIR` (cron, sudo, ssh) still
//!   reaches the same gateway;
//! - autostart on, with the gateway binary's absolute path: a shim finding
//!   no gateway starts one (`shim/src/autostart.rs`).
//!
//! Every agent runs hook commands through a shell, where `NAME=value cmd`
//! sets the variables for that command only (Cline's hook file is a bash
//! script that `exec`s the same line).

use std::path::{Path, PathBuf};

use hookgate_adapters::Agent;

/// Marks a hook command as hookgate's: install replaces and uninstall
/// removes exactly the commands that start with it and run a shim.
const PREFIX: &str = "HOOKGATE_SOCKET=";
/// The shim's file name, which every hookgate command runs.
pub(crate) const SHIM_NAME: &str = "gateway-shim";
/// The shim's total deadline in milliseconds (its default: 5000).
pub(crate) const TIMEOUT_VAR: &str = "HOOKGATE_TIMEOUT_MS";
/// The shim's deadline when the command sets none.
pub(crate) const SHIM_DEFAULT_MS: u64 = 5000;
/// The shim's hold maximum flag, with its `=` (`shim/src/cli.rs`).
pub(crate) const HOLD_FLAG: &str = "--hold-max-ms=";

/// Everything a hook command says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HookCommand {
    pub(crate) shim: PathBuf,
    pub(crate) gateway: PathBuf,
    pub(crate) socket: PathBuf,
    /// `--fail-closed`: the shim blocks what it can when no gateway answers.
    pub(crate) fail_closed: bool,
}

impl HookCommand {
    /// The command line for `agent`, naming `event` after it when the
    /// agent's payloads name none (Copilot CLI's camelCase hooks), with the
    /// shim's deadline set to `shim_ms` where the agent waits less than
    /// the shim would (Codex's SessionEnd), taking holds of up to
    /// `hold_max_ms` where an `approval` can hold the event
    /// (`super::hold`). Event names come from the install table, never
    /// from a file.
    pub(crate) fn line_for(
        &self,
        agent: Agent,
        event: Option<&str>,
        shim_ms: Option<u64>,
        hold_max_ms: Option<u64>,
    ) -> String {
        let deadline = shim_ms
            .map(|ms| format!(" {TIMEOUT_VAR}={ms}"))
            .unwrap_or_default();
        let mut line = format!(
            "{PREFIX}{}{deadline} HOOKGATE_AUTOSTART=1 HOOKGATE_GATEWAY={} {} {}",
            quote(&self.socket),
            quote(&self.gateway),
            quote(&self.shim),
            agent.as_str(),
        );
        if let Some(event) = event {
            line.push(' ');
            line.push_str(event);
        }
        if self.fail_closed {
            line.push_str(" --fail-closed");
        }
        if let Some(ms) = hold_max_ms {
            line.push_str(&format!(" {HOLD_FLAG}{ms}"));
        }
        line
    }
}

/// Whether `command` is a hook command hookgate's installer wrote.
pub(crate) fn is_ours(command: &str) -> bool {
    command.trim_start().starts_with(PREFIX) && command.contains(SHIM_NAME)
}

/// The shim path a hookgate command runs (the first single-quoted word
/// after the variables), for `gateway doctor`.
pub(crate) fn shim_of(command: &str) -> Option<PathBuf> {
    words(command)
        .into_iter()
        .find(|word| !word.contains('=') && word.ends_with(SHIM_NAME))
        .map(PathBuf::from)
}

/// The value of `NAME=` in a hookgate command.
pub(crate) fn var_of(command: &str, name: &str) -> Option<String> {
    let prefix = format!("{name}=");
    words(command)
        .into_iter()
        .find_map(|word| word.strip_prefix(&prefix).map(str::to_owned))
}

/// `path` as one single-quoted shell word.
pub(crate) fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

/// Splits a command line into shell words (single quotes and backslash
/// escapes: what [`quote`] writes).
fn words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    let mut escaped = false;
    for c in command.chars() {
        if escaped {
            word.push(c);
            escaped = false;
            continue;
        }
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            '\\' if !quoted => {
                escaped = true;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(fail_closed: bool) -> HookCommand {
        HookCommand {
            shim: PathBuf::from("/home/o'neil/bin/gateway-shim"),
            gateway: PathBuf::from("/opt/hg/gateway"),
            socket: PathBuf::from("/run/user/7/hookgate/gateway.sock"),
            fail_closed,
        }
    }

    #[test]
    fn lines_pin_the_socket_and_name_the_shim_absolutely() {
        let cases = [
            (
                command(false).line_for(Agent::ClaudeCode, None, None, None),
                r"HOOKGATE_SOCKET='/run/user/7/hookgate/gateway.sock' HOOKGATE_AUTOSTART=1 HOOKGATE_GATEWAY='/opt/hg/gateway' '/home/o'\''neil/bin/gateway-shim' claude-code",
            ),
            (
                command(true).line_for(Agent::Droid, None, None, None),
                r"HOOKGATE_SOCKET='/run/user/7/hookgate/gateway.sock' HOOKGATE_AUTOSTART=1 HOOKGATE_GATEWAY='/opt/hg/gateway' '/home/o'\''neil/bin/gateway-shim' droid --fail-closed",
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(line, expected);
            assert!(is_ours(&line));
            assert_eq!(
                shim_of(&line),
                Some(PathBuf::from("/home/o'neil/bin/gateway-shim"))
            );
            assert_eq!(
                var_of(&line, "HOOKGATE_SOCKET").as_deref(),
                Some("/run/user/7/hookgate/gateway.sock")
            );
        }
    }

    #[test]
    fn a_shorter_deadline_is_set_in_the_command() {
        let line = command(false).line_for(Agent::Codex, None, Some(2500), None);
        assert!(
            line.starts_with(
                "HOOKGATE_SOCKET='/run/user/7/hookgate/gateway.sock' HOOKGATE_TIMEOUT_MS=2500 HOOKGATE_AUTOSTART=1 "
            ),
            "{line}"
        );
        assert!(is_ours(&line));
        assert_eq!(var_of(&line, TIMEOUT_VAR).as_deref(), Some("2500"));
    }

    #[test]
    fn a_held_event_takes_holds_after_the_agent() {
        let line = command(true).line_for(Agent::ClaudeCode, None, None, Some(125_000));
        assert!(
            line.ends_with("' claude-code --fail-closed --hold-max-ms=125000"),
            "{line}"
        );
        assert!(is_ours(&line));
    }

    #[test]
    fn only_installed_commands_are_ours() {
        for (command, ours) in [
            ("gateway-shim claude-code", false),
            ("/usr/bin/my-linter --check", false),
            ("HOOKGATE_SOCKET=/x/s.sock /opt/gateway-shim", true),
            ("HOOKGATE_SOCKET=/x/s.sock other-tool", false),
        ] {
            assert_eq!(is_ours(command), ours, "{command}");
        }
    }
}
