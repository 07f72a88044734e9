//! Which [`Adapter`] speaks each dialect: the one place here that lists
//! them, apart from the agents' own modules (and away from
//! [`crate::adapter`], which they all import).

use crate::adapter::Adapter;
use crate::{
    Dialect, claude_code, cline, codex, copilot, cursor, droid, gemini_cli, hermes, opencode,
    qwen_code,
};

/// `dialect`'s adapter.
pub(crate) fn adapter(dialect: Dialect) -> &'static Adapter {
    match dialect {
        Dialect::ClaudeCode => &claude_code::ADAPTER,
        Dialect::Cursor => &cursor::ADAPTER,
        Dialect::ClineSdk => &cline::SDK,
        Dialect::ClineLegacy => &cline::LEGACY,
        Dialect::QwenCode => &qwen_code::ADAPTER,
        Dialect::Droid => &droid::ADAPTER,
        Dialect::GeminiCli => &gemini_cli::ADAPTER,
        Dialect::Codex => &codex::ADAPTER,
        Dialect::CopilotPascal => &copilot::PASCAL_ADAPTER,
        Dialect::CopilotCamel => &copilot::CAMEL_ADAPTER,
        Dialect::Hermes => &hermes::ADAPTER,
        Dialect::OpenCode => &opencode::ADAPTER,
    }
}
