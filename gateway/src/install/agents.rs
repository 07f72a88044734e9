//! What `gateway install` knows of an agent: where it keeps its hooks, in
//! which format, and in which dialect. The agents themselves are rows of
//! [`AGENTS`] (`agents/table.rs`): adding one is a row there (plus a
//! format module if its config is new).
//!
//! The events hooked are the hooked rows of the dialect's events table
//! (its descriptor in `hookgate-dialect`, which parse, render and the
//! shim's fallback read too: [`hookgate_adapters::hook_names`]), in its
//! order; a row install leaves alone says so there, with why. Install
//! holds no list of its own.

use std::path::{Path, PathBuf};

use hookgate_adapters::{Agent, Dialect};

use super::hooks::Layout;
use super::toml_switch::TomlSwitch;

/// How long the agent waits for the hook, in the agent's unit: well above
/// the shim's own deadline (5 s, its autostart wait included), so the
/// agent never kills a shim that is about to answer (or fall back).
pub(crate) const HOOK_TIMEOUT_SECS: u64 = 30;

/// What the agent's own JSON reader accepts in this file (observed in its
/// CLI: docs/agents.md): what install reads and keeps, and what it refuses
/// by name because the agent would not read the file either.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Accepts {
    /// `//` and `/* */` comments (Gemini CLI and Qwen Code strip them).
    pub(crate) comments: bool,
    /// A trailing comma before `}` or `]`.
    pub(crate) trailing_commas: bool,
    /// A UTF-8 byte-order mark before the JSON (Qwen Code strips it).
    pub(crate) bom: bool,
}

impl Accepts {
    /// Plain JSON (`JSON.parse`, serde_json): the default until the agent's
    /// CLI shows it reads more.
    pub(crate) const JSON: Accepts = Accepts {
        comments: false,
        trailing_commas: false,
        bom: false,
    };
}

/// The unit of an agent's hook `timeout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeUnit {
    Secs,
    Millis,
}

impl TimeUnit {
    /// `value` of this unit in milliseconds.
    pub(crate) fn to_millis(self, value: u64) -> u64 {
        match self {
            TimeUnit::Secs => value.saturating_mul(1000),
            TimeUnit::Millis => value,
        }
    }

    /// How `gateway doctor` names it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            TimeUnit::Secs => "seconds",
            TimeUnit::Millis => "milliseconds",
        }
    }
}

/// An event whose hook the agent waits for less than for the others:
/// install writes `timeout` there (in the agent's unit) and gives the shim
/// a deadline that ends before it (Codex clamps SessionEnd and Interrupt
/// to 3 s, and says so on every run when asked for more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ShortEvent {
    pub(crate) event: &'static str,
    pub(crate) timeout: u64,
    /// The shim's `HOOKGATE_TIMEOUT_MS` in that command.
    pub(crate) shim_ms: u64,
}

/// One JSON config file holding event-keyed hooks.
#[derive(Debug)]
pub(crate) struct JsonFormat {
    /// The key of the events object (`hooks`), or `None` when the events
    /// are the file's top level (Droid).
    pub(crate) hooks_key: Option<&'static str>,
    /// A `"version": N` member the file must have (Cursor).
    pub(crate) version: Option<u64>,
    pub(crate) layout: Layout,
    /// The group's `matcher` (grouped shape only); `None`: no matcher key.
    pub(crate) matcher: Option<&'static str>,
    /// Whether handlers say `"type": "command"`.
    pub(crate) typed: bool,
    /// The hook timeout, in the agent's unit, under `timeout_key`.
    pub(crate) timeout: u64,
    pub(crate) timeout_key: &'static str,
    pub(crate) timeout_unit: TimeUnit,
    /// Events the agent gives less time (and a shorter shim deadline).
    pub(crate) short: &'static [ShortEvent],
    /// What the agent's reader accepts in this file.
    pub(crate) accepts: Accepts,
    /// Whether the command names the event after the agent: the agent's
    /// payloads name none (Copilot CLI's camelCase hooks).
    pub(crate) event_arg: bool,
    /// The agent's own fail-closed switch on a handler, set with
    /// `--fail-closed` on the events in `AgentSpec::guarded`.
    pub(crate) fail_closed: Option<(&'static str, FailSwitch)>,
}

/// The value of an agent's fail-closed switch.
#[derive(Debug, Clone, Copy)]
pub(crate) enum FailSwitch {
    /// `"key": true`.
    True,
    /// `"key": "<text>"`.
    Text(&'static str),
}

/// How an agent's hooks are configured.
#[derive(Debug)]
pub(crate) enum Format {
    Json(JsonFormat),
    /// One bash script per event in a hooks directory (Cline).
    ScriptDir,
    /// A marked `hooks:` block in a YAML config, plus the agent's consent
    /// file (Hermes Agent: [`super::hermes`]); the timeout in seconds.
    HermesYaml,
    /// hookgate's plugin file, which forwards every event of the dialect's
    /// table (OpenCode).
    Plugin,
}

/// One agent `gateway install` supports.
#[derive(Debug)]
pub(crate) struct AgentSpec {
    pub(crate) agent: Agent,
    /// Relative to HOME (`--scope user`).
    pub(crate) user_path: &'static str,
    /// Relative to the project, the working directory (`--scope project`).
    pub(crate) project_path: &'static str,
    /// Programs on PATH, or directories in HOME, that say it is installed.
    pub(crate) programs: &'static [&'static str],
    pub(crate) home_dir: &'static str,
    pub(crate) format: Format,
    /// The dialect the config registers hooks in: its events table in
    /// `hookgate-dialect` is the list of events hooked.
    pub(crate) dialect: Dialect,
    /// Events that can block an action: where `--fail-closed` also sets
    /// the agent's own fail-closed switch.
    pub(crate) guarded: &'static [&'static str],
    /// A TOML switch that must be on for the agent to run hooks (Codex).
    pub(crate) switch: Option<TomlSwitch>,
    /// The agent runs a new or changed hook only once the user trusted it
    /// (Codex's hook review): install trusts hookgate's own through the
    /// agent ([`super::codex`]), doctor checks it.
    pub(crate) hook_trust: bool,
}

impl AgentSpec {
    /// The events install hooks: the dialect's hooked rows.
    pub(crate) fn events(&self) -> Vec<&'static str> {
        hookgate_adapters::hook_names(self.dialect)
    }

    /// The config file (or hooks directory) for a scope rooted at `base`.
    pub(crate) fn path(&self, base: &Path, project: bool) -> PathBuf {
        base.join(if project {
            self.project_path
        } else {
            self.user_path
        })
    }

    /// Whether the agent looks installed: one of its programs on `path`
    /// (the PATH variable) or its directory in `home`.
    pub(crate) fn detected(&self, home: &Path, path: Option<&std::ffi::OsStr>) -> bool {
        let on_path = path.is_some_and(|path| {
            std::env::split_paths(path)
                .any(|dir| self.programs.iter().any(|p| dir.join(p).is_file()))
        });
        on_path || home.join(self.home_dir).is_dir()
    }
}

/// The spec of `agent`, if `gateway install` supports it.
pub(crate) fn spec(agent: Agent) -> Option<&'static AgentSpec> {
    AGENTS.iter().find(|spec| spec.agent == agent)
}

impl JsonFormat {
    /// The timeout install writes for `event`, in the agent's unit, and
    /// the shim deadline its command sets (`None`: the shim's default).
    pub(crate) fn timeout_for(&self, event: &str) -> (u64, Option<u64>) {
        match self.short.iter().find(|short| short.event == event) {
            Some(short) => (short.timeout, Some(short.shim_ms)),
            None => (self.timeout, None),
        }
    }
}

/// The agent `--agent NAME` means: the name the shim takes (`claude-code`)
/// or the agent's program (`claude`, `gemini`, `qwen`, `cursor-agent`...).
pub(crate) fn parse(name: &str) -> Result<Agent, String> {
    let by_program = || {
        AGENTS
            .iter()
            .find(|spec| spec.programs.contains(&name))
            .map(|spec| spec.agent)
    };
    match name.parse::<Agent>().ok().or_else(by_program) {
        Some(agent) if spec(agent).is_some() => Ok(agent),
        Some(agent) => Err(format!(
            "`{name}` ({agent}) is not supported by `gateway install` yet (supported: {})",
            names()
        )),
        None => Err(format!("unknown agent `{name}` (supported: {})", names())),
    }
}

/// `claude-code (claude), cursor (cursor-agent, cursor), ...`.
pub(crate) fn names() -> String {
    AGENTS
        .iter()
        .map(|spec| {
            let aliases: Vec<&str> = spec
                .programs
                .iter()
                .copied()
                .filter(|p| *p != spec.agent.as_str())
                .collect();
            if aliases.is_empty() {
                spec.agent.as_str().to_owned()
            } else {
                format!("{} ({})", spec.agent, aliases.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

mod table;

pub(crate) use table::AGENTS;

#[cfg(test)]
mod tests;
