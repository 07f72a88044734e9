//! Installing into, and removing from, an agent's JSON config file
//! (Claude Code and Qwen Code `settings.json`, Cursor and Droid
//! `hooks.json`): the [`JsonFormat`] says where the events live and how a
//! handler looks; [`hooks`] does the merging.

use hookgate_adapters::Agent;

use super::agents::{AgentSpec, FailSwitch, JsonFormat};
use super::command::HookCommand;
use super::hooks::{self, Shape, ShapeError};
use super::http::HttpTarget;
use super::json::Json;

/// Why a config file cannot be edited.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    #[error("not valid JSON (comments are not supported): {0}")]
    Syntax(#[from] serde_json::Error),
    #[error("the file's top level is not a JSON object")]
    NotAnObject,
    #[error(transparent)]
    Shape(#[from] ShapeError),
}

/// What install registers for one agent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Registration<'a> {
    pub(crate) agent: Agent,
    pub(crate) events: &'a [&'a str],
    pub(crate) guarded: &'a [&'a str],
    pub(crate) command: &'a HookCommand,
    /// `--transport http`: HTTP handlers to this endpoint instead.
    pub(crate) http: Option<&'a HttpTarget>,
}

impl<'a> Registration<'a> {
    /// `events` of `spec`'s agent, through `command` (or `http`), with its
    /// guarded events failing closed as `command` says.
    pub(crate) fn new(
        spec: &'a AgentSpec,
        events: &'a [&'a str],
        command: &'a HookCommand,
        http: Option<&'a HttpTarget>,
    ) -> Self {
        Registration {
            agent: spec.agent,
            events,
            guarded: spec.guarded,
            command,
            http,
        }
    }
}

/// The file text with hookgate's handlers merged into `original` (`None`:
/// the file does not exist yet).
pub(crate) fn install(
    format: &JsonFormat,
    original: Option<&str>,
    what: Registration<'_>,
) -> Result<String, ConfigError> {
    let mut root = Json::parse(original.unwrap_or(""))?;
    if !matches!(root, Json::Object(_)) {
        return Err(ConfigError::NotAnObject);
    }
    if let Some(version) = format.version {
        root.entry("version", Json::uint(version));
    }
    let events = events_mut(format, &mut root)?;
    for event in what.events {
        let guarded = what.command.fail_closed && what.guarded.contains(event);
        let handler = match what.http {
            Some(target) => {
                let switch = guarded.then(|| fail_switch(format)).flatten();
                super::http::handler(target, what.agent, format.timeout, guarded, switch)
            }
            None => {
                let line = what
                    .command
                    .line_for(what.agent, format.event_arg.then_some(*event));
                handler(format, &line, guarded)
            }
        };
        let item = item(format, handler);
        hooks::merge(events, event, item, format.layout)?;
    }
    Ok(root.render())
}

/// The file text without hookgate's handlers, or `None` when it has none.
/// An events object left empty by that goes too.
pub(crate) fn uninstall(format: &JsonFormat, text: &str) -> Result<Option<String>, ConfigError> {
    let mut root = Json::parse(text)?;
    if !matches!(root, Json::Object(_)) {
        return Err(ConfigError::NotAnObject);
    }
    let events = events_mut(format, &mut root)?;
    if hooks::remove_all(events, format.layout) == 0 {
        return Ok(None);
    }
    if let Some(key) = format.hooks_key
        && root.get(key).is_some_and(Json::is_empty_container)
    {
        root.remove(key);
    }
    Ok(Some(root.render()))
}

/// Whether `a` and `b` say the same once hookgate's handlers are taken
/// out of both, and event lists and events objects left empty are dropped
/// (an empty list or `"hooks": {}` configures nothing): uninstall then
/// gives back the original bytes.
pub(crate) fn same_without_ours(format: &JsonFormat, a: &str, b: &str) -> bool {
    match (normalized(format, a), normalized(format, b)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

fn normalized(format: &JsonFormat, text: &str) -> Option<Json> {
    let mut root = Json::parse(text).ok()?;
    let events = events_mut(format, &mut root).ok()?;
    hooks::remove_all(events, format.layout);
    if let Json::Object(members) = events {
        members.retain(|(_, value)| !matches!(value, Json::Array(items) if items.is_empty()));
    }
    if let Some(key) = format.hooks_key
        && root.get(key).is_some_and(Json::is_empty_container)
    {
        root.remove(key);
    }
    Some(root)
}

/// The events holding a hookgate handler, with its command.
pub(crate) fn installed(
    format: &JsonFormat,
    text: &str,
) -> Result<Vec<(String, String)>, ConfigError> {
    let root = Json::parse(text)?;
    let events = match format.hooks_key {
        None => Some(&root),
        Some(key) => root.get(key),
    };
    Ok(events
        .map(|events| hooks::installed(events, format.layout))
        .unwrap_or_default())
}

fn events_mut<'a>(format: &JsonFormat, root: &'a mut Json) -> Result<&'a mut Json, ConfigError> {
    let events = match format.hooks_key {
        None => root,
        Some(key) => root
            .entry(key, Json::object())
            .ok_or(ConfigError::NotAnObject)?,
    };
    match events {
        Json::Object(_) => Ok(events),
        _ => Err(ShapeError(format.hooks_key.unwrap_or("").to_owned(), "object").into()),
    }
}

fn handler(format: &JsonFormat, line: &str, guarded: bool) -> Json {
    let mut members = Vec::new();
    if format.typed {
        members.push(("type".to_owned(), Json::str("command")));
    }
    members.push((format.layout.command_key.to_owned(), Json::str(line)));
    members.push((format.timeout_key.to_owned(), Json::uint(format.timeout)));
    if guarded && let Some((key, value)) = fail_switch(format) {
        members.push((key.to_owned(), value));
    }
    Json::Object(members)
}

/// The agent's own fail-closed key and value, if it has one.
fn fail_switch(format: &JsonFormat) -> Option<(&'static str, Json)> {
    let (key, value) = format.fail_closed?;
    let value = match value {
        FailSwitch::True => Json::Bool(true),
        FailSwitch::Text(text) => Json::str(text),
    };
    Some((key, value))
}

fn item(format: &JsonFormat, handler: Json) -> Json {
    match format.layout.shape {
        Shape::Flat => handler,
        Shape::Grouped => {
            let mut members = Vec::new();
            if let Some(matcher) = format.matcher {
                members.push(("matcher".to_owned(), Json::str(matcher)));
            }
            members.push(("hooks".to_owned(), Json::Array(vec![handler])));
            Json::Object(members)
        }
    }
}

#[cfg(test)]
mod tests {
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
}
