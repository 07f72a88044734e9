//! Event-keyed JSON configs: install and uninstall over each agent's
//! format, what is kept and what is refused.

use std::path::PathBuf;

use super::super::agents::{AGENTS, Format, spec};
use super::*;

/// `agent`'s entry and its JSON format.
fn json_spec(agent: Agent) -> (&'static AgentSpec, &'static JsonFormat) {
    match spec(agent) {
        Some(
            spec @ AgentSpec {
                format: Format::Json(format),
                ..
            },
        ) => (spec, format),
        _ => panic!("{agent} has no JSON config"),
    }
}

fn command(fail_closed: bool) -> HookCommand {
    HookCommand {
        shim: PathBuf::from("/b/gateway-shim"),
        gateway: PathBuf::from("/b/gateway"),
        socket: PathBuf::from("/s/gateway.sock"),
        fail_closed,
    }
}

/// A user's config with comments-free JSON in its own key order, and
/// one hook of its own.
const ORIGINAL: &str = r#"{"zeta": {"keep": [1, 2]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}]}, "alpha": true, "version": 1, "PreToolUse": [{"hooks": [{"type": "command", "command": "lint"}]}]}"#;

#[test]
fn every_json_agent_installs_idempotently_and_uninstalls_cleanly() {
    for spec in AGENTS {
        let Format::Json(format) = &spec.format else {
            continue;
        };
        let events = spec.events();
        for fail_closed in [false, true] {
            let cmd = command(fail_closed);
            let what = Registration::new(spec, &events, &cmd, None);
            for original in [None, Some(ORIGINAL)] {
                let once = install(format, original, what).unwrap();
                let twice = install(format, Some(&once), what).unwrap();
                assert_eq!(once, twice, "{:?}", spec.agent);
                let found = installed(format, &once).unwrap();
                assert_eq!(found.len(), events.len(), "{:?}", spec.agent);
                let removed = uninstall(format, &once).unwrap().unwrap();
                let expected = Json::parse(original.unwrap_or("{}")).unwrap();
                let mut expected = expected;
                if format.version.is_some() && original.is_none() {
                    expected.entry("version", Json::uint(1));
                }
                assert_eq!(removed, expected.render(), "{:?}", spec.agent);
                assert!(uninstall(format, &removed).unwrap().is_none());
            }
        }
    }
}

#[test]
fn handlers_carry_the_timeout_and_the_fail_closed_switch() {
    let (spec, format) = json_spec(Agent::ClaudeCode);
    let cmd = command(true);
    let what = Registration::new(spec, &["PreToolUse", "Stop"], &cmd, None);
    let text = install(format, None, what).unwrap();
    let root = Json::parse(&text).unwrap();
    let pre = &root.get("hooks").unwrap().get("PreToolUse").unwrap();
    let Json::Array(groups) = pre else { panic!() };
    let handler = &groups[0].get("hooks").unwrap();
    let Json::Array(handlers) = handler else {
        panic!()
    };
    assert_eq!(handlers[0].get("onFailure"), Some(&Json::str("block")));
    assert_eq!(handlers[0].get("timeout"), Some(&Json::uint(30)));
    let stop = root.get("hooks").unwrap().get("Stop").unwrap();
    assert!(
        !Json::Array(vec![stop.clone()])
            .render()
            .contains("onFailure")
    );
}

/// (agent, event, the handler's keys in order, how its command ends).
#[rustfmt::skip]
const HANDLERS: [(Agent, &str, &[&str], &str); 4] = [
    (Agent::ClaudeCode, "PreToolUse", &["type", "command", "timeout"], " claude-code"),
    (Agent::GeminiCli, "BeforeTool", &["type", "command", "timeout"], " gemini-cli"),
    (Agent::Codex, "PreToolUse", &["type", "command", "timeout"], " codex"),
    (Agent::Copilot, "preToolUse", &["type", "bash", "timeoutSec"], " copilot preToolUse"),
];

#[test]
fn each_agent_gets_its_own_handler_keys_and_command() {
    for (agent, event, keys, tail) in HANDLERS {
        let (spec, format) = json_spec(agent);
        let cmd = command(false);
        let events = [event];
        let what = Registration::new(spec, &events, &cmd, None);
        let root = Json::parse(&install(format, None, what).unwrap()).unwrap();
        let Some(Json::Array(items)) = root.get("hooks").and_then(|h| h.get(event)) else {
            panic!("{agent}: no {event}");
        };
        let handler = match format.layout.shape {
            Shape::Flat => &items[0],
            Shape::Grouped => match items[0].get("hooks") {
                Some(Json::Array(handlers)) => &handlers[0],
                other => panic!("{agent}: {other:?}"),
            },
        };
        let Json::Object(members) = handler else {
            panic!("{agent}: {handler:?}")
        };
        let names: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, keys, "{agent}");
        let line = handler.get(keys[1]).and_then(Json::as_str).unwrap();
        assert!(line.ends_with(tail), "{agent}: {line}");
    }
}

/// Gemini CLI reads its settings with comments: install keeps every
/// one, installs idempotently and uninstall leaves the user's file as
/// it was but for hookgate's entries. Claude Code does not read
/// comments there: refused by name.
#[test]
fn a_commented_settings_file_keeps_its_comments() {
    let original = "{\n  // my auth\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}, /* keep */\n  \"hooks\": {\n    // a hook of mine\n    \"BeforeTool\": [{\"matcher\": \"x\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}]\n  }\n}\n";
    let kept = ["// my auth", "/* keep */", "// a hook of mine", "\"lint\""];
    let (spec, format) = json_spec(Agent::GeminiCli);
    let cmd = command(false);
    let events = spec.events();
    let what = Registration::new(spec, &events, &cmd, None);
    let once = install(format, Some(original), what).unwrap();
    for text in kept {
        assert!(once.contains(text), "{text} lost:\n{once}");
    }
    assert_eq!(install(format, Some(&once), what).unwrap(), once);
    assert_eq!(installed(format, &once).unwrap().len(), events.len());
    let removed = uninstall(format, &once).unwrap().unwrap();
    for text in kept {
        assert!(removed.contains(text), "{text} lost:\n{removed}");
    }
    assert!(same_without_ours(format, original, &removed), "{removed}");
    assert!(!removed.contains("gateway-shim"), "{removed}");

    let (spec, format) = json_spec(Agent::ClaudeCode);
    let events = spec.events();
    let what = Registration::new(spec, &events, &cmd, None);
    let err = install(format, Some(original), what).unwrap_err();
    assert!(err.to_string().contains("has comments"), "{err}");
}

/// Codex waits at most 3 s for SessionEnd: install asks no more, and
/// the shim's deadline there ends before.
#[test]
fn short_events_get_their_timeout_and_a_shorter_shim_deadline() {
    let (spec, format) = json_spec(Agent::Codex);
    let cmd = command(false);
    let events = spec.events();
    let what = Registration::new(spec, &events, &cmd, None);
    let root = Json::parse(&install(format, None, what).unwrap()).unwrap();
    let handler = |event: &str| {
        let groups = root.get("hooks").and_then(|h| h.get(event)).unwrap();
        let Json::Array(groups) = groups else {
            panic!()
        };
        let Some(Json::Array(handlers)) = groups[0].get("hooks") else {
            panic!()
        };
        handlers[0].clone()
    };
    let end = handler("SessionEnd");
    assert_eq!(end.get("timeout"), Some(&Json::uint(3)));
    let line = end.get("command").and_then(Json::as_str).unwrap();
    assert!(line.contains(" HOOKGATE_TIMEOUT_MS=2500 "), "{line}");
    let pre = handler("PreToolUse");
    assert_eq!(pre.get("timeout"), Some(&Json::uint(30)));
    let line = pre.get("command").and_then(Json::as_str).unwrap();
    assert!(!line.contains("HOOKGATE_TIMEOUT_MS"), "{line}");
}

#[test]
fn configs_that_are_not_objects_are_refused() {
    let (spec, format) = json_spec(Agent::ClaudeCode);
    let cmd = command(false);
    let events = spec.events();
    let what = Registration::new(spec, &events, &cmd, None);
    for bad in [
        "[1]",
        "{\"hooks\": []}",
        "{\"hooks\": {\"Stop\": 3}}",
        "{,}",
    ] {
        assert!(install(format, Some(bad), what).is_err(), "{bad}");
    }
}
