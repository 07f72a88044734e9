//! `gateway completions SHELL` and `gateway man`: shell completions and a
//! man page generated from the clap definitions, so they never drift from
//! the real command line.

use std::process::ExitCode;

use clap::CommandFactory as _;

use crate::cli::{Cli, CompletionsArgs};

/// Writes the completion script for `shell` to stdout (e.g.
/// `gateway completions bash > ~/.local/share/bash-completion/completions/gateway`).
pub(crate) fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut command = Cli::command();
    // Into memory first: `generate` panics when its writer fails.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "gateway", &mut script);
    crate::out::print(&script);
    ExitCode::SUCCESS
}

/// Writes the `gateway(1)` man page (roff) to stdout (e.g. `gateway man >
/// ~/.local/share/man/man1/gateway.1`).
pub(crate) fn man() -> ExitCode {
    let page = clap_mangen::Man::new(Cli::command());
    let mut roff = Vec::new();
    match page.render(&mut roff) {
        Ok(()) => {
            crate::out::print(&roff);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("gateway: error: writing the man page: {err}");
            ExitCode::FAILURE
        }
    }
}
