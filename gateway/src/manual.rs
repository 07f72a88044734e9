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
    clap_complete::generate(args.shell, &mut command, "gateway", &mut std::io::stdout());
    ExitCode::SUCCESS
}

/// Writes the `gateway(1)` man page (roff) to stdout (e.g. `gateway man >
/// ~/.local/share/man/man1/gateway.1`).
pub(crate) fn man() -> ExitCode {
    let page = clap_mangen::Man::new(Cli::command());
    match page.render(&mut std::io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("gateway: error: writing the man page: {err}");
            ExitCode::FAILURE
        }
    }
}
