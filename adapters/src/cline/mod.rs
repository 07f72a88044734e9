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
//! What each event is and can express is in both dialects' tables in
//! `hookgate-dialect` ([`hookgate_dialect::events`]).
//!
//! Both ignore exit codes when stdout holds JSON, and in both a `cancel`
//! ends the whole task, not just the tool call. That is why a deny in
//! Cline stops the task (docs/agents.md).

mod envelope;
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

use crate::adapter::Adapter;
use legacy::parse_legacy;
use render::render;
use sdk::parse_sdk;

/// The SDK file hooks' parse and render.
pub(crate) const SDK: Adapter = Adapter {
    parse: |payload, _| parse_sdk(payload),
    render,
};

/// The legacy VS Code hooks' parse and render.
pub(crate) const LEGACY: Adapter = Adapter {
    parse: |payload, _| parse_legacy(payload),
    render,
};
