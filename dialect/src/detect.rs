//! Which dialect a payload speaks, from its top-level keys, the shim's hint
//! and the names of the environment variables the agent set.
//!
//! Dependency-free (see `sniff`), because the shim calls it too when it has
//! to answer without the gateway.

use alloc::string::String;
use core::fmt;

use crate::sniff::{self, TopLevel};
use crate::{Agent, Dialect};

/// The dialect and, when the payload names it, the agent's event name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    pub dialect: Dialect,
    /// The value of `hook_event_name` / `hookName`, when present.
    pub native_event: Option<String>,
}

/// Why no dialect could be chosen. Never carries payload bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DetectError {
    /// The payload is not a JSON object.
    NotAnObject,
    /// A JSON object, but no known agent's event-name field.
    UnknownDialect,
    /// The hint names an agent whose adapter does not exist yet.
    UnsupportedAgent(Agent),
}

impl fmt::Display for DetectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DetectError::NotAnObject => f.write_str("payload is not a JSON object"),
            DetectError::UnknownDialect => f.write_str(
                "payload has neither `hook_event_name` nor `hookName`: unknown agent dialect",
            ),
            DetectError::UnsupportedAgent(agent) => {
                write!(f, "agent `{agent}` has no adapter yet")
            }
        }
    }
}

impl core::error::Error for DetectError {}

/// Decides the dialect of `payload`.
///
/// An explicit `hint` (the shim's argument) wins over everything the payload
/// suggests; for Cline it still picks SDK or legacy from the payload.
/// `env_names` are the names (not values) of the agent-related environment
/// variables the hook process saw (`CLAUDE_PROJECT_DIR`, `CURSOR_VERSION`,
/// `CLINE_*`, ...), used to break ties.
///
/// One exception to "the hint wins": Cursor also runs the hooks registered
/// in `.claude/settings*.json`, with its own camelCase payloads. A
/// `claude-code` hint only says which settings file registered the shim, so
/// a payload that is unmistakably Cursor's (a camelCase event name plus a
/// Cursor field or `CURSOR_*` variable) is read as Cursor. Parsing it as
/// Claude Code would turn every Cursor event into an unknown, neutral one.
///
/// Without a hint:
/// * `hookName` → Cline: snake_case is the SDK format, PascalCase legacy;
/// * `hook_event_name` in camelCase → Cursor;
/// * `hookName` in camelCase → Copilot CLI's camelCase dialect (its
///   `permissionRequest`); no event name but `event_arg` and `sessionId` or
///   a `COPILOT_*` variable → the same, with `event_arg` as the event;
/// * `hook_event_name` in PascalCase → Qwen Code or Factory Droid when their
///   variables or fields say so (see `claude_protocol_agent`), then
///   Copilot CLI's PascalCase dialect (`is_copilot`), else Claude
///   Code, unless the payload is recognisably Gemini CLI's (a top-level
///   `timestamp` without Qwen's `permission_mode`, a Gemini-only event name
///   or a `GEMINI_*` variable: Gemini sets `GEMINI_CWD`, `GEMINI_SESSION_ID`,
///   `GEMINI_PLANS_DIR` and `GEMINI_PROJECT_DIR` even when it redacts the
///   rest of the hook's environment), after Codex (see `is_codex`).
///   Codex's `SessionEnd` carries no marker but the `CODEX_*` variables;
///   without them it is read as Claude Code's, which is harmless: it is
///   non-blocking and its neutral reply is the same.
/// * `hook_event_name` in snake_case with `extra` or a `HERMES_*`
///   variable → Hermes Agent (see `is_hermes`);
/// * a dotted `hook_event_name` (`tool.execute.before`) → OpenCode: only
///   hookgate's OpenCode plugin sends OpenCode's hook names, which no other
///   agent uses;
/// * an event name of neither case → the environment decides (`CURSOR_*`,
///   then `CLAUDE_*`).
pub fn detect(
    payload: &[u8],
    hint: Option<Agent>,
    env_names: &[&str],
) -> Result<Detected, DetectError> {
    detect_with_event(payload, hint, None, env_names)
}

/// [`detect`], given also the native event named on the shim's command
/// line after the agent (`gateway-shim copilot preToolUse`), which is the
/// event of a payload that names none: Copilot CLI's camelCase hooks.
pub fn detect_with_event(
    payload: &[u8],
    hint: Option<Agent>,
    event_arg: Option<&str>,
    env_names: &[&str],
) -> Result<Detected, DetectError> {
    let top = sniff::scan(payload).ok_or(DetectError::NotAnObject)?;
    let hook_name = top.string_value("hookName");
    let event_name = top.string_value("hook_event_name");
    let env = Env(env_names);

    let dialect = match hint {
        Some(Agent::GeminiCli) => Dialect::GeminiCli,
        Some(Agent::Codex) => Dialect::Codex,
        Some(Agent::Copilot) => match (&hook_name, &event_name) {
            (None, Some(_)) => Dialect::CopilotPascal,
            _ => Dialect::CopilotCamel,
        },
        Some(Agent::Cline) => cline_dialect(hook_name.as_deref(), &top),
        Some(Agent::Cursor) => Dialect::Cursor,
        Some(Agent::QwenCode) => Dialect::QwenCode,
        Some(Agent::Droid) => Dialect::Droid,
        Some(Agent::Hermes) => Dialect::Hermes,
        Some(Agent::OpenCode) => Dialect::OpenCode,
        Some(Agent::ClaudeCode) => match event_name.as_deref() {
            Some(name) if is_camel(name) && (has_cursor_fields(&top) || env.has("CURSOR_")) => {
                Dialect::Cursor
            }
            _ => Dialect::ClaudeCode,
        },
        None => match (&hook_name, &event_name) {
            // Copilot's `permissionRequest` (whatever the config's case):
            // Cline's `hookName`s are snake_case or PascalCase, never camel.
            (Some(name), _) if is_camel(name) && !name.contains('_') => Dialect::CopilotCamel,
            (Some(name), _) => cline_dialect(Some(name), &top),
            // No event name: Copilot's camelCase payloads, when the shim
            // was told the event and the payload or variables say Copilot.
            (None, None)
                if event_arg.is_some() && (top.has_key("sessionId") || env.has("COPILOT_")) =>
            {
                Dialect::CopilotCamel
            }
            (None, Some(name)) => unhinted_event_dialect(name, &top, &env)?,
            (None, None) => return Err(DetectError::UnknownDialect),
        },
    };
    let native_event = match dialect {
        Dialect::ClineSdk | Dialect::ClineLegacy => hook_name,
        Dialect::ClaudeCode
        | Dialect::Cursor
        | Dialect::QwenCode
        | Dialect::Droid
        | Dialect::GeminiCli
        | Dialect::Codex
        | Dialect::CopilotPascal
        | Dialect::Hermes => event_name,
        Dialect::OpenCode => event_name,
        Dialect::CopilotCamel => hook_name.or_else(|| event_arg.map(String::from)),
    };
    Ok(Detected {
        dialect,
        native_event,
    })
}

/// Gemini CLI's event names that Claude Code does not use.
const GEMINI_ONLY_EVENTS: [&str; 8] = [
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "PreCompress",
];

/// A `hook_event_name` payload with no hint.
fn unhinted_event_dialect(
    name: &str,
    top: &TopLevel<'_>,
    env: &Env<'_>,
) -> Result<Dialect, DetectError> {
    if is_hermes(name, top, env) {
        return Ok(Dialect::Hermes);
    }
    if name.contains('.') {
        return Ok(Dialect::OpenCode);
    }
    if is_camel(name) {
        return Ok(Dialect::Cursor);
    }
    if is_pascal(name) {
        if let Some(dialect) = claude_protocol_agent(top, env) {
            return Ok(dialect);
        }
        if is_copilot(name, top, env) {
            return Ok(Dialect::CopilotPascal);
        }
        if is_codex(name, top, env) {
            return Ok(Dialect::Codex);
        }
        if top.has_key("timestamp") || GEMINI_ONLY_EVENTS.contains(&name) || env.has("GEMINI_") {
            return Ok(Dialect::GeminiCli);
        }
        return Ok(Dialect::ClaudeCode);
    }
    if env.has("CURSOR_") {
        Ok(Dialect::Cursor)
    } else if env.has("CLAUDE_") {
        Ok(Dialect::ClaudeCode)
    } else {
        Err(DetectError::UnknownDialect)
    }
}

/// Qwen Code or Factory Droid, which both send Claude-shaped payloads.
///
/// * Qwen Code: a `QWEN_*` variable, or `timestamp` with `permission_mode`
///   (Claude Code and Codex never send `timestamp`, Gemini CLI and Copilot
///   never `permission_mode`). Checked before Gemini CLI: Qwen also sets
///   `GEMINI_PROJECT_DIR`.
/// * Droid: a `FACTORY_*` or `DROID_*` variable, a Droid permission mode
///   (`off`, `auto-low|medium|high`) or a Droid-only field (`CLAUDE_ENV_FILE`
///   on SessionStart, `tool_execution_count` on Stop,
///   `session_duration_ms` on SessionEnd).
fn claude_protocol_agent(top: &TopLevel<'_>, env: &Env<'_>) -> Option<Dialect> {
    if env.has("QWEN_") || (top.has_key("timestamp") && top.has_key("permission_mode")) {
        return Some(Dialect::QwenCode);
    }
    let droid_mode = top
        .string_value("permission_mode")
        .is_some_and(|mode| mode == "off" || mode.starts_with("auto-"));
    let droid_field = [
        "CLAUDE_ENV_FILE",
        "tool_execution_count",
        "session_duration_ms",
    ]
    .iter()
    .any(|key| top.has_key(key));
    (env.has("FACTORY_") || env.has("DROID_") || droid_mode || droid_field)
        .then_some(Dialect::Droid)
}

/// Copilot CLI's PascalCase payloads: a `COPILOT_*` variable (hooks get
/// `COPILOT_CLI=1`), or a top-level `timestamp` (Claude Code never sends
/// one) on a Claude Code event name Gemini CLI does not use, or on one it
/// shares without `transcript_path` (which Gemini sends on every event).
fn is_copilot(name: &str, top: &TopLevel<'_>, env: &Env<'_>) -> bool {
    const SHARED_WITH_GEMINI: [&str; 3] = ["SessionStart", "SessionEnd", "Notification"];
    env.has("COPILOT_")
        || (top.has_key("timestamp")
            && !GEMINI_ONLY_EVENTS.contains(&name)
            && (!SHARED_WITH_GEMINI.contains(&name) || !top.has_key("transcript_path")))
}

/// Codex: the Codex-only `Interrupt` event, `turn_id` (on every turn
/// event; Claude Code sends it only on `MessageDisplay`), `model` with
/// `permission_mode` on SessionStart (Claude Code's SessionStart has
/// neither), or a `CODEX_*` variable (`CODEX_HOME`, `CODEX_MANAGED_BY_NPM`).
fn is_codex(name: &str, top: &TopLevel<'_>, env: &Env<'_>) -> bool {
    name == "Interrupt"
        || (top.has_key("turn_id") && name != "MessageDisplay")
        || (name == "SessionStart" && top.has_key("model") && top.has_key("permission_mode"))
        || env.has("CODEX_")
}

/// Hermes Agent: a snake_case event name (`pre_tool_call`; Cursor's are
/// camelCase, Cline's SDK names go through `hookName`) with Hermes'
/// `extra` object or a `HERMES_*` variable (its hooks get `HERMES_HOME`
/// and `HERMES_SESSION_ID`).
fn is_hermes(name: &str, top: &TopLevel<'_>, env: &Env<'_>) -> bool {
    let snake = name.starts_with(|c: char| c.is_ascii_lowercase()) && name.contains('_');
    snake && (top.has_key("extra") || env.has("HERMES_"))
}

/// What the shim's arguments say, for the gateway (which receives them
/// forwarded): the first argument naming an agent, and the one after it,
/// unless it is a flag, as the native event (`gateway-shim copilot
/// preToolUse`). The shim parses the same grammar itself (`shim/src/cli.rs`).
pub fn args_hint<S: AsRef<str>>(args: &[S]) -> (Option<Agent>, Option<&str>) {
    let Some(at) = args
        .iter()
        .position(|arg| arg.as_ref().parse::<Agent>().is_ok())
    else {
        return (None, None);
    };
    let agent = args[at].as_ref().parse::<Agent>().ok();
    let event = args
        .get(at + 1)
        .map(AsRef::as_ref)
        .filter(|arg| !arg.starts_with('-') && arg.parse::<Agent>().is_err());
    (agent, event)
}

/// SDK or legacy. Without a readable `hookName` (only possible with a
/// `cline` hint), the SDK-only fields decide, else legacy's `model`; the
/// SDK, the current format, is the default.
fn cline_dialect(hook_name: Option<&str>, top: &TopLevel<'_>) -> Dialect {
    match hook_name {
        Some(name) if is_pascal(name) => Dialect::ClineLegacy,
        Some(_) => Dialect::ClineSdk,
        None if top.has_key("model") && !top.has_key("agent_id") => Dialect::ClineLegacy,
        None => Dialect::ClineSdk,
    }
}

fn has_cursor_fields(top: &TopLevel<'_>) -> bool {
    ["cursor_version", "conversation_id", "workspace_roots"]
        .iter()
        .any(|key| top.has_key(key))
}

/// `preToolUse`, `stop`: starts lowercase, no underscore (Cline SDK's
/// snake_case names go through `hookName`, never here).
fn is_camel(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
}

fn is_pascal(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}

/// The names of the environment variables the agent set.
struct Env<'a>(&'a [&'a str]);

impl Env<'_> {
    fn has(&self, prefix: &str) -> bool {
        self.0.iter().any(|name| name.starts_with(prefix))
    }
}

#[cfg(test)]
mod tests;
