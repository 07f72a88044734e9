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

/// A config that is not the shape the agent documents: install refuses to
/// touch it rather than guess.
#[derive(Debug, thiserror::Error)]
#[error("`{0}` is not a JSON {1}")]
pub(crate) struct ShapeError(pub(crate) String, pub(crate) &'static str);

fn is_our_handler(handler: &Json) -> bool {
    handler
        .get("command")
        .and_then(Json::as_str)
        .is_some_and(command::is_ours)
        || super::http::is_ours(handler)
}

/// Removes hookgate's handlers from one event's list; a group left with no
/// handler by that goes too. Returns how many handlers were removed.
fn strip(items: &mut Vec<Json>, shape: Shape) -> usize {
    let before = count(items, shape);
    match shape {
        Shape::Flat => items.retain(|item| !is_our_handler(item)),
        Shape::Grouped => items.retain_mut(|group| {
            let Some(Json::Array(handlers)) = group.get_mut("hooks") else {
                return true;
            };
            let had = handlers.len();
            handlers.retain(|h| !is_our_handler(h));
            !(handlers.is_empty() && had > 0)
        }),
    }
    before - count(items, shape)
}

/// How many of hookgate's handlers one event's list holds.
fn count(items: &[Json], shape: Shape) -> usize {
    match shape {
        Shape::Flat => items.iter().filter(|item| is_our_handler(item)).count(),
        Shape::Grouped => items
            .iter()
            .filter_map(|group| match group.get("hooks") {
                Some(Json::Array(handlers)) => Some(handlers),
                _ => None,
            })
            .map(|handlers| handlers.iter().filter(|h| is_our_handler(h)).count())
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
    shape: Shape,
) -> Result<(), ShapeError> {
    let Some(Json::Array(items)) = events.entry(event, Json::Array(Vec::new())) else {
        return Err(ShapeError(event.to_owned(), "list"));
    };
    if count(items, shape) == 1 && items.contains(&ours) {
        return Ok(());
    }
    strip(items, shape);
    items.push(ours);
    Ok(())
}

/// Removes every hookgate handler from `events`, and each event list that
/// only held hookgate's. Returns how many handlers were removed.
pub(crate) fn remove_all(events: &mut Json, shape: Shape) -> usize {
    let Json::Object(members) = events else {
        return 0;
    };
    let mut removed = 0;
    members.retain_mut(|(_, value)| {
        let Json::Array(items) = value else {
            return true;
        };
        let n = strip(items, shape);
        removed += n;
        !(n > 0 && items.is_empty())
    });
    removed
}

/// The names of the events that hold a hookgate handler, with its command.
pub(crate) fn installed(events: &Json, shape: Shape) -> Vec<(String, String)> {
    let Json::Object(members) = events else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (event, value) in members {
        let Json::Array(items) = value else { continue };
        let handlers: Vec<&Json> = match shape {
            Shape::Flat => items.iter().collect(),
            Shape::Grouped => items
                .iter()
                .filter_map(|group| match group.get("hooks") {
                    Some(Json::Array(handlers)) => Some(handlers.iter()),
                    _ => None,
                })
                .flatten()
                .collect(),
        };
        for handler in handlers {
            if let Some(cmd) = handler.get("command").and_then(Json::as_str)
                && command::is_ours(cmd)
            {
                found.push((event.clone(), cmd.to_owned()));
            }
        }
    }
    found
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
        merge(&mut events, "PreToolUse", group(OURS), Shape::Grouped).unwrap();
        merge(&mut events, "Stop", group(OURS), Shape::Grouped).unwrap();
        let once = events.render();
        merge(&mut events, "PreToolUse", group(OURS), Shape::Grouped).unwrap();
        merge(&mut events, "Stop", group(OURS), Shape::Grouped).unwrap();
        assert_eq!(events.render(), once);
        assert_eq!(installed(&events, Shape::Grouped).len(), 2);
        assert!(once.contains("\"lint\""), "{once}");

        // A new shim path replaces the old entry instead of adding one.
        let newer = OURS.replace("/bin/", "/opt/");
        merge(&mut events, "Stop", group(&newer), Shape::Grouped).unwrap();
        assert_eq!(installed(&events, Shape::Grouped).len(), 2);

        assert_eq!(remove_all(&mut events, Shape::Grouped), 2);
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
        merge(&mut events, "stop", ours.clone(), Shape::Flat).unwrap();
        merge(&mut events, "stop", ours, Shape::Flat).unwrap();
        assert_eq!(installed(&events, Shape::Flat).len(), 1);
        assert_eq!(remove_all(&mut events, Shape::Flat), 1);
        assert_eq!(
            events.render(),
            "{\n  \"stop\": [\n    {\n      \"command\": \"./mine.sh\"\n    }\n  ]\n}\n"
        );
    }

    #[test]
    fn a_non_list_event_is_refused() {
        let mut events = Json::parse(r#"{"Stop": "oops"}"#).unwrap();
        assert!(merge(&mut events, "Stop", group(OURS), Shape::Grouped).is_err());
    }
}
