//! `gateway install` and `gateway uninstall`: hookgate's hook entries in
//! each agent's own config, so an agent is protected in one command.
//!
//! - [`agents`]: the table of supported agents (one entry per agent);
//! - [`command`]: the hook command (absolute shim path, pinned socket,
//!   autostart); [`hold`]: its hold maximum and the agent's timeout on
//!   the events an `approval` can hold;
//! - [`json_config`] + [`hooks`] + [`json`]: event-keyed JSON configs,
//!   edited with their key order kept, read as the agent reads them and
//!   edited in place when they have comments ([`jsonc`]);
//!   [`script_dir`]: Cline's hook files;
//! - [`steps`]: one agent's changes, applied again from the files when
//!   someone edited one meanwhile; [`summary`]: what a run did per agent,
//!   and the lock that keeps two runs apart;
//! - [`change`]: backups and atomic writes; [`diff`]: `--dry-run`;
//! - [`shim`]: placing the shim at a stable path;
//! - [`toml_switch`]: a TOML switch hooks need on (Codex's `hooks`
//!   feature); [`codex`]: Codex's trust of hookgate's hooks;
//! - [`service`]: the systemd user units / launchd agent that start the
//!   gateway.
//!
//! Install is idempotent (a second run finds its entries in place and
//! writes nothing) and uninstall removes exactly what install added: when
//! nothing else changed in the file, the original comes back byte for
//! byte from the backup. A run goes on past an agent it cannot set up and
//! ends with a summary (done / skipped and why).

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

pub(crate) mod agents;
pub(crate) mod change;
pub(crate) mod codex;
pub(crate) mod command;
mod diff;
pub(crate) mod hermes;
pub(crate) mod hold;
pub(crate) mod hooks;
mod http;
pub(crate) mod json;
pub(crate) mod json_config;
pub(crate) mod jsonc;
pub(crate) mod opencode;
pub(crate) mod script_dir;
mod service;
pub(crate) mod shim;
mod steps;
mod summary;
pub(crate) mod toml_switch;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use hookgate_adapters::Agent;

use agents::{AGENTS, AgentSpec};
use change::Change;
use command::HookCommand;
use summary::Summary;

/// Which config an install edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Scope {
    /// The user's own config (under HOME): every project.
    User,
    /// The project's config in the working directory.
    Project,
}

/// Which agents, where, and whether to only show the changes.
#[derive(Debug, clap::Args)]
pub(crate) struct Target {
    /// An agent to act on (repeatable), by the name the shim takes
    /// (claude-code, gemini-cli, ...) or its program's (claude, gemini,
    /// qwen, ...); a name install does not support is refused with the
    /// list of those it does.
    #[arg(long = "agent", value_name = "NAME", value_parser = agents::parse, required_unless_present_any = ["all", "service"])]
    pub(crate) agents: Vec<Agent>,
    /// Every supported agent found on this machine (for uninstall: every
    /// supported agent).
    #[arg(long, conflicts_with = "agents")]
    pub(crate) all: bool,
    #[arg(long, value_enum, default_value_t = Scope::User)]
    pub(crate) scope: Scope,
    /// Print the diff of every file that would change; change nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Install: write the gateway's systemd user socket + service (a
    /// launchd agent on macOS) even where no user manager runs (default:
    /// where one runs). Uninstall: stop and remove them (`--all` too).
    #[arg(long)]
    pub(crate) service: bool,
}

#[derive(Debug, clap::Args)]
pub(crate) struct InstallArgs {
    #[command(flatten)]
    pub(crate) target: Target,
    /// The shim to install. Default: `gateway-shim` next to this `gateway`.
    #[arg(long, value_name = "PATH")]
    pub(crate) shim: Option<PathBuf>,
    /// Where the shim is copied, the path hooks run. Default: ~/.local/bin.
    #[arg(long, value_name = "DIR")]
    pub(crate) shim_dir: Option<PathBuf>,
    /// The socket hooks use (pinned in each command). Default: resolved
    /// like `gateway serve` does, in this environment.
    #[arg(long, value_name = "PATH")]
    pub(crate) socket: Option<PathBuf>,
    /// Block what each event lets a hook block when no gateway answers
    /// (the shim's `--fail-closed`, and the agent's own switch where it has
    /// one: Claude Code `onFailure: "block"`, Cursor `failClosed`).
    #[arg(long)]
    pub(crate) fail_closed: bool,
    /// Leave the service manager alone: the shim's autostart is then the
    /// only way the gateway starts.
    #[arg(long, conflicts_with = "service")]
    pub(crate) no_service: bool,
    /// How the agent reaches the gateway: `command` (the shim) or `http`
    /// (the agent's own HTTP hooks to the gateway's `[http]` endpoint, no
    /// process per hook; Claude Code and Qwen Code).
    #[arg(long, value_enum, default_value_t = Transport::Command)]
    pub(crate) transport: Transport,
    /// Leave the agents' own review of new hooks to you. By default
    /// install trusts hookgate's own hooks (and nothing else) where an
    /// agent asks first: Codex, through your `codex` on PATH.
    #[arg(long)]
    pub(crate) no_trust: bool,
}

/// How hooks reach the gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Transport {
    Command,
    Http,
}

/// `gateway install`.
pub(crate) fn install(args: &InstallArgs) -> ExitCode {
    report(run_install(args))
}

/// `gateway uninstall`.
pub(crate) fn uninstall(target: &Target) -> ExitCode {
    report(run_uninstall(target))
}

fn report(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("gateway: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// HOME, which must be an absolute path (configs and the shim live there).
pub(crate) fn home() -> anyhow::Result<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match home {
        Some(home) if home.is_absolute() => Ok(home),
        _ => bail!("HOME is not set to an absolute path"),
    }
}

/// The directory configs of `scope` are relative to.
fn base(scope: Scope, home: &Path) -> anyhow::Result<PathBuf> {
    match scope {
        Scope::User => Ok(home.to_path_buf()),
        Scope::Project => std::env::current_dir().context("reading the working directory"),
    }
}

/// The agents named, or with `--all` those found (`detect`) or all.
fn selected(target: &Target, home: &Path, detect: bool) -> Vec<&'static AgentSpec> {
    if !target.all {
        return target
            .agents
            .iter()
            .filter_map(|a| agents::spec(*a))
            .collect();
    }
    let path = std::env::var_os("PATH");
    AGENTS
        .iter()
        .filter(|spec| !detect || spec.detected(home, path.as_deref()))
        .collect()
}

fn run_install(args: &InstallArgs) -> anyhow::Result<()> {
    // The hook command is a POSIX shell line and autostart is Unix-only.
    if cfg!(windows) {
        bail!(
            "gateway install supports Linux and macOS; on Windows, edit the agents' configs by hand (docs/agents.md, \"Setting up an agent by hand\")"
        );
    }
    let home = home()?;
    let base = base(args.target.scope, &home)?;
    let specs = selected(&args.target, &home, true);
    let agents_asked = args.target.all || !args.target.agents.is_empty();
    if agents_asked && specs.is_empty() {
        bail!(
            "found none of the supported agents ({}) on PATH or in {}; name one with --agent",
            agents::names(),
            home.display()
        );
    }
    let _lock = (!args.target.dry_run).then(summary::lock).transpose()?;
    let shim = shim::place(args, &home)?;
    let gateway = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("finding this gateway binary")?;
    let socket = args
        .socket
        .clone()
        .unwrap_or_else(hookgate_transport::default_path);
    if !socket.is_absolute() {
        bail!("the socket path {} is not absolute", socket.display());
    }
    let command = HookCommand {
        shim,
        gateway,
        socket,
        fail_closed: args.fail_closed,
    };
    let http = match args.transport {
        Transport::Command => None,
        Transport::Http => {
            if let Some(spec) = specs
                .iter()
                .find(|s| !hookgate_adapters::speaks_http(s.agent))
            {
                bail!(
                    "{} has no HTTP hooks hookgate can answer; --transport http is for {}",
                    spec.agent,
                    hookgate_adapters::HTTP_AGENTS.map(Agent::as_str).join(", ")
                );
            }
            Some(http::target(&command.socket)?)
        }
    };
    // HTTP hooks take no hold frames: held only within the agent's own
    // HTTP timeout (docs/approvals.md).
    let hold = match http {
        None => hold::configured(),
        Some(_) => None,
    };
    let ctx = steps::Install {
        hold: hold.as_ref(),
        home: &home,
        base: &base,
        project: args.target.scope == Scope::Project,
        command: &command,
        http: http.as_ref(),
        dry_run: args.target.dry_run,
        trust: !args.no_trust,
    };
    let mut summary = Summary::default();
    let mut written = Vec::new();
    for spec in specs {
        match steps::install(spec, &ctx) {
            Ok(files) => {
                summary.done(spec.agent.as_str(), files);
                written.push(spec.path(&base, ctx.project));
                if let Some(switch) = &spec.switch {
                    written.push(base.join(switch.path));
                }
            }
            Err(err) => summary.skipped(spec.agent.as_str(), format!("{err:#}")),
        }
    }
    let choice = match (args.no_service, args.target.service) {
        (true, _) => service::Choice::Never,
        (false, true) => service::Choice::Always,
        (false, false) => service::Choice::Auto,
    };
    let served = service::Served {
        gateway: &command.gateway,
        socket: &command.socket,
        http: http
            .as_ref()
            .map_or_else(http::served_port, |target| Some(target.listen)),
    };
    if let Err(err) = service::install(choice, served, &home, args.target.dry_run) {
        summary.skipped("service", format!("{err:#}"));
    }
    if !args.target.dry_run && !written.is_empty() {
        record(&command.shim, &written);
    }
    summary.finish("installed")?;
    if !args.target.dry_run {
        outln!("Check the chain with: gateway doctor");
    }
    Ok(())
}

/// Adds the shim and the configs install wrote to the install record,
/// which self-protection holds (`hookgate_daemon::protect::manifest`).
/// A record that cannot be written is said, not fatal: the built-in
/// patterns still cover the default places.
fn record(shim: &Path, configs: &[PathBuf]) {
    use hookgate_daemon::protect::manifest::{self, Entry, Kind};
    let env = hookgate_config::Env::from_process();
    let Some(path) = manifest::path(&env) else {
        return;
    };
    let mut entries = vec![Entry {
        kind: Kind::Shim,
        path: shim.to_path_buf(),
    }];
    entries.extend(configs.iter().map(|path| Entry {
        kind: Kind::Config,
        path: path.clone(),
    }));
    if let Err(err) = manifest::record(&path, &entries) {
        outln!(
            "note: could not update the install record {}: {err}",
            path.display()
        );
    }
}

fn run_uninstall(target: &Target) -> anyhow::Result<()> {
    let home = home()?;
    let base = base(target.scope, &home)?;
    let project = target.scope == Scope::Project;
    let _lock = (!target.dry_run).then(summary::lock).transpose()?;
    let mut summary = Summary::default();
    for spec in selected(target, &home, false) {
        match steps::uninstall(spec, &home, &base, project, target.dry_run) {
            Ok(written) => summary.done(spec.agent.as_str(), written),
            Err(err) => summary.skipped(spec.agent.as_str(), format!("{err:#}")),
        }
    }
    if (target.service || target.all)
        && let Err(err) = service::uninstall(&home, target.dry_run)
    {
        summary.skipped("service", format!("{err:#}"));
    }
    summary.finish("removed")
}

/// Prints what changed (or, dry, would change: bearer tokens masked) and
/// applies it; `label` (an agent, `service`) starts each line. Returns how
/// many files it wrote.
fn finish(
    label: &str,
    path: &Path,
    changes: &[Change],
    dry_run: bool,
    apply: fn(&Change) -> anyhow::Result<()>,
) -> anyhow::Result<usize> {
    let changed: Vec<&Change> = changes.iter().filter(|c| !c.is_noop()).collect();
    if changed.is_empty() {
        outln!("{label}: {}: nothing to change", path.display());
        return Ok(0);
    }
    let mut written = 0;
    for change in changed {
        let name = change.path.display().to_string();
        if dry_run {
            let diff = diff::unified(&name, change.before.as_deref(), change.after.as_deref());
            out!("{}", http::mask_tokens(&diff));
            continue;
        }
        apply(change).with_context(|| name.clone())?;
        written += 1;
        let what = match (&change.before, &change.after) {
            (None, _) => "created",
            (_, None) => "removed",
            _ => "updated",
        };
        outln!("{label}: {what} {name}");
    }
    Ok(written)
}
