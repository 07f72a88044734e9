//! Which events a subscriber wants: agents, event kinds, tools.
//!
//! Filters are compiled once from the config so matching an event is a few
//! comparisons and, for tool-name globs, one `GlobSet` lookup.

use globset::{Glob, GlobSet, GlobSetBuilder};
use hookgate_adapters::{Agent, EventKind, HookEvent, ToolClass};

/// A subscriber's filter. An absent list matches everything; a present
/// list matches when the event has one of its values.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    agents: Option<Vec<Agent>>,
    events: Option<Vec<EventKind>>,
    tools: Option<ToolFilter>,
}

/// `tools = [...]`: entries that are tool class names (`shell`, `mcp`,
/// `file_read`, ...) match by class; every other entry is a glob on the
/// tool's name as the agent sends it (`Bash`, `mcp__github__*`). Events
/// without a tool never match a tools filter.
#[derive(Debug, Clone)]
struct ToolFilter {
    classes: Vec<ToolClass>,
    names: GlobSet,
}

/// A filter entry that names nothing hookgate knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadEntry {
    /// Index in the list it came from.
    pub index: usize,
    pub message: String,
}

impl Filter {
    /// Parses agent names (`claude-code`, `cursor`, `cline`, ...).
    pub fn agents<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Vec<Agent>, BadEntry> {
        names
            .into_iter()
            .enumerate()
            .map(|(index, name)| {
                name.parse::<Agent>().map_err(|err| BadEntry {
                    index,
                    message: format!("`{name}`: {err}"),
                })
            })
            .collect()
    }

    /// Parses canonical event kind names (`pre_tool_use`, ...).
    pub fn events<'a>(
        names: impl IntoIterator<Item = &'a str>,
    ) -> Result<Vec<EventKind>, BadEntry> {
        names
            .into_iter()
            .enumerate()
            .map(|(index, name)| {
                EventKind::from_name(name).ok_or_else(|| BadEntry {
                    index,
                    message: format!(
                        "unknown event kind `{name}` (expected one of: {})",
                        EventKind::ALL.map(EventKind::as_str).join(", ")
                    ),
                })
            })
            .collect()
    }

    /// Builds a filter; `tools` entries are class names or name globs.
    pub fn new<'a>(
        agents: Option<Vec<Agent>>,
        events: Option<Vec<EventKind>>,
        tools: Option<impl IntoIterator<Item = &'a str>>,
    ) -> Result<Filter, BadEntry> {
        let tools = match tools {
            None => None,
            Some(entries) => {
                let mut classes = Vec::new();
                let mut names = GlobSetBuilder::new();
                for (index, entry) in entries.into_iter().enumerate() {
                    if let Some(class) = ToolClass::from_name(entry) {
                        classes.push(class);
                        continue;
                    }
                    let glob = Glob::new(entry).map_err(|err| BadEntry {
                        index,
                        message: format!("bad tool glob `{entry}`: {}", err.kind()),
                    })?;
                    names.add(glob);
                }
                let names = names.build().map_err(|err| BadEntry {
                    index: 0,
                    message: format!("bad tool globs: {err}"),
                })?;
                Some(ToolFilter { classes, names })
            }
        };
        Ok(Filter {
            agents,
            events,
            tools,
        })
    }

    /// Does the event pass every present list?
    pub fn matches(&self, event: &HookEvent) -> bool {
        if self
            .agents
            .as_ref()
            .is_some_and(|a| !a.contains(&event.dialect.agent()))
        {
            return false;
        }
        if self
            .events
            .as_ref()
            .is_some_and(|e| !e.contains(&event.kind))
        {
            return false;
        }
        if let Some(tools) = &self.tools {
            let Some(tool) = &event.tool else {
                return false;
            };
            if !tools.classes.contains(&tool.class) && !tools.names.is_match(&tool.name) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{event, shell_tool};
    use hookgate_adapters::Dialect;

    fn filter(agents: Option<&[&str]>, events: Option<&[&str]>, tools: Option<&[&str]>) -> Filter {
        let agents = agents.map(|a| Filter::agents(a.iter().copied()).unwrap());
        let events = events.map(|e| Filter::events(e.iter().copied()).unwrap());
        Filter::new(agents, events, tools.map(|t| t.iter().copied())).unwrap()
    }

    #[test]
    fn matching_table() {
        let mut bash = event(Dialect::ClaudeCode, EventKind::PreToolUse);
        bash.tool = Some(shell_tool("Bash", "ls"));
        let mut mcp = event(Dialect::Cursor, EventKind::PreToolUse);
        mcp.tool = Some(shell_tool("mcp__github__create_issue", ""));
        if let Some(tool) = &mut mcp.tool {
            tool.class = ToolClass::Mcp;
        }
        let prompt = event(Dialect::ClineSdk, EventKind::PromptSubmit);

        type Case<'a> = (
            Option<&'a [&'a str]>,
            Option<&'a [&'a str]>,
            Option<&'a [&'a str]>,
            [bool; 3],
        );
        let cases: &[Case<'_>] = &[
            (None, None, None, [true, true, true]),
            (Some(&["claude-code"]), None, None, [true, false, false]),
            (Some(&["cline", "cursor"]), None, None, [false, true, true]),
            (None, Some(&["pre_tool_use"]), None, [true, true, false]),
            (None, Some(&["prompt_submit"]), None, [false, false, true]),
            (None, None, Some(&["shell"]), [true, false, false]),
            (None, None, Some(&["mcp"]), [false, true, false]),
            (None, None, Some(&["Bash"]), [true, false, false]),
            (None, None, Some(&["mcp__github__*"]), [false, true, false]),
            (None, None, Some(&["mcp__slack__*"]), [false, false, false]),
            (
                Some(&["claude-code"]),
                None,
                Some(&["mcp"]),
                [false, false, false],
            ),
        ];
        for (agents, events, tools, expected) in cases {
            let f = filter(*agents, *events, *tools);
            let got = [f.matches(&bash), f.matches(&mcp), f.matches(&prompt)];
            assert_eq!(
                &got, expected,
                "agents={agents:?} events={events:?} tools={tools:?}"
            );
        }
    }

    #[test]
    fn bad_entries_are_named() {
        let err = Filter::agents(["cursor", "vim"]).unwrap_err();
        assert_eq!(err.index, 1);
        assert!(err.message.contains("`vim`"), "{}", err.message);
        let err = Filter::events(["pre_tool_use", "PreToolUse"]).unwrap_err();
        assert_eq!(err.index, 1);
        assert!(err.message.contains("`PreToolUse`"), "{}", err.message);
        let err = Filter::new(None, None, Some(["shell", "a[b"])).unwrap_err();
        assert_eq!(err.index, 1);
    }
}
