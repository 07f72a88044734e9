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
    /// Print the running gateway's console login URL (`[ui]`); `--open`
    /// opens it in the browser.
    Ui(crate::ui_command::UiArgs),
    /// Show the last lines of the audit log (the decision log), filtered;
    /// `gateway audit verify` checks its hash chain.
    Audit(AuditArgs),
    /// Run one payload through a config's deciders in-process (remote
    /// subscribers called for real, no daemon), or with --socket through a
    /// running gateway's live config, and show the canonical event, each
    /// verdict, the merge, the losses and the agent's reply. The payload is
    /// a file, or built for the agent from --command, --tool/--input or
    /// --prompt. Exit code 0 allow, 2 block, 1 error (usage errors too).
    Eval(EvalArgs),
    /// Re-drive the decision log's events through a candidate config
    /// in-process and report what would change.
    Replay(ReplayArgs),
    /// Write a starter config (`init`), show the layered config (`show`),
    /// check a config file (`check`).
    Config(crate::config_command::ConfigArgs),
    /// Search, show and forget what the built-in `memory` subscriber kept
    /// (its database read directly: no running gateway needed).
    Memory(MemoryArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct MemoryArgs {
    #[command(subcommand)]
    pub(crate) action: MemoryAction,

    /// The memory database. Default: the `path` of the config's `memory`
    /// subscriber, else $XDG_STATE_HOME/hookgate/memory.db.
    #[arg(long, value_name = "PATH", global = true)]
    pub(crate) path: Option<PathBuf>,

    /// Print JSON (one object per memory for `search`).
    #[arg(long, global = true)]
    pub(crate) json: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum MemoryAction {
    /// The memories matching QUERY's words, best first (full-text rank,
    /// recency, the current directory's project first).
    Search {
        query: String,
        /// Only memories of the project DIR is in (its git root).
        #[arg(long, value_name = "DIR")]
        project: Option<PathBuf>,
        /// Only memories from this agent (`claude-code`, `codex`, ...).
        #[arg(long, value_name = "AGENT")]
        agent: Option<String>,
        /// The most bytes of memory text printed.
        #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024)]
        budget: usize,
    },
    /// One memory by its id.
    Show { id: i64 },
    /// Remove memories and their raw observations, then checkpoint so the
    /// forgotten text leaves the file.
    Forget {
        /// One memory, by id.
        #[arg(required_unless_present_any = ["session", "project", "all"])]
        id: Option<i64>,
        /// Everything of this session (the agent's session id).
        #[arg(long, value_name = "SESSION", conflicts_with_all = ["id", "project", "all"])]
        session: Option<String>,
        /// Everything of the project DIR is in (its git root).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["id", "all"])]
        project: Option<PathBuf>,
        /// Everything.
        #[arg(long, conflicts_with = "id")]
        all: bool,
    },
    /// What the database holds: counts per kind, projects, sizes.
    Stats,
}

#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("question").args(["payload", "command", "tool", "prompt"]))]
pub(crate) struct EvalArgs {
    /// Config file. Default: as `gateway serve` finds it.
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,

    /// Ask the gateway running on this socket instead of loading a config:
    /// the payload goes through its live config over its admin socket
    /// (PATH + `.admin`), as a shim's call would (guarded, merged, rendered,
    /// written to its decision log), and the same report comes back. The
    /// call is marked as a probe (session `hookgate-eval`): `probe: true` in
    /// the decision log (`gateway audit --probes` shows it), counted under
    /// probes in `gateway status`, not as the agent's traffic.
    #[arg(long, value_name = "PATH", conflicts_with = "config")]
    pub(crate) socket: Option<PathBuf>,

    /// The agent the payload is from (`claude-code`, `cursor`, ...).
    /// Needed with --command, --tool and --prompt; else detected from the
    /// payload.
    #[arg(long, value_name = "NAME")]
    pub(crate) agent: Option<String>,

    /// The agent's own event name, for payloads that name none (Copilot
    /// CLI's camelCase hooks), as the hook command line would give it.
    #[arg(long, value_name = "NAME", requires = "payload")]
    pub(crate) event: Option<String>,

    /// Build the agent's pre-tool payload for its shell tool running CMD.
    #[arg(long, value_name = "CMD")]
    pub(crate) command: Option<String>,

    /// Build the agent's pre-tool payload for its tool NAME, as the agent
    /// names it (`Write` for Claude Code, `write_file` for Gemini CLI,
    /// `editor` for Cline, `mcp__<server>__<tool>`): the name its hooks
    /// send and the decision log shows. A name hookgate does not know for
    /// the agent is refused.
    #[arg(long, value_name = "NAME")]
    pub(crate) tool: Option<String>,

    /// The tool's input for --tool: a JSON object, as the agent sends it
    /// (e.g. `{"file_path":"/etc/x","content":"y"}`). Default: `{}`.
    #[arg(long, value_name = "JSON", requires = "tool")]
    pub(crate) input: Option<String>,

    /// Build the agent's prompt-submit payload for the prompt TEXT.
    #[arg(long, value_name = "TEXT")]
    pub(crate) prompt: Option<String>,

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
    /// $XDG_STATE_HOME/hookgate/gateway.sock (default ~/.local/state) when it
    /// fits a socket address, else `$TMPDIR/hookgate-<uid>/gateway.sock`. On
    /// Windows a named pipe,
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

    /// Print the status document as JSON (stable schema, see docs/status.md).
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

    /// Also `gateway doctor`'s probe events and `gateway eval --socket`'s
    /// calls (left out by default).
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
