//! gateway-shim: the hook command every agent runs.
//!
//! Agents spawn it once per hook event. It forwards its argv, cwd, the
//! agent-related environment and stdin to the gateway over a local socket
//! and replays the gateway's stdout, stderr and exit code. When the gateway
//! cannot answer in time it answers on its own, fail-open by default (see
//! `run` for the flow and the shim's README for every decision).
//!
//! This file stays thin: each concept lives in its own module.

mod call;
mod cli;
mod config;
mod output;
mod record;
mod request;
mod run;

fn main() -> std::process::ExitCode {
    run::run()
}
