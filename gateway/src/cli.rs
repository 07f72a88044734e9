//! The `gateway` command line. Names here are user-facing and stable.

use std::net::SocketAddr;
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
    /// Run the gateway in the foreground until SIGINT or SIGTERM (on
    /// Windows: Ctrl-C, Ctrl-Break or closing the console). SIGHUP, an
    /// edit of the config file and `gateway reload` reload its config.
    Serve(ServeArgs),
    /// Show a running gateway's counters, latency percentiles and
    /// subscriber states (asked over its admin socket).
    Status(StatusArgs),
    /// Register hookgate's hooks in agents' own configs (absolute shim
    /// path, pinned socket, autostart), with a backup; twice changes
    /// nothing.
    Install(crate::install::InstallArgs),
    /// Remove exactly the hooks `gateway install` added (the original file
    /// back byte for byte when nothing else changed).
    Uninstall(crate::install::Target),
    /// Check the whole chain (agent configs, shim, socket, gateway, config,
    /// subscribers, a test event per agent); exit 64 when unprotected.
    Doctor(crate::doctor::DoctorArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish,
    /// powershell).
    Completions(CompletionsArgs),
    /// Print the gateway(1) man page (roff).
    Man,
    /// Make a running gateway read its config again (like SIGHUP): a valid
    /// config replaces the subscribers, an invalid one is refused and the
    /// running one stays. Exit code 0 when applied or unchanged, 2 when
    /// refused.
    Reload(ReloadArgs),
    /// Show the last lines of the audit log (the decision log), filtered;
    /// `gateway audit verify` checks its hash chain.
    Audit(AuditArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// Config file. Default: $XDG_CONFIG_HOME/hookgate/gateway.toml (on
    /// Windows %APPDATA%\hookgate\gateway.toml) when it exists, else the
    /// embedded default.
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,

    /// Socket path. Default: the config's `server.socket`, else
    /// $HOOKGATE_SOCKET, else $XDG_RUNTIME_DIR/hookgate/gateway.sock, else
    /// `$TMPDIR/hookgate-<uid>/gateway.sock`. On Windows a named pipe,
    /// default `\\.\pipe\hookgate-<USERNAME>\gateway`.
    #[arg(long, value_name = "PATH")]
    pub(crate) socket: Option<PathBuf>,

    /// Serve Prometheus metrics at http://ADDR/metrics (e.g.
    /// 127.0.0.1:9464). Off by default.
    #[arg(long, value_name = "ADDR")]
    pub(crate) metrics_addr: Option<SocketAddr>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct StatusArgs {
    /// The gateway's socket (its admin socket is this path + `.admin`; a
    /// pipe name on Windows).
    /// Default: resolved like `gateway serve` does.
    #[arg(long, value_name = "PATH")]
    pub(crate) socket: Option<PathBuf>,

    /// Print the status document as JSON (stable schema, see the README).
    #[arg(long)]
    pub(crate) json: bool,

    /// Exit 1 when a subscriber is down (as well as when no gateway
    /// answers), for scripts and health checks.
    #[arg(long, conflicts_with = "watch")]
    pub(crate) check: bool,

    /// Refresh every SECS seconds until interrupted.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) watch: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct ReloadArgs {
    /// The gateway's socket (its admin socket is this path + `.admin`).
    /// Default: resolved like `gateway serve` does.
    #[arg(long, value_name = "PATH")]
    pub(crate) socket: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct AuditArgs {
    #[command(subcommand)]
    pub(crate) action: Option<AuditAction>,

    /// The audit log. Default: the `path` of the config's `audit`
    /// subscriber, else $XDG_STATE_HOME/hookgate/audit.jsonl.
    #[arg(long, value_name = "PATH", global = true)]
    pub(crate) path: Option<PathBuf>,

    /// Only events of this agent (`claude-code`, `cursor`, ...).
    #[arg(long, value_name = "AGENT")]
    pub(crate) agent: Option<String>,

    /// Only events whose merged decision was this.
    #[arg(long, value_name = "DECISION", value_parser = ["allow", "ask", "deny", "none"])]
    pub(crate) decision: Option<String>,

    /// Only events younger than AGE (`90s`, `10m`, `2h`, `1d`).
    #[arg(long, value_name = "AGE")]
    pub(crate) since: Option<String>,

    /// Print the matching lines as stored (JSON, one per line).
    #[arg(long)]
    pub(crate) json: bool,

    /// How many of the last matching events to print.
    #[arg(short = 'n', long, value_name = "N", default_value_t = 20)]
    pub(crate) lines: usize,
}

#[derive(Debug, Subcommand)]
pub(crate) enum AuditAction {
    /// Check the log's hash chain over all its files: exit 0 when intact,
    /// 1 when a line was edited, removed or inserted or the log was cut.
    Verify,
}

#[derive(Debug, clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}
