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
    /// Print the gateway(1) man page (roff); `--shim` prints
    /// gateway-shim(1), `--dir DIR` writes every page (gateway(1), one per
    /// subcommand, gateway-shim(1)) into DIR.
    Man(ManArgs),
    /// Make a running gateway read its config again (like SIGHUP): a valid
    /// config replaces the subscribers, an invalid one is refused and the
    /// running one stays. Exit code 0 when applied or unchanged, 2 when
    /// refused.
    Reload(ReloadArgs),
    /// List the calls a running gateway holds for a person (the built-in
    /// `approval`), approve or deny one, or watch them come and go.
    Approvals(crate::approvals_command::ApprovalsArgs),
    /// Show the last lines of the audit log (the decision log), filtered;
    /// `gateway audit verify` checks its hash chain.
    Audit(AuditArgs),
    /// Run one payload through a config's deciders in-process (remote
    /// subscribers called for real, no daemon) and show the canonical
    /// event, each verdict, the merge, the losses and the agent's reply.
    /// Exit code 0 allow, 2 block, 1 error.
    Eval(EvalArgs),
    /// Re-drive the decision log's events through a candidate config
    /// in-process and report what would change.
    Replay(ReplayArgs),
    /// Write a starter config (`init`), show the layered config (`show`),
    /// check a config file (`check`).
    Config(crate::config_command::ConfigArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct EvalArgs {
    /// Config file. Default: as `gateway serve` finds it.
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,

    /// The agent the payload is from (`claude-code`, `cursor`, ...).
    /// Needed with --command; else detected from the payload.
    #[arg(long, value_name = "NAME")]
    pub(crate) agent: Option<String>,

    /// The agent's own event name, for payloads that name none (Copilot
    /// CLI's camelCase hooks), as the hook command line would give it.
    #[arg(long, value_name = "NAME")]
    pub(crate) event: Option<String>,

    /// Build the agent's pre-tool payload for its shell tool running CMD.
    #[arg(long, value_name = "CMD", conflicts_with = "payload")]
    pub(crate) command: Option<String>,

    /// Print one JSON document.
    #[arg(long)]
    pub(crate) json: bool,

    /// A payload file, or `-` for stdin.
    #[arg(value_name = "PAYLOAD|-")]
    pub(crate) payload: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct ReplayArgs {
    /// The candidate config whose deciders replay the events.
    #[arg(long, value_name = "PATH")]
    pub(crate) config: PathBuf,

    /// The decision log. Default: the `path` of the running config's
    /// `audit` subscriber, else $XDG_STATE_HOME/hookgate/audit.jsonl.
    #[arg(long, value_name = "PATH")]
    pub(crate) log: Option<PathBuf>,

    /// Only events younger than AGE (`90s`, `10m`, `2h`, `1d`).
    #[arg(long, value_name = "AGE")]
    pub(crate) since: Option<String>,

    /// Print the report as one stable JSON document.
    #[arg(long)]
    pub(crate) json: bool,

    /// How many changed events to show with both decisions.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub(crate) samples: usize,
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
    /// 127.0.0.1:9464). Default: the config's `[server] metrics_addr`,
    /// else off.
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
    /// Apply the config even if it weakens hookgate (its built-in guard or
    /// decision log gone or narrowed), which a reload otherwise refuses.
    /// Run it yourself, from a terminal: self-protection denies it to an
    /// agent (docs/self-protection.md).
    #[arg(long)]
    pub(crate) allow_weaker: bool,
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

    /// Only events whose merged decision was this. A decision whose reply
    /// never reached the agent (the shim's deadline passed first, or the
    /// agent killed it) is marked NOT DELIVERED.
    #[arg(long, value_name = "DECISION", value_parser = ["allow", "ask", "deny", "none"])]
    pub(crate) decision: Option<String>,

    /// Only events whose reply reached the agent: with `--decision deny`,
    /// the calls the agent really refused.
    #[arg(long)]
    pub(crate) delivered: bool,

    /// Only events younger than AGE (`90s`, `10m`, `2h`, `1d`).
    #[arg(long, value_name = "AGE")]
    pub(crate) since: Option<String>,

    /// Only events of this session (the agent's session id).
    #[arg(long, value_name = "SESSION")]
    pub(crate) session: Option<String>,

    /// Only calls of this tool: its name as the agent calls it (`Bash`,
    /// `run_shell_command`) or its class (`shell`, `file_read`,
    /// `file_write`, `mcp`, ...), case-insensitive.
    #[arg(long, value_name = "TOOL")]
    pub(crate) tool: Option<String>,

    /// Also `gateway doctor`'s probe events (left out by default).
    #[arg(long)]
    pub(crate) probes: bool,

    /// Keep printing events as they are logged (across rotations) until
    /// interrupted.
    #[arg(short = 'f', long)]
    pub(crate) follow: bool,

    /// Times in UTC (default: the local time zone, from $TZ or the
    /// system's).
    #[arg(long)]
    pub(crate) utc: bool,

    /// Print the matching lines as stored (JSON, one per line).
    #[arg(long)]
    pub(crate) json: bool,

    /// How many of the last matching events to print (with --follow: before
    /// following).
    #[arg(short = 'n', long, value_name = "N", default_value_t = 20)]
    pub(crate) lines: usize,
}

#[derive(Debug, Subcommand)]
pub(crate) enum AuditAction {
    /// Check the log's hash chain over all its files: exit 0 when intact,
    /// 1 when a line was edited, removed or inserted, the log was cut, a
    /// rotated file is missing from the middle, or the anchor disagrees.
    Verify {
        /// Also compare the chain's head with this anchor (the audit
        /// subscriber's `anchor`): catches a rewrite of the whole chain.
        #[arg(long, value_name = "FILE")]
        anchor: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {
    /// Print gateway-shim(1) instead (the shim has no command line parser
    /// of its own to generate it from).
    #[arg(long, conflicts_with = "dir")]
    pub(crate) shim: bool,

    /// Write every page into DIR (created if missing) instead of printing
    /// one: gateway.1, gateway-SUBCOMMAND.1 for each subcommand,
    /// gateway-shim.1.
    #[arg(long, value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}
