//! Cline's two hook dialects, one adapter.
//!
//! - SDK file hooks ([`Dialect::ClineSdk`](crate::Dialect::ClineSdk)), run
//!   by the Cline CLI and SDK hosts: snake_case `hookName` (`tool_call`,
//!   `tool_result`, ...), stdout JSON `cancel`/`context`/`errorMessage`/
//!   `overrideInput`. Only `tool_call` and `tool_result` are read; every
//!   other event runs detached.
//! - Legacy VS Code extension hooks
//!   ([`Dialect::ClineLegacy`](crate::Dialect::ClineLegacy)): PascalCase
//!   `hookName`, `preToolUse {toolName, parameters}` with the old XML tool
//!   names, stdout JSON `cancel`/`contextModification`/`errorMessage`.
//!
//! Both ignore exit codes when stdout holds JSON, and in both a `cancel`
//! ends the whole task, not just the tool call. That is why a deny in
//! Cline stops the task (docs/agents.md).

mod envelope;
pub(crate) mod events;
mod legacy;
mod render;
mod sdk;
mod tools;

#[cfg(test)]
mod parse_tests;
#[cfg(test)]
mod render_tests;
#[cfg(test)]
mod robustness_tests;

pub(crate) use legacy::parse_legacy;
pub(crate) use render::render;
pub(crate) use sdk::parse_sdk;
