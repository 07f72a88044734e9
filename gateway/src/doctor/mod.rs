//! `gateway doctor`: checks the whole chain a hook call travels — agent
//! config → shim → socket → gateway → config → subscribers — and says,
//! for each problem, what to run. Exits non-zero when the user is not
//! protected, so scripts and CI can rely on it.
//!
//! - [`agents`]: each agent's config holds hookgate's entries, for every
//!   event, pointing at an executable shim and gateway;
//! - [`gateway`]: one socket for all, the gateway answers there, its config
//!   has guard and audit, every subscriber is up, no fallbacks pending;
//! - [`probe`]: a synthetic event of each installed agent's dialect sent
//!   through the real shim with the agent's installed command.

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

mod agents;
mod gateway;
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
    #[arg(long = "agent", value_name = "NAME", value_parser = parse_agent)]
    pub(crate) agents: Vec<Agent>,
    /// The socket to check. Default: the one the installed hooks pin, else
    /// resolved like `gateway serve` does.
    #[arg(long, value_name = "PATH")]
    pub(crate) socket: Option<PathBuf>,
}

fn parse_agent(name: &str) -> Result<Agent, String> {
    name.parse().map_err(|err| format!("{err}"))
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
    let up = runtime.block_on(gateway::check(&socket, &mut report));
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
