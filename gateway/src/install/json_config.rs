//! Installing into, and removing from, an agent's JSON config file
//! (Claude Code and Qwen Code `settings.json`, Cursor and Droid
//! `hooks.json`): the [`JsonFormat`] says where the events live, how a
//! handler looks and what the agent's reader accepts; [`hooks`] does the
//! merging, on the [`Json`] tree of a plain JSON file (written back
//! pretty-printed) or, for a file with comments the agent reads, on its
//! syntax tree in place ([`jsonc`]).

use hookgate_adapters::Agent;

use super::agents::{AgentSpec, FailSwitch, JsonFormat};
use super::command::HookCommand;
use super::hold::Hold;
use super::hooks::{self, Shape, ShapeError};
use super::http::HttpTarget;
use super::json::Json;
use super::jsonc::{self, ConfigError, Document};

/// What install registers for one agent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Registration<'a> {
    pub(crate) agent: Agent,
    pub(crate) events: &'a [&'a str],
    pub(crate) guarded: &'a [&'a str],
    pub(crate) command: &'a HookCommand,
    /// `--transport http`: HTTP handlers to this endpoint instead.
    pub(crate) http: Option<&'a HttpTarget>,
    /// The longest `approval` hold: the events it can hold take it.
    pub(crate) hold: Option<&'a Hold>,
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
            hold: None,
        }
    }

    /// The same, with `hold` written on the events it can hold.
    pub(crate) fn holding(self, hold: Option<&'a Hold>) -> Self {
        Registration { hold, ..self }
    }

    /// The hold `event` takes, if any.
    fn hold_for(&self, event: &str) -> Option<&'a Hold> {
        self.hold
            .filter(|_| super::hold::held_events(self.agent).contains(&event))
    }
}

/// The file text with hookgate's handlers merged into `original` (`None`:
/// the file does not exist yet).
pub(crate) fn install(
    format: &JsonFormat,
    original: Option<&str>,
    what: Registration<'_>,
) -> Result<String, ConfigError> {
    let text = original.unwrap_or("");
    let parsed = jsonc::parse(text, format.accepts)?;
    if !parsed.plain {
        return install_in_place(format, text, what);
    }
    let mut root = parsed.root;
    if !matches!(root, Json::Object(_)) {
        return Err(ConfigError::NotAnObject);
    }
    if let Some(version) = format.version {
        root.entry("version", Json::uint(version));
    }
    let events = events_mut(format, &mut root)?;
    for (event, item) in items(format, what) {
        hooks::merge(events, event, item, format.layout)?;
    }
    Ok(with_bom(parsed.bom, root.render()))
}

/// [`install`] for a file with comments: edited in place.
fn install_in_place(
    format: &JsonFormat,
    text: &str,
    what: Registration<'_>,
) -> Result<String, ConfigError> {
    let doc = Document::parse(text, format.accepts)?;
    if let Some(version) = format.version {
        doc.ensure_member("version", &Json::uint(version))?;
    }
    let events = doc.events_or_create(format.hooks_key)?;
    for (event, item) in items(format, what) {
        jsonc::merge(&events, event, &item, format.layout)?;
    }
    Ok(doc.render())
}

/// Each event hookgate hooks, with its item (matcher group or handler).
fn items<'a>(format: &JsonFormat, what: Registration<'a>) -> Vec<(&'a str, Json)> {
    what.events
        .iter()
        .map(|event| {
            let guarded = what.command.fail_closed && what.guarded.contains(event);
            let (timeout, shim_ms) = format.timeout_for(event);
            let hold = what.hold_for(event);
            let timeout = hold.map_or(timeout, |hold| {
                timeout.max(hold.agent_timeout(format.timeout_unit))
            });
            let handler = match what.http {
                Some(target) => {
                    let switch = guarded.then(|| fail_switch(format)).flatten();
                    super::http::handler(target, what.agent, timeout, guarded, switch)
                }
                None => {
                    let line = what.command.line_for(
                        what.agent,
                        format.event_arg.then_some(*event),
                        shim_ms,
                        hold.map(Hold::shim_max_ms),
                    );
                    handler(format, &line, timeout, guarded)
                }
            };
            (*event, item(format, handler))
        })
        .collect()
}

/// The BOM the file started with, back in front.
fn with_bom(bom: bool, text: String) -> String {
    if bom { format!("\u{feff}{text}") } else { text }
}

/// The file text without hookgate's handlers, or `None` when it has none.
/// An events object left empty by that goes too.
pub(crate) fn uninstall(format: &JsonFormat, text: &str) -> Result<Option<String>, ConfigError> {
    let parsed = jsonc::parse(text, format.accepts)?;
    if !parsed.plain {
        let doc = Document::parse(text, format.accepts)?;
        let Some(events) = doc.events(format.hooks_key)? else {
            return Ok(None);
        };
        if jsonc::remove_all(&events, format.layout)? == 0 {
            return Ok(None);
        }
        doc.drop_empty_events(format.hooks_key)?;
        return Ok(Some(doc.render()));
    }
    let mut root = parsed.root;
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
    Ok(Some(with_bom(parsed.bom, root.render())))
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
    let mut root = jsonc::parse(text, format.accepts).ok()?.root;
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
    let root = jsonc::parse(text, format.accepts)?.root;
    let events = match format.hooks_key {
        None => Some(&root),
        Some(key) => root.get(key),
    };
    Ok(events
        .map(|events| hooks::installed(events, format.layout))
        .unwrap_or_default())
}

/// hookgate's handlers in the file, with their matchers (`gateway
/// doctor`).
pub(crate) fn entries(format: &JsonFormat, text: &str) -> Result<Vec<hooks::Entry>, ConfigError> {
    let root = jsonc::parse(text, format.accepts)?.root;
    let events = match format.hooks_key {
        None => Some(&root),
        Some(key) => root.get(key),
    };
    Ok(events
        .map(|events| hooks::entries(events, format.layout))
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

fn handler(format: &JsonFormat, line: &str, timeout: u64, guarded: bool) -> Json {
    let mut members = Vec::new();
    if format.typed {
        members.push(("type".to_owned(), Json::str("command")));
    }
    members.push((format.layout.command_key.to_owned(), Json::str(line)));
    members.push((format.timeout_key.to_owned(), Json::uint(timeout)));
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
mod tests;
