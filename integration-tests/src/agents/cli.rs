//! Which real CLI speaks which of the adapters' dialects, and how the
//! harness hooks it by default. The dialects are the adapters' own list
//! ([`Dialect::ALL`]): a dialect no CLI under test speaks is `None` here,
//! so a loop over that list (the conformance matrix) sees what it misses.

use hookgate_adapters::Dialect;

use super::install::{self, NpmCli};
use super::pip::{self, PipCli};
use super::{claude, cline, codex, copilot, droid, gemini, hermes, opencode, qwen};

/// How the harness installs a real CLI.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cli {
    /// Claude Code and the Cline CLI, installed together.
    Pair,
    /// One CLI of its own.
    Single(&'static NpmCli),
    /// One CLI from PyPI, in a venv of its own.
    Pip(&'static PipCli),
}

/// The real CLI speaking `dialect`: `None` for Cursor's (no headless
/// CLI) and the Cline VS Code extension's.
pub(crate) fn cli(dialect: Dialect) -> Option<Cli> {
    match dialect {
        Dialect::ClaudeCode | Dialect::ClineSdk => Some(Cli::Pair),
        Dialect::QwenCode => Some(Cli::Single(&install::QWEN_CODE)),
        Dialect::Droid => Some(Cli::Single(&install::DROID)),
        Dialect::GeminiCli => Some(Cli::Single(&install::GEMINI_CLI)),
        Dialect::Codex => Some(Cli::Single(&install::CODEX)),
        Dialect::CopilotPascal | Dialect::CopilotCamel => Some(Cli::Single(&install::COPILOT)),
        Dialect::OpenCode => Some(Cli::Single(&install::OPENCODE)),
        Dialect::Hermes => Some(Cli::Pip(&pip::HERMES)),
        Dialect::Cursor | Dialect::ClineLegacy => None,
    }
}

/// Whether a real CLI speaking `dialect` is under test.
pub fn has_real_cli(dialect: Dialect) -> bool {
    cli(dialect).is_some()
}

/// The hook events a run installs unless told otherwise (the agent's own
/// names).
pub(crate) fn default_hooks(dialect: Dialect) -> &'static [&'static str] {
    match dialect {
        Dialect::ClaudeCode => &claude::DEFAULT_HOOKS,
        Dialect::ClineSdk => &cline::DEFAULT_HOOKS,
        Dialect::QwenCode => &qwen::DEFAULT_HOOKS,
        Dialect::Droid => &droid::DEFAULT_HOOKS,
        Dialect::GeminiCli => &gemini::DEFAULT_HOOKS,
        Dialect::Codex => &codex::DEFAULT_HOOKS,
        Dialect::CopilotPascal => &copilot::PASCAL_HOOKS,
        Dialect::CopilotCamel => &copilot::CAMEL_HOOKS,
        Dialect::OpenCode => &opencode::DEFAULT_HOOKS,
        Dialect::Hermes => &hermes::DEFAULT_HOOKS,
        Dialect::Cursor | Dialect::ClineLegacy => &[],
    }
}

/// The name of the hook before a tool call in the agent's hook config.
pub fn pre_tool_event(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::GeminiCli => "BeforeTool",
        Dialect::CopilotCamel => "preToolUse",
        Dialect::Cursor => "beforeShellExecution",
        Dialect::Hermes => "pre_tool_call",
        Dialect::OpenCode => "tool.execute.before",
        Dialect::ClaudeCode
        | Dialect::ClineSdk
        | Dialect::ClineLegacy
        | Dialect::QwenCode
        | Dialect::Droid
        | Dialect::Codex
        | Dialect::CopilotPascal => "PreToolUse",
    }
}
