//! Holds in the hooks `gateway install` writes: when the config has an
//! `approval` built-in, the events it can hold get a hook command that
//! takes holds (`--hold-max-ms`, the longest `hold_ms` plus the shim's
//! normal deadline) and an agent timeout above that, so neither the shim
//! nor the agent gives up on a call a person is still looking at.
//!
//! Only then: without an `approval`, hooks take no holds and agents keep
//! their 30 s timeout, so a hook that hangs for any other reason is not
//! waited for an hour. `gateway doctor` checks the same numbers the other
//! way round ([`Hold::shim_max_of`], [`held_events`]).

use hookgate_adapters::Agent;
use hookgate_config::{Config, SubscriberKind};

use super::agents::{HOOK_TIMEOUT_SECS, TimeUnit};
use super::command::{self, HOLD_FLAG, SHIM_DEFAULT_MS};

/// The shim's variable, which the flag overrides.
pub(crate) const HOLD_VAR: &str = "HOOKGATE_HOLD_MAX_MS";
/// What the agent waits beyond the shim's hold maximum: the shim's
/// fallback answer after it, on a busy machine.
pub(crate) const AGENT_MARGIN_MS: u64 = 10_000;

/// The longest hold of the config's `approval` subscribers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hold {
    /// The `approval` subscriber holding longest.
    pub(crate) subscriber: String,
    pub(crate) hold_ms: u64,
}

impl Hold {
    /// The longest `hold_ms` of `config`'s `approval` subscribers, if any.
    pub(crate) fn of(config: &Config) -> Option<Hold> {
        config
            .subscribers
            .iter()
            .filter_map(|sub| match &sub.kind {
                SubscriberKind::Approval(approval) => Some(Hold {
                    subscriber: sub.name.clone(),
                    hold_ms: u64::try_from(approval.hold.as_millis()).unwrap_or(u64::MAX),
                }),
                _ => None,
            })
            .max_by_key(|hold| hold.hold_ms)
    }

    /// The shim's `--hold-max-ms`: the hold plus the shim's normal
    /// deadline (the call reaching the hold, autostart included), within
    /// the shim's own ceiling (the gateway then cuts the hold short and
    /// still answers in time).
    pub(crate) fn shim_max_ms(&self) -> u64 {
        self.hold_ms
            .saturating_add(SHIM_DEFAULT_MS)
            .min(hookgate_wire::MAX_HOLD_MS)
    }

    /// The agent's hook timeout for a held event, in `unit`: above the
    /// shim's maximum, rounded up, never below the usual one.
    pub(crate) fn agent_timeout(&self, unit: TimeUnit) -> u64 {
        let ms = self.shim_max_ms().saturating_add(AGENT_MARGIN_MS);
        let timeout = match unit {
            TimeUnit::Secs => ms.div_ceil(1000),
            TimeUnit::Millis => ms,
        };
        timeout.max(unit_default(unit))
    }

    /// The hold maximum an installed command line takes: its
    /// `--hold-max-ms=` (which wins), else its `HOOKGATE_HOLD_MAX_MS=`;
    /// 0 when it names none (the shim then takes no holds).
    pub(crate) fn shim_max_of(line: &str) -> u64 {
        let flag = line
            .split_whitespace()
            .filter_map(|word| word.trim_matches('\'').strip_prefix(HOLD_FLAG))
            .next_back()
            .map(str::to_owned);
        flag.or_else(|| command::var_of(line, HOLD_VAR))
            .and_then(|ms| ms.parse().ok())
            .unwrap_or(0)
    }
}

/// The agent's usual hook timeout in `unit`.
fn unit_default(unit: TimeUnit) -> u64 {
    match unit {
        TimeUnit::Secs => HOOK_TIMEOUT_SECS,
        TimeUnit::Millis => HOOK_TIMEOUT_SECS.saturating_mul(1000),
    }
}

/// The config a gateway started here would load, and its longest hold;
/// a config that does not load is said and gives none (hooks are then
/// installed as without an `approval`; doctor names the config).
pub(crate) fn configured() -> Option<Hold> {
    match Config::load(None) {
        Ok(config) => Hold::of(&config),
        Err(err) => {
            outln!("note: the config does not load ({err}); hooks are installed without holds");
            None
        }
    }
}

/// The events of `agent`'s install table an `approval` can hold: those a
/// hook can block before a tool runs (pre-tool calls and permission
/// requests), by the name the agent's config registers them under.
pub(crate) fn held_events(agent: Agent) -> &'static [&'static str] {
    match agent {
        Agent::ClaudeCode => &["PreToolUse", "PreSkillShellCommand", "PermissionRequest"],
        Agent::Cursor => &["preToolUse", "beforeShellExecution", "beforeMCPExecution"],
        Agent::Codex | Agent::QwenCode => &["PreToolUse", "PermissionRequest"],
        Agent::Copilot => &["preToolUse", "permissionRequest"],
        Agent::GeminiCli => &["BeforeTool"],
        Agent::Cline | Agent::Droid => &["PreToolUse"],
        // Not yet (docs/approvals.md): Hermes approves each (event,
        // command) pair once, so a held command line would need its own
        // consent; OpenCode's plugin runs one command line for every event
        // and bounds each shim run itself.
        Agent::Hermes | Agent::OpenCode => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::agents::AGENTS;

    #[test]
    fn every_held_event_is_one_install_hooks() {
        for spec in AGENTS {
            let held = held_events(spec.agent);
            // Not yet holdable: see `held_events`.
            let holdless = matches!(spec.agent, Agent::Hermes | Agent::OpenCode);
            assert!(held.is_empty() == holdless, "{}", spec.agent);
            for event in held {
                assert!(spec.events().contains(event), "{}: {event}", spec.agent);
            }
        }
    }

    #[test]
    fn the_agent_waits_longer_than_the_shim_which_waits_longer_than_the_hold() {
        let hold = Hold {
            subscriber: "ask".to_owned(),
            hold_ms: 120_000,
        };
        assert_eq!(hold.shim_max_ms(), 125_000);
        assert_eq!(hold.agent_timeout(TimeUnit::Secs), 135);
        assert_eq!(hold.agent_timeout(TimeUnit::Millis), 135_000);
        let short = Hold {
            hold_ms: 1000,
            ..hold.clone()
        };
        assert_eq!(short.agent_timeout(TimeUnit::Secs), HOOK_TIMEOUT_SECS);
        assert_eq!(short.agent_timeout(TimeUnit::Millis), 30_000);
        let longest = Hold {
            hold_ms: hookgate_wire::MAX_HOLD_MS,
            ..hold
        };
        assert_eq!(longest.shim_max_ms(), hookgate_wire::MAX_HOLD_MS);
    }

    #[test]
    fn the_flag_wins_over_the_variable() {
        let line = "HOOKGATE_SOCKET='/s' HOOKGATE_HOLD_MAX_MS=9 '/b/gateway-shim' claude-code --hold-max-ms=125000";
        assert_eq!(Hold::shim_max_of(line), 125_000);
        assert_eq!(
            Hold::shim_max_of("HOOKGATE_SOCKET='/s' HOOKGATE_HOLD_MAX_MS=9 '/b/gateway-shim'"),
            9
        );
        assert_eq!(
            Hold::shim_max_of("HOOKGATE_SOCKET='/s' '/b/gateway-shim'"),
            0
        );
    }
}
