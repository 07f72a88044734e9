//! The guard the embedded default config (`DEFAULT_TOML`) builds: the
//! corpora (shared with the integration test that sends them through the
//! real shim and gateway), the default rules on broken and hostile lines,
//! their reasons, and the first attempt on a small budget (`inline`). The
//! guard's own logic, over rules a test builds, is tested in the
//! `hookgate-guard` crate.

mod corpus;
mod inline;
mod parser;
mod rules;

use hookgate_adapters::{Dialect, EventKind, HookEvent, Tool, ToolClass};
use hookgate_guard::Guard;

use crate::testing::{event, shell_tool};
use crate::{Config, DEFAULT_TOML, EMBEDDED_NAME, Env, SubscriberKind};

/// The home directory the corpora are written for.
const HOME: &str = "/home/dev";

/// The guard of the embedded default config, for a user whose home is
/// [`HOME`].
fn default_guard() -> Guard {
    let env = Env {
        home: Some(HOME.into()),
        ..Env::default()
    };
    let config = Config::parse(EMBEDDED_NAME, DEFAULT_TOML, &env).unwrap();
    config
        .subscribers
        .into_iter()
        .find_map(|s| match s.kind {
            SubscriberKind::Guard { guard, .. } => Some(guard),
            _ => None,
        })
        .expect("the default config has a guard")
}

/// A blockable pre-tool event for `tool`, in `/home/dev/acme`.
fn with_tool(tool: Tool) -> HookEvent {
    let mut e = event(Dialect::ClaudeCode, EventKind::PreToolUse);
    e.capabilities.deny = true;
    e.tool = Some(tool);
    e
}

fn shell(command: &str) -> HookEvent {
    with_tool(shell_tool("Bash", command))
}

/// A file tool of `class` naming `path`.
fn file_tool(name: &str, class: ToolClass, path: &str) -> Tool {
    let mut tool = Tool::new(name, class, serde_json::json!({}));
    tool.paths = vec![path.to_owned()];
    tool
}

/// `gateway doctor`'s dangerous probe, in every agent's dialect, parses to
/// a blockable shell call that the default guard denies: a probe that
/// comes back allowed means the guard does not see that agent's calls.
#[test]
fn every_agents_doctor_danger_probe_is_denied() {
    use hookgate_adapters::{Agent, Permission, danger_payload, detect_with_event, parse_detected};
    let guard = default_guard();
    for agent in Agent::ALL {
        let payload = danger_payload(agent).expect("a probe").as_bytes();
        let event = hookgate_adapters::probe_event(agent);
        // Copilot's camelCase payloads name no event: its command does.
        let arg = (agent == Agent::Copilot).then_some(event);
        let detected = detect_with_event(payload, Some(agent), arg, &[]).unwrap();
        let parsed = parse_detected(&detected, payload).unwrap();
        assert!(parsed.capabilities.deny, "{agent}: not blockable");
        let decision = guard.decide(&parsed);
        assert_eq!(
            decision.permission,
            Permission::Deny,
            "{agent}: {decision:?}"
        );
    }
}
