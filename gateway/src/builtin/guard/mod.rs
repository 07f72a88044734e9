//! The built-in `guard` subscriber: denies (or asks about) tool calls by
//! rules over what the call will do.
//!
//! It runs in-process (no gRPC hop) alongside the remote subscribers, so a
//! user gets a useful safety net from `gateway serve` with no subscriber
//! running at all. Rules are checked only on events the agent lets a hook
//! block; a deny on anything else would only be a counted loss.
//!
//! Facts are gathered once per event ([`facts::gather`]): the simple
//! commands of a shell line, parsed ([`shell`]), and every path any tool
//! touches, read or written. Rules are data over those facts
//! ([`rules`]); the regex rules on raw text (`shell`, `file_path`,
//! `mcp_tool`) are kept for existing configs.

pub mod argv;
pub mod facts;
pub mod globs;
pub mod rules;
pub mod shell;

#[cfg(test)]
mod tests;

use hookgate_adapters::{Decision, HookEvent, Permission, Tool, ToolClass};
use regex::Regex;

use facts::Facts;
use rules::{CommandRule, FetchRule, PathRule};

/// What a raw-text regex rule looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The command line of a shell tool, as text.
    Shell,
    /// Every file path the tool names.
    FilePath,
    /// An MCP tool's name, and `server/name` when the agent names the server.
    McpTool,
}

impl Target {
    pub fn as_str(self) -> &'static str {
        match self {
            Target::Shell => "shell",
            Target::FilePath => "file_path",
            Target::McpTool => "mcp_tool",
        }
    }
}

/// What a rule does when it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Deny,
    /// Ask the user; an agent that cannot ask denies instead.
    Ask,
}

/// What a rule matches.
#[derive(Debug, Clone)]
pub enum Matcher {
    Regex(Target, Regex),
    Command(CommandRule),
    Path(PathRule),
    Fetch(FetchRule),
}

/// One rule: `action` when `matcher` matches, with `reason`.
#[derive(Debug, Clone)]
pub struct Rule {
    pub matcher: Matcher,
    pub action: Action,
    pub reason: String,
}

/// The compiled rule set.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    rules: Vec<Rule>,
    /// The user's home directory, so `/home/dev` is seen as `~`.
    home: Option<String>,
}

/// A rule that matched, and what it matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub action: Action,
    pub reason: String,
}

impl Guard {
    pub fn new(rules: Vec<Rule>) -> Guard {
        Guard { rules, home: None }
    }

    /// The same rules, knowing the user's home directory.
    pub fn with_home(mut self, home: Option<String>) -> Guard {
        self.home = home.filter(|h| h.starts_with('/') && h.len() > 1);
        self
    }

    /// What the rules say about `event`'s tool call: the first deny, else
    /// the first ask. A command line past the parser's bounds is denied.
    pub fn check(&self, event: &HookEvent) -> Option<Hit> {
        let tool = event.tool.as_ref()?;
        let facts = facts::gather(tool, event.cwd.as_deref(), self.home.as_deref());
        if let Some(why) = facts.too_complex {
            return Some(Hit {
                action: Action::Deny,
                reason: format!("{why}; the guard denies what it cannot check"),
            });
        }
        let mut ask = None;
        for rule in &self.rules {
            let Some(detail) = self.matches(&rule.matcher, tool, &facts) else {
                continue;
            };
            let hit = Hit {
                action: rule.action,
                reason: format!("{}: {detail}", rule.reason),
            };
            match rule.action {
                Action::Deny => return Some(hit),
                Action::Ask => {
                    ask.get_or_insert(hit);
                }
            }
        }
        ask
    }

    /// What `matcher` matched in this call, shown.
    fn matches(&self, matcher: &Matcher, tool: &Tool, facts: &Facts) -> Option<String> {
        match matcher {
            Matcher::Regex(target, pattern) => regex_match(*target, pattern, tool),
            Matcher::Command(rule) => rule.find(facts, self.home.as_deref()),
            Matcher::Path(rule) => rule.find(facts),
            Matcher::Fetch(rule) => rule.find(facts),
        }
    }

    /// The guard's decision: a deny (or ask) naming the rule's reason, or
    /// no opinion.
    pub fn decide(&self, event: &HookEvent) -> Decision {
        if !event.capabilities.deny && !event.capabilities.ask {
            return Decision::default();
        }
        match self.check(event) {
            Some(hit) => Decision {
                permission: match hit.action {
                    Action::Deny => Permission::Deny,
                    Action::Ask => Permission::Ask,
                },
                reason: Some(format!("hookgate guard: {}", hit.reason)),
                agent_message: Some(
                    "Do not retry this; choose a safer alternative or ask the user.".to_owned(),
                ),
                ..Decision::default()
            },
            None => Decision::default(),
        }
    }
}

/// A raw-text rule: the command line, each named path, the MCP tool name.
fn regex_match(target: Target, pattern: &Regex, tool: &Tool) -> Option<String> {
    let shown = |text: &str| Some(format!("`{text}`"));
    match target {
        Target::Shell => tool
            .command
            .as_deref()
            .filter(|c| pattern.is_match(c))
            .map(|_| "the command line".to_owned()),
        Target::FilePath => tool
            .file_path
            .iter()
            .chain(&tool.paths)
            .find(|p| pattern.is_match(p))
            .and_then(|p| shown(p)),
        Target::McpTool if tool.class == ToolClass::Mcp => {
            let qualified = tool
                .mcp_server
                .as_deref()
                .map(|server| format!("{server}/{}", tool.name));
            if pattern.is_match(&tool.name) {
                shown(&tool.name)
            } else {
                qualified
                    .filter(|q| pattern.is_match(q))
                    .and_then(|q| shown(&q))
            }
        }
        Target::McpTool => None,
    }
}
