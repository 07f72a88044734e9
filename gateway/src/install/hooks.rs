//! Merging hookgate's handlers into an event-keyed hooks object, the shape
//! every JSON-configured agent shares: `{"<Event>": [item, ...]}`, where an
//! item is either a matcher group `{"matcher": …, "hooks": [handler, …]}`
//! (Claude Code, Qwen Code, Droid) or the handler itself (Cursor). A
//! handler is hookgate's when its `command` is ([`command::is_ours`]).

use super::command;
use super::json::Json;

/// How items of an event's list hold handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `{"matcher": …, "hooks": [handler, …]}`.
    Grouped,
    /// The item is the handler.
    Flat,
}

/// Where a handler's command lives and how items hold handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) shape: Shape,
    /// The handler's command key: `command`, or Copilot CLI's `bash`.
    pub(crate) command_key: &'static str,
}

impl Layout {
    /// Matcher groups of `command` handlers (Claude Code and most others).
    pub(crate) const GROUPED: Layout = Layout {
        shape: Shape::Grouped,
        command_key: "command",
    };
    /// `command` handlers listed directly (Cursor).
    pub(crate) const FLAT: Layout = Layout {
        shape: Shape::Flat,
        command_key: "command",
    };
}

/// A config that is not the shape the agent documents: install refuses to
/// touch it rather than guess.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a JSON {1}")]
pub(crate) struct ShapeError(pub(crate) String, pub(crate) &'static str);

pub(crate) fn is_our_handler(handler: &Json, layout: Layout) -> bool {
    handler
        .get(layout.command_key)
        .and_then(Json::as_str)
        .is_some_and(command::is_ours)
        || super::http::is_ours(handler)
}

/// Removes hookgate's handlers from one event's list; a group left with no
/// handler by that goes too. Returns how many handlers were removed.
fn strip(items: &mut Vec<Json>, layout: Layout) -> usize {
    let before = count(items, layout);
    match layout.shape {
        Shape::Flat => items.retain(|item| !is_our_handler(item, layout)),
        Shape::Grouped => items.retain_mut(|group| {
            let Some(Json::Array(handlers)) = group.get_mut("hooks") else {
                return true;
            };
            let had = handlers.len();
            handlers.retain(|h| !is_our_handler(h, layout));
            !(handlers.is_empty() && had > 0)
        }),
    }
    before - count(items, layout)
}

/// How many of hookgate's handlers one event's list holds.
pub(crate) fn count(items: &[Json], layout: Layout) -> usize {
    match layout.shape {
        Shape::Flat => items
            .iter()
            .filter(|item| is_our_handler(item, layout))
            .count(),
        Shape::Grouped => items
            .iter()
            .filter_map(|group| match group.get("hooks") {
                Some(Json::Array(handlers)) => Some(handlers),
                _ => None,
            })
            .map(|handlers| {
                handlers
                    .iter()
                    .filter(|h| is_our_handler(h, layout))
                    .count()
            })
            .sum(),
    }
}

/// Makes `ours` the one hookgate item of `event` in `events`: left alone
/// when it already is (so installing twice changes nothing), else any old
/// hookgate handler is removed and `ours` appended after the user's own.
pub(crate) fn merge(
    events: &mut Json,
    event: &str,
    ours: Json,
    layout: Layout,
) -> Result<(), ShapeError> {
    let Some(Json::Array(items)) = events.entry(event, Json::Array(Vec::new())) else {
        return Err(ShapeError(event.to_owned(), "list"));
    };
    if count(items, layout) == 1 && items.contains(&ours) {
        return Ok(());
    }
    strip(items, layout);
    items.push(ours);
    Ok(())
}

/// Removes every hookgate handler from `events`, and each event list that
/// only held hookgate's. Returns how many handlers were removed.
pub(crate) fn remove_all(events: &mut Json, layout: Layout) -> usize {
    let Json::Object(members) = events else {
        return 0;
    };
    let mut removed = 0;
    members.retain_mut(|(_, value)| {
        let Json::Array(items) = value else {
            return true;
        };
        let n = strip(items, layout);
        removed += n;
        !(n > 0 && items.is_empty())
    });
    removed
}

/// One of hookgate's handlers in an events object, as `gateway doctor`
/// checks it: its event, its group's matcher (grouped shape), the handler.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub(crate) event: String,
    /// `None`: no matcher key (or the flat shape, which has none).
    pub(crate) matcher: Option<Json>,
    pub(crate) handler: Json,
    /// The command it runs (`None` for an HTTP handler).
    pub(crate) command: Option<String>,
}

/// hookgate's handlers in `events`, in file order.
pub(crate) fn entries(events: &Json, layout: Layout) -> Vec<Entry> {
    let Json::Object(members) = events else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (event, value) in members {
        let Json::Array(items) = value else { continue };
        let handlers: Vec<(Option<&Json>, &Json)> = match layout.shape {
            Shape::Flat => items.iter().map(|h| (None, h)).collect(),
            Shape::Grouped => items
                .iter()
                .filter_map(|group| match group.get("hooks") {
                    Some(Json::Array(handlers)) => {
                        Some(handlers.iter().map(move |h| (group.get("matcher"), h)))
                    }
                    _ => None,
                })
                .flatten()
                .collect(),
        };
        for (matcher, handler) in handlers {
            if !is_our_handler(handler, layout) {
                continue;
            }
            let command = handler
                .get(layout.command_key)
                .and_then(Json::as_str)
                .filter(|cmd| command::is_ours(cmd))
                .map(str::to_owned);
            found.push(Entry {
                event: event.clone(),
                matcher: matcher.cloned(),
                handler: handler.clone(),
                command,
            });
        }
    }
    found
}

/// The names of the events that hold a hookgate command handler, with its
/// command.
pub(crate) fn installed(events: &Json, layout: Layout) -> Vec<(String, String)> {
    entries(events, layout)
        .into_iter()
        .filter_map(|entry| Some((entry.event, entry.command?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OURS: &str = "HOOKGATE_SOCKET='/s' '/bin/gateway-shim' claude-code";

    fn group(command: &str) -> Json {
        Json::parse(&format!(
            r#"{{"hooks": [{{"type": "command", "command": "{command}"}}]}}"#
        ))
        .unwrap()
    }

    #[test]
    fn merge_keeps_other_handlers_and_is_idempotent() {
        let mut events =
            Json::parse(r#"{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}]}"#)
                .unwrap();
        merge(&mut events, "PreToolUse", group(OURS), Layout::GROUPED).unwrap();
        merge(&mut events, "Stop", group(OURS), Layout::GROUPED).unwrap();
        let once = events.render();
        merge(&mut events, "PreToolUse", group(OURS), Layout::GROUPED).unwrap();
        merge(&mut events, "Stop", group(OURS), Layout::GROUPED).unwrap();
        assert_eq!(events.render(), once);
        assert_eq!(installed(&events, Layout::GROUPED).len(), 2);
        assert!(once.contains("\"lint\""), "{once}");

        // A new shim path replaces the old entry instead of adding one.
        let newer = OURS.replace("/bin/", "/opt/");
        merge(&mut events, "Stop", group(&newer), Layout::GROUPED).unwrap();
        assert_eq!(installed(&events, Layout::GROUPED).len(), 2);

        assert_eq!(remove_all(&mut events, Layout::GROUPED), 2);
        assert_eq!(
            events.render(),
            Json::parse(r#"{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}]}"#)
                .unwrap()
                .render()
        );
    }

    #[test]
    fn flat_lists_hold_handlers_directly() {
        let mut events = Json::parse(r#"{"stop": [{"command": "./mine.sh"}]}"#).unwrap();
        let ours = Json::parse(&format!(r#"{{"command": "{OURS}"}}"#)).unwrap();
        merge(&mut events, "stop", ours.clone(), Layout::FLAT).unwrap();
        merge(&mut events, "stop", ours, Layout::FLAT).unwrap();
        assert_eq!(installed(&events, Layout::FLAT).len(), 1);
        assert_eq!(remove_all(&mut events, Layout::FLAT), 1);
        assert_eq!(
            events.render(),
            "{\n  \"stop\": [\n    {\n      \"command\": \"./mine.sh\"\n    }\n  ]\n}\n"
        );
    }

    #[test]
    fn a_non_list_event_is_refused() {
        let mut events = Json::parse(r#"{"Stop": "oops"}"#).unwrap();
        assert!(merge(&mut events, "Stop", group(OURS), Layout::GROUPED).is_err());
    }
}
