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
mod decide;
pub mod facts;
mod namers;
mod options;
mod paths;
mod pattern;
pub mod protect;
pub mod rules;
mod shell;

#[cfg(test)]
mod tests;

use std::time::Duration;

use hookgate_adapters::Decision;
use regex::Regex;

use pattern::Judge;
use rules::{CommandJudges, CommandRule, FetchRule, PathRule};

pub use commands::{ShellCommand, ShellCommands, commands};
// The bounds on one call's work (see the crate docs).
pub use budget::{INLINE_WORK, MAX_WORK};
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

/// A rule's matcher compiled for judging words with unknown parts. `None`
/// when a regex did not compile again (too large once folded to no case):
/// a command or path rule without its judges says Maybe for every call it
/// could apply to; a regex rule's is its regex folded to no case, `None`
/// when it does not fold (or that did not compile), and the rule's own
/// regex is used. [`Guard::uncompiled`] names such rules.
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
                // Unfolded, the rule's own regex is the one to match with.
                Matcher::Regex(_, re) => Compiled::Regex(
                    fold.then(|| {
                        regex::RegexBuilder::new(re.as_str())
                            .case_insensitive(true)
                            .build()
                            .ok()
                    })
                    .flatten(),
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

    /// The ids of the rules that did not compile for this case folding (a
    /// pattern the config accepted that grows past the guard's size limit
    /// once folded to no case). The guard judges every call a command or
    /// path rule of them could apply to as Maybe, and matches a regex rule
    /// of them with case; a config holding one is refused.
    pub fn uncompiled(&self) -> Vec<&str> {
        self.rules
            .iter()
            .zip(&self.compiled)
            .filter(|(_, compiled)| match compiled {
                Compiled::Regex(folded) => self.fold && folded.is_none(),
                Compiled::Command(judges) => judges.is_none(),
                Compiled::Path(judge) => judge.is_none(),
                Compiled::Fetch => false,
            })
            .map(|(rule, _)| rule.id.as_str())
            .collect()
    }

    /// The same rules, comparing paths and command names without case
    /// (`true`: `CAT .ENV` reads `.env`, as on macOS and Windows).
    pub fn with_case_folding(self, fold: bool) -> Guard {
        // Compiling the rules again would only make the same automata.
        if fold == self.fold {
            return self;
        }
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
}
