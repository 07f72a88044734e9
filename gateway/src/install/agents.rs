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
/// the shim's own deadline (5 s, plus its bounded autostart wait), so the
/// agent never kills a shim that is about to answer (or fall back).
pub(crate) const HOOK_TIMEOUT_SECS: u64 = 30;

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
        // runs past every policy on the versions that have it.
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
            "ConfigChange",
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
        ],
        switch: None,
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
            ..SETTINGS
        }),
        dialect: Dialect::QwenCode,
        // Left alone as on Claude Code, whose protocol Qwen follows.
        unhooked: &["PermissionDenied", "StopFailure", "MessageDisplay"],
        guarded: &[],
        switch: None,
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
            ..SETTINGS
        }),
        // The model events fire on every model call: hooked all the same,
        // a policy may want to see (or block) what the model is sent.
        dialect: Dialect::GeminiCli,
        unhooked: &[],
        guarded: &[],
        switch: None,
    },
    AgentSpec {
        agent: Agent::Codex,
        // `$CODEX_HOME` moves `~/.codex`; install writes the default.
        user_path: ".codex/hooks.json",
        project_path: ".codex/hooks.json",
        programs: &["codex"],
        home_dir: ".codex",
        format: Format::Json(SETTINGS),
        dialect: Dialect::Codex,
        unhooked: &[],
        guarded: &[],
        // Without it Codex reads no hooks.json at all.
        switch: Some(TomlSwitch {
            path: ".codex/config.toml",
            table: "features",
            key: "hooks",
            notice: "Codex runs new or changed hooks only once trusted: start `codex` and answer \"Trust all and continue\" (`codex exec` skips untrusted hooks)",
        }),
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
    },
];

/// The spec of `agent`, if `gateway install` supports it.
pub(crate) fn spec(agent: Agent) -> Option<&'static AgentSpec> {
    AGENTS.iter().find(|spec| spec.agent == agent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_consistent() {
        for entry in AGENTS {
            let events = entry.events();
            for event in entry.guarded {
                assert!(events.contains(event), "{:?}: {event}", entry.agent);
            }
            assert!(!events.contains(&"WorktreeCreate"));
            assert_eq!(spec(entry.agent).map(|s| s.agent), Some(entry.agent));
        }
    }

    /// What install hooks and the adapters' table agree: the dialect is
    /// the agent's, and every name left out is a row of the table (a
    /// renamed or dropped row would otherwise be hooked unnoticed).
    #[test]
    fn installed_events_are_the_adapters_table_minus_the_exclusions() {
        for entry in AGENTS {
            assert_eq!(entry.dialect.agent(), entry.agent);
            let table = hookgate_adapters::hook_names(entry.dialect);
            for event in entry.unhooked {
                assert!(table.contains(event), "{:?}: {event}", entry.agent);
            }
            let events = entry.events();
            assert!(!events.is_empty(), "{:?}", entry.agent);
            assert_eq!(events.len() + entry.unhooked.len(), table.len());
            // A guarded event left unhooked would make `--fail-closed` a
            // switch on nothing there.
            for event in entry.guarded {
                assert!(
                    events.contains(event),
                    "{:?}: guarded {event} is not hooked",
                    entry.agent
                );
            }
        }
    }
}
