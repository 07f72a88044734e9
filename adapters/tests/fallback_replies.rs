//! Every fallback reply, pinned: for each dialect (and none), each fail
//! mode and every event name any agent's table holds (plus the names only
//! the fallback rules knew, and unknown ones), the exact reply, grouped by
//! reply in `adapters/test_data/fallback-replies.golden`. The shim answers
//! these when the gateway cannot, so a change here is a change in what an
//! agent does with the gateway down: review the diff.

use std::collections::{BTreeMap, BTreeSet};

use hookgate_adapters::{Dialect, FailMode, fallback};
use hookgate_test_data::check_golden;

/// Quotes, a backslash, a newline and a control character: the escaping.
const MESSAGE: &str = "blocked \"here\" \\ now\n\u{1}";

/// Names no table's hook names hold: unknown ones, names only the old
/// fallback lists held, and Cline SDK's `hookName`s (the payload's, not
/// the hook file's).
const EXTRA: [&str; 14] = [
    "",
    "NoSuchEvent",
    "workspaceOpen",
    "subagent_start",
    "agent_start",
    "agent_resume",
    "prompt_submit",
    "tool_call",
    "tool_result",
    "agent_end",
    "agent_error",
    "agent_abort",
    "pre_compact",
    "session_shutdown",
];

#[test]
fn every_fallback_reply_is_pinned() {
    let mut names: BTreeSet<&str> = EXTRA.into_iter().collect();
    for dialect in Dialect::ALL {
        // Every row, hooked by install or not (a user may hook any), by
        // its name and the name install hooks it under.
        for row in dialect.descriptor().events {
            names.extend(std::iter::once(row.name).chain(row.hook));
        }
    }
    let events: Vec<Option<&str>> = std::iter::once(None)
        .chain(names.iter().copied().map(Some))
        .collect();
    let dialects = std::iter::once(None).chain(Dialect::ALL.into_iter().map(Some));
    let mut out = String::new();
    for dialect in dialects {
        for (mode, message) in [
            (FailMode::Open, MESSAGE),
            (FailMode::Closed, MESSAGE),
            (FailMode::Closed, ""),
        ] {
            let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
            for event in &events {
                let reply = fallback(dialect, *event, mode, message);
                let key = format!(
                    "exit {}, stdout {:?}, stderr {:?}",
                    reply.exit_code,
                    String::from_utf8_lossy(&reply.stdout),
                    String::from_utf8_lossy(&reply.stderr),
                );
                groups
                    .entry(key)
                    .or_default()
                    .push(event.map_or("(none)", |e| if e.is_empty() { "(empty)" } else { e }));
            }
            let message = if message.is_empty() {
                " (no message)"
            } else {
                ""
            };
            for (reply, events) in groups {
                out.push_str(&format!(
                    "{dialect:?} {}{message}: {reply}\n    {}\n",
                    mode.as_str(),
                    events.join(" ")
                ));
            }
        }
    }
    check_golden("fallback-replies.golden", &out);
}
