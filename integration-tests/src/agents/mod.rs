//! The real agent CLIs, driven headless and offline, with `gateway-shim`
//! as their hook command.
//!
//! - [`install`]: the pinned npm installs of Claude Code and the Cline CLI
//!   (together) and of Qwen Code, Factory Droid, Gemini CLI, Codex and
//!   Copilot CLI and OpenCode (each on its own), done
//!   once by the test setup itself; [`pip`](mod@pip): Hermes Agent from
//!   PyPI, in a venv of its own;
//! - [`isolation`](mod@isolation): a private network and PID namespace per run where the
//!   machine allows it;
//! - [`has_real_cli`]: which of the adapters' dialects a real CLI under
//!   test speaks (a run names its CLI by that dialect);
//! - [`AgentRun`] / [`AgentOutcome`]: one run (fresh HOME and work dir,
//!   the fake model from [`crate::fake_model`] as the only peer) and what
//!   it left: marker files, the model's recorded requests, the agent's
//!   output.
//!
//! How each CLI is driven is documented in docs/agents.md ("Running the
//! real CLIs headless and offline" and each agent's section), with what
//! was observed.

mod claude;
mod cli;
mod cline;
mod codex;
mod copilot;
mod droid;
mod gemini;
mod hermes;
pub mod install;
pub mod isolation;
mod opencode;
mod outcome;
pub mod pip;
mod qwen;
mod run;
mod setup;
#[cfg(test)]
mod tests;

pub use cli::{has_real_cli, pre_tool_event};
pub use install::{ClaudeCode, Clis, NpmCli, clis, npm_cli};
pub use isolation::{Isolation, isolation};
pub use outcome::AgentOutcome;
pub use pip::{PipCli, pip_cli};
pub use run::AgentRun;
