//! `gateway doctor`: checks the whole chain a hook call travels — agent
//! config → shim → socket → gateway → config → subscribers — and says,
//! for each problem, what to run. Exits non-zero when the user is not
//! protected, so scripts and CI can rely on it.
//!
//! - [`agents`]: each agent's config holds hookgate's entries, for every
//!   event, pointing at an executable shim and gateway;
//! - [`gates`]: what the agent will do with them: no settings layer
//!   (managed, user, project, local) switches hooks off, hookgate's groups
//!   match every tool, the agent waits longer than the shim;
//!   [`holds`]: with an `approval`, the held events' shim and agent wait
//!   longer than its holds;
//!   [`codex`]: Codex trusts and runs them;
//! - [`gateway`]: one socket for all, the gateway answers there (started
//!   through an installed hook, as the first hook call would), its config
//!   has guard and audit that see every installed agent, every subscriber
//!   is up, no fallbacks pending;
//! - [`http`]: with `[http]` on, the HTTP hook port is held by this user
//!   (the gateway or the service manager), not by another user or nobody;
//! - [`probe`]: a synthetic event of each installed agent's dialect sent
//!   through the real shim with the agent's installed command, then a
//!   dangerous one that must come back denied.

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

mod agents;
mod codex;
mod gates;
mod gateway;
mod holds;
mod http;
pub(crate) mod probe;

pub(crate) use gateway::subscribers;

use std::path::PathBuf;
use std::process::ExitCode;

use hookgate_adapters::Agent;

/// Exit code when something leaves the user unprotected (as `openmoat
/// doctor` and BSD's EX_USAGE-style codes: distinct from a crash's 1).
const EXIT_UNPROTECTED: u8 = 64;

#[derive(Debug, clap::Args)]
pub(crate) struct DoctorArgs {
    /// Check only this agent (repeatable; default: every agent whose
    /// config has hookgate's hooks).
    #[arg(long = "agent", value_name = "NAME", value_parser = crate::install::agents::parse)]
    pub(crate) agents: Vec<Agent>,
    /// The socket to check. Default: the one the installed hooks pin, else
    /// resolved like `gateway serve` does.
    #[arg(long, value_name = "PATH")]
    pub(crate) socket: Option<PathBuf>,
}

/// What the checks found.
#[derive(Debug, Default)]
pub(crate) struct Report {
    problems: usize,
}

impl Report {
    pub(crate) fn ok(&mut self, what: &str) {
        outln!("ok       {what}");
    }

    pub(crate) fn note(&mut self, what: &str) {
        outln!("note     {what}");
    }

    /// An unprotected situation, and what to run about it.
    pub(crate) fn problem(&mut self, what: &str, fix: &str) {
        self.problems += 1;
        outln!("PROBLEM  {what}\n         fix: {fix}");
    }
}

pub(crate) fn run(args: &DoctorArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("gateway: error: cannot start the runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    let mut report = Report::default();
    let installed = agents::check(&args.agents, &mut report);
    let socket = gateway::socket(args.socket.clone(), &installed, &mut report);
    gateway::check_config(&installed, &mut report);
    // Read before anything starts a gateway, which collects them.
    let pending = hookgate_daemon::shim_records::peek(&socket);
    let up = runtime.block_on(gateway::reach(&socket, &installed, &mut report));
    gateway::report_pending(&pending, up, &mut report);
    http::check(&mut report);
    if up {
        runtime.block_on(probe::check(&socket, &installed, &mut report));
    } else if !installed.is_empty() {
        report.note("the round trip through the shim is skipped: no gateway to answer it");
    }
    if report.problems == 0 {
        outln!("hookgate doctor: protected");
        ExitCode::SUCCESS
    } else {
        outln!(
            "hookgate doctor: {} problem(s): not protected until they are fixed",
            report.problems
        );
        ExitCode::from(EXIT_UNPROTECTED)
    }
}
