//! `gateway completions SHELL` and `gateway man`: shell completions and man
//! pages. The option text is generated from the clap definitions, so it
//! never drifts from the real command line; FILES, ENVIRONMENT, EXIT STATUS
//! and EXAMPLES are written by hand next to it (`sections`), and so is
//! gateway-shim(1) (`shim_page`): the shim has no clap to generate it from,
//! and must not gain one.
#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

mod sections;
mod shim_page;

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::CommandFactory as _;

use crate::cli::{Cli, CompletionsArgs, ManArgs};

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

/// `gateway man`: gateway(1) to stdout (e.g. `gateway man >
/// ~/.local/share/man/man1/gateway.1`), gateway-shim(1) with `--shim`,
/// every page into a directory with `--dir`.
pub(crate) fn man(args: &ManArgs) -> ExitCode {
    let result = match (&args.dir, args.shim) {
        (Some(dir), _) => write_all(dir),
        (None, true) => {
            crate::out::print(shim_page::render().as_bytes());
            Ok(())
        }
        (None, false) => gateway_page().map(|page| crate::out::print(&page)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("gateway: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// gateway(1): clap_mangen's page with the hand-written sections inserted
/// before its VERSION section (where man pages put them), or at the end.
fn gateway_page() -> anyhow::Result<Vec<u8>> {
    let mut roff = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut roff)
        .context("rendering gateway(1)")?;
    let roff = String::from_utf8(roff).context("gateway(1) is not UTF-8")?;
    let at = roff.find("\n.SH VERSION").map_or(roff.len(), |at| at + 1);
    let mut page = String::with_capacity(roff.len() + 8192);
    page.push_str(&roff[..at]);
    if !page.ends_with('\n') {
        page.push('\n');
    }
    page.push_str(&sections::render());
    page.push_str(&roff[at..]);
    Ok(page.into_bytes())
}

/// Every page into `dir`: clap_mangen's one per subcommand (gateway-serve.1,
/// gateway-audit-verify.1, ...), then gateway.1 and gateway-shim.1, ours.
fn write_all(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    clap_mangen::generate_to(Cli::command(), dir)
        .with_context(|| format!("writing the subcommand pages into {}", dir.display()))?;
    let gateway = dir.join("gateway.1");
    std::fs::write(&gateway, gateway_page()?)
        .with_context(|| format!("writing {}", gateway.display()))?;
    let shim = dir.join("gateway-shim.1");
    std::fs::write(&shim, shim_page::render())
        .with_context(|| format!("writing {}", shim.display()))?;
    outln!("wrote the man pages into {}", dir.display());
    Ok(())
}
