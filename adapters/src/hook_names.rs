//! The events each dialect's table holds, by the name an agent's config
//! registers a hook under: what `gateway install` hooks comes from the
//! tables parse and render read, so the three cannot disagree.

use crate::claude_code::events::EventSpec;
use crate::{Dialect, claude_code, cline, codex, copilot, cursor, droid, gemini_cli, qwen_code};

/// The hook names of the events `dialect`'s table holds, in table order:
/// the native event names, but for Cline's SDK hooks the hook file's
/// (`PreToolUse` receives `hookName: "tool_call"`). An event missing here
/// reads as unknown (`other`, nothing expressible).
pub fn hook_names(dialect: Dialect) -> Vec<&'static str> {
    let rows = |table: &'static [EventSpec]| table.iter().map(|spec| spec.name).collect();
    match dialect {
        Dialect::ClaudeCode => rows(claude_code::CLAUDE_CODE.events),
        Dialect::Cursor => cursor::events::EVENTS.iter().map(|row| row.0).collect(),
        Dialect::ClineSdk => cline::events::SDK.iter().map(|row| row.0).collect(),
        Dialect::ClineLegacy => cline::events::LEGACY.iter().map(|row| row.0).collect(),
        Dialect::QwenCode => rows(qwen_code::PROTOCOL.events),
        Dialect::Droid => rows(droid::PROTOCOL.events),
        Dialect::GeminiCli => rows(gemini_cli::PROTOCOL.events),
        Dialect::Codex => rows(codex::PROTOCOL.events),
        Dialect::CopilotPascal => rows(copilot::PASCAL.events),
        Dialect::CopilotCamel => rows(copilot::CAMEL.events),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each name once: install would hook a name twice.
    #[test]
    fn every_dialect_names_each_of_its_events_once() {
        for dialect in Dialect::ALL {
            let names = hook_names(dialect);
            assert!(!names.is_empty(), "{dialect:?}");
            for (at, name) in names.iter().enumerate() {
                assert!(!names[..at].contains(name), "{dialect:?}: {name} twice");
            }
        }
    }
}
