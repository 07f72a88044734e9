//! hookgate's built-in guard: denies (or asks about) tool calls by rules
//! over what the call will do.
//!
//! The gateway runs it in-process (no gRPC hop) alongside the remote
//! subscribers, so a user gets a useful safety net from `gateway serve` with
//! no subscriber running at all; the gateway's config builds the [`Rule`]s
//! (`[[subscriber.rules]]`) and its subscribers call
//! [`Guard::decide_within`]. Rules are checked only on events the agent
//! lets a hook block; a deny on anything else would only be a counted loss.
//!
//! Facts are gathered once per event (`facts::gather`): the simple commands
//! of a shell line, parsed with tree-sitter-bash (`shell`), and every path
//! any tool touches, read or written. Rules are data over those facts
//! ([`rules`]); the regex rules on raw text (`shell`, `file_path`,
//! `mcp_tool`) are kept for existing configs. [`commands`] gives the simple
//! commands of a line as the guard reads them to code outside the guard.
//!
//! Unknown means dangerous: a word the guard cannot resolve (an
//! environment variable, a command's output, a loop over it) is judged as
//! the worst value it could have, where a rule looks at it (`pattern`).
//! Such a match is an `ask` where the agent can ask, else a deny; a match
//! on what the line says for certain is the rule's own action.
//!
//! Invariant: the guard is pure. It knows no tokio, no sockets, no files
//! and no agent dialect (it reads the canonical `HookEvent` and answers a
//! canonical `Decision`); it does no I/O, and every call draws from one
//! work budget ([`MAX_WORK`]) and, when the caller gives one, a deadline:
//! a call past either, or past a bound ([`MAX_LINE_BYTES`] and its
//! siblings), is "too complex to check" and denied, never waved through.

pub mod argv;
mod budget;
mod commands;
pub mod facts;
mod options;
mod paths;
mod pattern;
pub mod protect;
pub mod rules;
mod shell;

#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

use hookgate_adapters::{Decision, HookEvent, Permission, Tool, ToolClass};
use regex::Regex;

use budget::Budget;
use facts::Facts;
use pattern::{Judge, Judged};
use rules::{CommandJudges, CommandRule, FetchRule, PathRule};
use shell::Place;

pub use commands::{ShellCommand, ShellCommands, commands};
// The bounds on one call's work (see the crate docs).
pub use budget::MAX_WORK;
pub use shell::{MAX_COMMANDS, MAX_LINE_BYTES, MAX_SHELL_DEPTH, MAX_TREE_DEPTH};

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
    /// Stable within its rule set (the config's `id`, or one derived from
    /// the rule's content): what the decision log and the per-rule counters
    /// name.
    pub id: String,
    pub matcher: Matcher,
    pub action: Action,
    pub reason: String,
}

/// A rule's matcher compiled for judging words with unknown parts; `None`
/// when a regex did not compile again (a matcher judged without it says
/// Maybe for every such word).
#[derive(Debug, Clone)]
enum Compiled {
    Regex(Option<Regex>),
    Command(Option<CommandJudges>),
    Path(Option<Judge>),
    Fetch,
}

/// How long one call may take by default (the gateway's `timeout_ms`).
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(2);

/// The compiled rule set.
#[derive(Debug, Clone)]
pub struct Guard {
    rules: Vec<Rule>,
    /// `rules`, compiled, in the same order.
    compiled: Vec<Compiled>,
    /// How long its caller lets one call take.
    time_limit: Duration,
    /// The user's home directory, so `/home/dev` is seen as `~`.
    home: Option<String>,
    /// Paths and command names compared without case.
    fold: bool,
}

impl Default for Guard {
    fn default() -> Guard {
        Guard::new(Vec::new())
    }
}

/// A rule that matched, and what it matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub action: Action,
    pub reason: String,
    /// A part of the call the guard could not resolve decided it.
    pub unresolved: bool,
    /// The rule's index in [`Guard::rules`]; `None` when no rule matched
    /// but the call could not be checked (past a bound), which is denied.
    pub rule: Option<usize>,
}

/// The guard's answer on one event.
#[derive(Debug, Clone, Default)]
pub struct Verdict {
    pub decision: Decision,
    /// The rule (or bound) that decided, if any.
    pub hit: Option<Hit>,
    /// The call was past the guard's budget, deadline or bounds: denied
    /// as too complex to check.
    pub too_complex: bool,
}

/// Whether this platform's file systems ignore case (macOS, Windows): the
/// default of [`Guard::with_case_folding`].
pub const CASE_INSENSITIVE_PLATFORM: bool = cfg!(any(target_os = "macos", windows));

impl Guard {
    pub fn new(rules: Vec<Rule>) -> Guard {
        Guard {
            rules,
            compiled: Vec::new(),
            time_limit: DEFAULT_TIME_LIMIT,
            home: None,
            fold: CASE_INSENSITIVE_PLATFORM,
        }
        .compiled()
    }

    /// The rules compiled for the current case folding.
    fn compiled(mut self) -> Guard {
        let fold = self.fold;
        self.compiled = self
            .rules
            .iter()
            .map(|rule| match &rule.matcher {
                Matcher::Regex(_, re) => Compiled::Regex(
                    regex::RegexBuilder::new(re.as_str())
                        .case_insensitive(fold)
                        .build()
                        .ok(),
                ),
                Matcher::Command(c) => Compiled::Command(c.judges(fold)),
                Matcher::Path(p) => Compiled::Path(p.judge_with(fold)),
                Matcher::Fetch(_) => Compiled::Fetch,
            })
            .collect();
        self
    }

    /// The rules, in the order they are checked.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The same rules, knowing the user's home directory.
    pub fn with_home(mut self, home: Option<String>) -> Guard {
        self.home = home.filter(|h| h.starts_with('/') && h.len() > 1);
        self
    }

    /// The same rules, comparing paths and command names without case
    /// (`true`: `CAT .ENV` reads `.env`, as on macOS and Windows).
    pub fn with_case_folding(self, fold: bool) -> Guard {
        Guard { fold, ..self }.compiled()
    }

    pub fn case_folding(&self) -> bool {
        self.fold
    }

    /// The same rules, with `limit` as the time one call may take: the
    /// caller's deadline, which the guard itself does not watch (pure); see
    /// [`Guard::decide_within`].
    pub fn with_time_limit(mut self, limit: Duration) -> Guard {
        self.time_limit = limit;
        self
    }

    pub fn time_limit(&self) -> Duration {
        self.time_limit
    }

    /// What the rules say about `event`'s tool call: the first certain
    /// deny, else the first ask (an ask rule, or a rule a part the guard
    /// could not resolve may match). A call past the budget, the deadline
    /// or a bound is denied as too complex, and so is one naming more
    /// paths than the adapters read.
    pub fn check(&self, event: &HookEvent) -> Option<Hit> {
        self.check_within(event, None).0
    }

    fn check_within(&self, event: &HookEvent, deadline: Option<Instant>) -> (Option<Hit>, bool) {
        let Some(tool) = event.tool.as_ref() else {
            return (None, false);
        };
        if tool.paths_overflow {
            let reason = format!(
                "the call names more paths than hookgate checks (over {}, or nested over {} \
                 levels); the guard denies what it cannot check",
                hookgate_adapters::paths::MAX_PATHS,
                hookgate_adapters::paths::MAX_DEPTH
            );
            return (Some(deny(reason)), false);
        }
        let mut budget = Budget::new(MAX_WORK, deadline);
        let place = Place {
            cwd: event.cwd.as_deref(),
            home: self.home.as_deref(),
            fold: self.fold,
        };
        let facts = facts::gather(tool, place, &mut budget);
        let mut ask = None;
        for (index, (rule, compiled)) in self.rules.iter().zip(&self.compiled).enumerate() {
            let found = self.matches(&rule.matcher, compiled, tool, &facts, place, &mut budget);
            if let Some(why) = budget.exceeded() {
                return (
                    Some(deny(format!(
                        "{why}; the guard denies what it cannot check"
                    ))),
                    true,
                );
            }
            let Some(found) = found else {
                continue;
            };
            let unresolved = found.judged == Judged::Maybe;
            let hit = Hit {
                action: if unresolved { Action::Ask } else { rule.action },
                reason: match unresolved {
                    false => format!("{}: {}", rule.reason, found.detail),
                    true => format!(
                        "{}, possibly: {} (hookgate cannot tell what <unknown> is, so it \
                         judges the worst it could be)",
                        rule.reason, found.detail
                    ),
                },
                unresolved,
                rule: Some(index),
            };
            match hit.action {
                Action::Deny => return (Some(hit), false),
                Action::Ask => {
                    ask.get_or_insert(hit);
                }
            }
        }
        if let Some(why) = budget.exceeded() {
            return (
                Some(deny(format!(
                    "{why}; the guard denies what it cannot check"
                ))),
                true,
            );
        }
        (ask, false)
    }

    /// What `matcher` matched in this call, shown, and how surely.
    fn matches(
        &self,
        matcher: &Matcher,
        compiled: &Compiled,
        tool: &Tool,
        facts: &Facts,
        place: Place<'_>,
        budget: &mut Budget,
    ) -> Option<rules::Found> {
        let certain = |detail: String| rules::Found {
            detail,
            judged: Judged::Yes,
        };
        match (matcher, compiled) {
            (Matcher::Regex(target, original), Compiled::Regex(folded)) => {
                regex_match(*target, folded.as_ref().unwrap_or(original), tool).map(certain)
            }
            (Matcher::Command(rule), Compiled::Command(Some(judges))) => {
                rule.find(judges, facts, place, budget)
            }
            (Matcher::Path(rule), Compiled::Path(Some(judge))) => rule.find(judge, facts, budget),
            (Matcher::Fetch(rule), _) => rule.find(facts, self.fold),
            _ => None,
        }
    }

    /// The guard's decision: a deny (or ask) naming the rule's reason, or
    /// no opinion.
    pub fn decide(&self, event: &HookEvent) -> Decision {
        self.decide_within(event, None).decision
    }

    /// [`Guard::decide`], with the hit that decided (for the decision log
    /// and the per-rule counters).
    pub fn decide_with_hit(&self, event: &HookEvent) -> (Decision, Option<Hit>) {
        let verdict = self.decide_within(event, None);
        (verdict.decision, verdict.hit)
    }

    /// [`Guard::decide`], stopping at `deadline` (a call past it is denied
    /// as too complex). An ask goes to an agent that can ask; one that
    /// cannot gets a deny.
    pub fn decide_within(&self, event: &HookEvent, deadline: Option<Instant>) -> Verdict {
        if !event.capabilities.deny && !event.capabilities.ask {
            return Verdict::default();
        }
        let (hit, too_complex) = self.check_within(event, deadline);
        let decision = match &hit {
            Some(hit) => Decision {
                permission: match hit.action {
                    Action::Ask if event.capabilities.ask => Permission::Ask,
                    Action::Ask | Action::Deny => Permission::Deny,
                },
                reason: Some(format!("hookgate guard: {}", hit.reason)),
                agent_message: Some(
                    "Do not retry this; choose a safer alternative or ask the user.".to_owned(),
                ),
                ..Decision::default()
            },
            None => Decision::default(),
        };
        Verdict {
            decision,
            hit,
            too_complex,
        }
    }
}

fn deny(reason: String) -> Hit {
    Hit {
        action: Action::Deny,
        reason,
        unresolved: false,
        rule: None,
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
