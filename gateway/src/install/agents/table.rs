//! The agents `gateway install` supports, one row each, in `--all` order;
//! what each field means is said on [`AgentSpec`].

use hookgate_adapters::{Agent, Dialect};

use super::super::hooks::{Layout, Shape};
use super::super::toml_switch::TomlSwitch;
use super::{
    Accepts, AgentSpec, FailSwitch, Format, HOOK_TIMEOUT_SECS, JsonFormat, ShortEvent, TimeUnit,
};

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
        guarded: &[],
        switch: None,
        hook_trust: false,
    },
    AgentSpec {
        agent: Agent::Hermes,
        // `$HERMES_HOME` moves `~/.hermes`; install writes the default.
        // Hermes has no project config: the project path is read only
        // with `HERMES_HOME=<project>/.hermes`.
        user_path: ".hermes/config.yaml",
        project_path: ".hermes/config.yaml",
        programs: &["hermes"],
        home_dir: ".hermes",
        format: Format::HermesYaml,
        dialect: Dialect::Hermes,
        // No fail-closed switch: a hook that fails or times out lets the
        // tool run; `--fail-closed` on the shim is the only one.
        guarded: &[],
        switch: None,
        hook_trust: false,
    },
    AgentSpec {
        agent: Agent::OpenCode,
        // OpenCode 1.x loads `{plugin,plugins}/*.{js,ts}` of its config
        // directories; `$XDG_CONFIG_HOME` moves `~/.config`, install
        // writes the default.
        user_path: ".config/opencode/plugin/hookgate.js",
        project_path: ".opencode/plugin/hookgate.js",
        programs: &["opencode"],
        home_dir: ".config/opencode",
        format: Format::Plugin,
        // The plugin forwards every event of the table itself.
        dialect: Dialect::OpenCode,
        // No switch of OpenCode's: the plugin applies `--fail-closed` from
        // its command when the shim cannot run.
        guarded: &[],
        switch: None,
        hook_trust: false,
    },
];
