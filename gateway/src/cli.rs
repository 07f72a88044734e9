//! The `gateway` command line. Names here are user-facing and stable.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// hookgate gateway: answers the hooks of every AI coding agent.
#[derive(Debug, Parser)]
#[command(name = "gateway", version)]
pub(crate) struct Cli {
    /// Log filter (`error`, `warn`, `info`, `debug`, `trace`, or a tracing
    /// directive). Default: $RUST_LOG, else `info`. Payloads are logged at
    /// debug at most.
    #[arg(long, global = true, value_name = "LEVEL")]
    pub(crate) log_level: Option<String>,

    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the gateway in the foreground until SIGINT or SIGTERM.
    Serve(ServeArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// Config file. Default: $XDG_CONFIG_HOME/hookgate/gateway.toml when it
    /// exists, else the embedded default.
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,

    /// Socket path. Default: the config's `server.socket`, else
    /// $HOOKGATE_SOCKET, else $XDG_RUNTIME_DIR/hookgate/gateway.sock, else
    /// $TMPDIR/hookgate-<uid>/gateway.sock.
    #[arg(long, value_name = "PATH")]
    pub(crate) socket: Option<PathBuf>,
}
