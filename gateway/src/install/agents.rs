//! The table of agents `gateway install` knows: where each keeps its hooks,
//! in which format, and in which dialect. Adding an agent is one entry here
//! (plus a format module if its config is new).
//!
//! The events hooked are the rows of the dialect's table in the adapters
//! ([`hookgate_adapters::hook_names`]), in its order, minus the entry's
//! documented `unhooked` list: install holds no list of its own.

use std::path::{Path, PathBuf};

use hookgate_adapters::{Agent, Dialect};

use super::hooks::{Layout, Shape};
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

/// Claude Code's settings shape, which most agents copy: a `hooks` object
/// of event → matcher groups (`"matcher": ""`) of typed command handlers,
/// the timeout in seconds, no fail-closed switch. Entries say how they
/// differ.
const SETTINGS: JsonFormat = JsonFormat {
    hooks_key: Some("hooks"),
    version: None,
    layout: Layout::GROUPED,
    matcher: Some(""),
    typed: true,
    timeout: HOOK_TIMEOUT_SECS,
    timeout_key: "timeout",
    timeout_unit: TimeUnit::Secs,
    short: &[],
    accepts: Accepts::JSON,
    event_arg: false,
    fail_closed: None,
};

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
    /// The dialect the config registers hooks in: its adapters table is
    /// the list of events hooked.
    pub(crate) dialect: Dialect,
    /// Events of that table install leaves alone, on purpose: hooking one
    /// changes what every install writes and, under `--fail-closed`, what
    /// is blocked while the gateway is down.
    pub(crate) unhooked: &'static [&'static str],
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
    /// The events install hooks: the dialect's table minus `unhooked`.
    pub(crate) fn events(&self) -> Vec<&'static str> {
        let mut events = hookgate_adapters::hook_names(self.dialect);
        events.retain(|event| !self.unhooked.contains(event));
        events
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

/// The agents, in `--all` order.
pub(crate) const AGENTS: &[AgentSpec] = &[
    AgentSpec {
        agent: Agent::ClaudeCode,
        user_path: ".claude/settings.json",
        project_path: ".claude/settings.json",
        programs: &["claude"],
        home_dir: ".claude",
        format: Format::Json(JsonFormat {
            matcher: None,
            // Claude Code 2.1.295+; older versions ignore the key.
            fail_closed: Some(("onFailure", FailSwitch::Text("block"))),
            ..SETTINGS
        }),
        dialect: Dialect::ClaudeCode,
        // WorktreeCreate never: a hook there replaces worktree creation.
        // PreSkillShellCommand and PreModelSwitch are hooked although
        // 2.1.197 ignores them: without the first, a skill's inline command
        // runs past every policy on the versions that have it. ConfigChange
        // is hooked: unhooked, a settings file changed mid-session
        // (`disableAllHooks`) turns the hooks off at once; self-protection
        // denies it, and the session keeps its hooks (real_agents
        // self_protection).
        unhooked: &[
            "Setup",
            "InstructionsLoaded",
            "UserPromptExpansion",
            "MessageDisplay",
            "PostModelSwitch",
            "PermissionDenied",
            "TaskCreated",
            "TaskCompleted",
            "StopFailure",
            "TeammateIdle",
            "CwdChanged",
            "DirectoryAdded",
            "FileChanged",
            "WorktreeCreate",
            "WorktreeRemove",
            "PostCompact",
            "Elicitation",
            "ElicitationResult",
        ],
        guarded: &[
            "PreToolUse",
            "PreSkillShellCommand",
            "PermissionRequest",
            "UserPromptSubmit",
            "ConfigChange",
        ],
        switch: None,
        hook_trust: false,
    },
    AgentSpec {
        agent: Agent::Cursor,
        user_path: ".cursor/hooks.json",
        project_path: ".cursor/hooks.json",
        programs: &["cursor-agent", "cursor"],
        home_dir: ".cursor",
        format: Format::Json(JsonFormat {
            version: Some(1),
            layout: Layout::FLAT,
            matcher: None,
            typed: false,
            fail_closed: Some(("failClosed", FailSwitch::True)),
            ..SETTINGS
        }),
        dialect: Dialect::Cursor,
        unhooked: &[],
        guarded: &[
            "beforeSubmitPrompt",
            "preToolUse",
            "beforeShellExecution",
            "beforeMCPExecution",
            "beforeReadFile",
            "beforeTabFileRead",
            "subagentStart",
        ],
        switch: None,
        hook_trust: false,
    },
    AgentSpec {
        agent: Agent::Cline,
        // Read by the Cline CLI whatever its `--data-dir` (which moves
        // `~/.cline/hooks`) and by the VS Code extension.
        user_path: "Documents/Cline/Hooks",
        project_path: ".clinerules/hooks",
        programs: &["cline"],
        home_dir: ".cline",
        format: Format::ScriptDir,
        // The hook files the Cline CLI runs (SDK payloads).
        dialect: Dialect::ClineSdk,
        unhooked: &[],
        // Cline has no fail-closed switch; `--fail-closed` on the shim is
        // its only one (a `cancel` reply).
        guarded: &[],
        switch: None,
        hook_trust: false,
    },
    AgentSpec {
        agent: Agent::QwenCode,
        user_path: ".qwen/settings.json",
        project_path: ".qwen/settings.json",
        programs: &["qwen"],
        home_dir: ".qwen",
        format: Format::Json(JsonFormat {
            // Qwen's command timeout is in milliseconds.
            timeout: HOOK_TIMEOUT_SECS * 1000,
            timeout_unit: TimeUnit::Millis,
            // 0.24.4 reads settings with strip-json-comments after
            // stripping a BOM, then JSON.parse (no trailing commas): a file
            // it cannot parse it resets to `{}`.
            accepts: Accepts {
                comments: true,
                bom: true,
                ..Accepts::JSON
            },
            ..SETTINGS
        }),
        dialect: Dialect::QwenCode,
        // Left alone as on Claude Code, whose protocol Qwen follows.
        unhooked: &["PermissionDenied", "StopFailure", "MessageDisplay"],
        guarded: &[],
        switch: None,
        hook_trust: false,
    },
    AgentSpec {
        agent: Agent::Droid,
        user_path: ".factory/hooks.json",
        project_path: ".factory/hooks.json",
        programs: &["droid"],
        home_dir: ".factory",
        format: Format::Json(JsonFormat {
            hooks_key: None,
            matcher: Some("*"),
            ..SETTINGS
        }),
        dialect: Dialect::Droid,
        unhooked: &[],
        guarded: &[],
        switch: None,
        hook_trust: false,
    },
    AgentSpec {
        agent: Agent::GeminiCli,
        user_path: ".gemini/settings.json",
        project_path: ".gemini/settings.json",
        programs: &["gemini"],
        home_dir: ".gemini",
        format: Format::Json(JsonFormat {
            // Gemini's command timeout is in milliseconds; it has no
            // fail-closed switch (0.61.0).
            timeout: HOOK_TIMEOUT_SECS * 1000,
            timeout_unit: TimeUnit::Millis,
            // 0.61.0: strip-json-comments, then JSON.parse (no trailing
            // commas, no BOM).
            accepts: Accepts {
                comments: true,
                ..Accepts::JSON
            },
            ..SETTINGS
        }),
        // The model events fire on every model call: hooked all the same,
        // a policy may want to see (or block) what the model is sent.
        dialect: Dialect::GeminiCli,
        unhooked: &[],
        guarded: &[],
        switch: None,
        hook_trust: false,
    },
    AgentSpec {
        agent: Agent::Codex,
        // `$CODEX_HOME` moves `~/.codex`; install writes the default.
        user_path: ".codex/hooks.json",
        project_path: ".codex/hooks.json",
        programs: &["codex"],
        home_dir: ".codex",
        format: Format::Json(JsonFormat {
            // 0.171.0 waits at most 3 s for these two and warns on every
            // run when asked for more ("clamping SessionEnd hook timeout
            // to 3s"); both are non-blocking.
            short: &[
                ShortEvent {
                    event: "SessionEnd",
                    timeout: 3,
                    shim_ms: 2500,
                },
                ShortEvent {
                    event: "Interrupt",
                    timeout: 3,
                    shim_ms: 2500,
                },
            ],
            ..SETTINGS
        }),
        dialect: Dialect::Codex,
        unhooked: &[],
        guarded: &[],
        // Without it Codex reads no hooks.json at all.
        switch: Some(TomlSwitch {
            path: ".codex/config.toml",
            table: "features",
            key: "hooks",
        }),
        hook_trust: true,
    },
    AgentSpec {
        agent: Agent::Copilot,
        // A file of its own: Copilot loads every `*.json` of the directory.
        user_path: ".copilot/hooks/hookgate.json",
        project_path: ".github/hooks/hookgate.json",
        programs: &["copilot"],
        home_dir: ".copilot",
        format: Format::Json(JsonFormat {
            version: Some(1),
            layout: Layout {
                shape: Shape::Flat,
                command_key: "bash",
            },
            matcher: None,
            timeout_key: "timeoutSec",
            // camelCase: Copilot's own dialect, with every event
            // (permissionRequest, subagentStart, preCompact... have no
            // PascalCase form); its payloads name no event.
            event_arg: true,
            // A crashing hook already denies (1.0.57+); no switch.
            ..SETTINGS
        }),
        dialect: Dialect::CopilotCamel,
        unhooked: &[],
        guarded: &[],
        switch: None,
        hook_trust: false,
    },
];

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

#[cfg(test)]
mod tests;
