//! The agents and the wire dialects they speak. Dependency-free, so the shim
//! can name them.

use core::fmt;
use core::str::FromStr;

/// A coding agent. The names (`claude-code`, `cursor`, ...) are what users
/// write in the gateway's config filters and as the shim's argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Agent {
    ClaudeCode,
    Cursor,
    Cline,
    GeminiCli,
    Codex,
    /// Qwen Code: Claude Code's protocol with its own events and tools.
    QwenCode,
    /// Factory Droid: Claude Code's protocol with its own events and tools.
    Droid,
    /// GitHub Copilot CLI, in either of its two config dialects.
    Copilot,
    /// Hermes Agent (NousResearch): shell hooks in `config.yaml`.
    Hermes,
    /// OpenCode (1.x): an in-process plugin hookgate ships forwards each
    /// event to the shim in Claude Code's protocol.
    OpenCode,
}

/// The JSON dialect of a hook payload. One agent may speak several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    ClaudeCode,
    Cursor,
    /// Cline's SDK file hooks (the CLI): `hookName` in snake_case.
    ClineSdk,
    /// Cline's VS Code extension hooks: `hookName` in PascalCase.
    ClineLegacy,
    /// Qwen Code: Claude-shaped payloads plus `timestamp`, `permission_mode`
    /// and `prompt_id`; Claude Code's reply format.
    QwenCode,
    /// Factory Droid: Claude-shaped payloads, Claude Code's reply format.
    Droid,
    /// Gemini CLI: Claude-shaped payloads plus `timestamp` under its own
    /// event names (`BeforeTool`, ...); its own reply format.
    GeminiCli,
    /// Codex: Claude-shaped payloads plus `turn_id`, `model` and
    /// `permission_mode`; its own strict reply schemas.
    Codex,
    /// Copilot CLI hooks configured with PascalCase event names:
    /// Claude-shaped payloads (plus `timestamp`) and Claude Code's replies.
    CopilotPascal,
    /// Copilot CLI hooks configured with camelCase event names: its own
    /// payloads, which name no event (the shim's argument does), and flat
    /// replies.
    CopilotCamel,
    /// Hermes Agent's shell hooks: snake_case `hook_event_name`, Claude's
    /// `tool_name`/`tool_input`/`session_id`/`cwd` plus an `extra` object;
    /// replies only on stdout (exit codes are ignored).
    Hermes,
    /// OpenCode: the documents hookgate's own plugin sends (Claude-shaped
    /// fields under OpenCode's hook names, `tool.execute.before`, ...);
    /// Claude Code's reply format, which the plugin applies.
    OpenCode,
}

/// What the shim does when the gateway cannot answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FailMode {
    /// Answer the agent's neutral reply: the agent goes on as if no hook ran.
    #[default]
    Open,
    /// Block whatever the event lets a hook block.
    Closed,
}

impl FailMode {
    /// `open` or `closed`, as `HOOKGATE_FAIL` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            FailMode::Open => "open",
            FailMode::Closed => "closed",
        }
    }
}

impl Agent {
    /// Every agent, in a stable order.
    pub const ALL: [Agent; 10] = [
        Agent::ClaudeCode,
        Agent::Cursor,
        Agent::Cline,
        Agent::GeminiCli,
        Agent::Codex,
        Agent::QwenCode,
        Agent::Droid,
        Agent::Copilot,
        Agent::Hermes,
        Agent::OpenCode,
    ];

    /// The name users write in config files and on the shim's command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Cursor => "cursor",
            Agent::Cline => "cline",
            Agent::GeminiCli => "gemini-cli",
            Agent::Codex => "codex",
            Agent::QwenCode => "qwen-code",
            Agent::Droid => "droid",
            Agent::Copilot => "copilot",
            Agent::Hermes => "hermes",
            Agent::OpenCode => "opencode",
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error for an agent name hookgate does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAgent;

impl fmt::Display for UnknownAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown agent (expected ")?;
        let last = Agent::ALL.len() - 1;
        for (i, agent) in Agent::ALL.iter().enumerate() {
            let before = match i {
                0 => "",
                _ if i == last => " or ",
                _ => ", ",
            };
            write!(f, "{before}{}", agent.as_str())?;
        }
        f.write_str(")")
    }
}

impl core::error::Error for UnknownAgent {}

impl FromStr for Agent {
    type Err = UnknownAgent;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Agent::ALL
            .into_iter()
            .find(|agent| agent.as_str() == s)
            .ok_or(UnknownAgent)
    }
}

impl Dialect {
    /// Every dialect, in a stable order.
    pub const ALL: [Dialect; 12] = [
        Dialect::ClaudeCode,
        Dialect::Cursor,
        Dialect::ClineSdk,
        Dialect::ClineLegacy,
        Dialect::QwenCode,
        Dialect::Droid,
        Dialect::GeminiCli,
        Dialect::Codex,
        Dialect::CopilotPascal,
        Dialect::CopilotCamel,
        Dialect::Hermes,
        Dialect::OpenCode,
    ];

    /// The agent that speaks this dialect.
    pub fn agent(self) -> Agent {
        match self {
            Dialect::ClaudeCode => Agent::ClaudeCode,
            Dialect::Cursor => Agent::Cursor,
            Dialect::ClineSdk | Dialect::ClineLegacy => Agent::Cline,
            Dialect::QwenCode => Agent::QwenCode,
            Dialect::Droid => Agent::Droid,
            Dialect::GeminiCli => Agent::GeminiCli,
            Dialect::Codex => Agent::Codex,
            Dialect::CopilotPascal | Dialect::CopilotCamel => Agent::Copilot,
            Dialect::Hermes => Agent::Hermes,
            Dialect::OpenCode => Agent::OpenCode,
        }
    }

    /// The most characters of injected context the agent keeps; longer
    /// context is truncated by `merge` with a visible marker.
    pub fn context_limit(self) -> usize {
        match self {
            // Claude Code caps hook output strings at 10,000 characters.
            Dialect::ClaudeCode => 10_000,
            // Cursor documents no cap; keep Claude Code's, the tighter one
            // of the agents it mirrors.
            Dialect::Cursor => 10_000,
            // Cline truncates hook context at 50,000 characters.
            Dialect::ClineSdk | Dialect::ClineLegacy => 50_000,
            // Neither documents a cap; they follow Claude Code's protocol,
            // so they get its limit.
            Dialect::QwenCode | Dialect::Droid => 10_000,
            // Gemini CLI documents no cap; Claude Code's, whose hook
            // protocol it mirrors.
            Dialect::GeminiCli => 10_000,
            // Codex documents no cap either.
            Dialect::Codex => 10_000,
            // Copilot CLI documents no cap either.
            Dialect::CopilotPascal | Dialect::CopilotCamel => 10_000,
            // Hermes appends `pre_llm_call` context to the user message
            // uncapped; Claude Code's limit keeps a turn's prompt sane.
            Dialect::Hermes => 10_000,
            // The plugin adds context as a system message; OpenCode sets no
            // cap there, so Claude Code's protocol limit.
            Dialect::OpenCode => 10_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_and_the_error_lists_them_all() {
        let listed = UnknownAgent.to_string();
        for agent in Agent::ALL {
            assert_eq!(agent.as_str().parse::<Agent>(), Ok(agent));
            assert!(listed.contains(agent.as_str()), "{listed}");
        }
        let names: alloc::vec::Vec<&str> = Agent::ALL.iter().map(|a| a.as_str()).collect();
        let (last, rest) = names.split_last().unwrap();
        assert_eq!(
            listed,
            alloc::format!("unknown agent (expected {} or {last})", rest.join(", "))
        );
        assert_eq!("claude".parse::<Agent>(), Err(UnknownAgent));
    }
}
