//! `gateway install` and `gateway uninstall`: hookgate's hook entries in
//! each agent's own config, so an agent is protected in one command.
//!
//! - [`agents`]: the table of supported agents (one entry per agent);
//! - [`command`]: the hook command (absolute shim path, pinned socket,
//!   autostart);
//! - [`json_config`] + [`hooks`] + [`json`]: event-keyed JSON configs,
//!   edited with their key order kept; [`script_dir`]: Cline's hook files;
//! - [`change`]: backups and atomic writes; [`diff`]: `--dry-run`;
//! - [`shim`]: placing the shim at a stable path;
//! - [`toml_switch`]: a TOML switch hooks need on (Codex's `hooks`
//!   feature);
//! - [`service`]: the systemd user units / launchd agent that start the
//!   gateway.
//!
//! Install is idempotent (a second run finds its entries in place and
//! writes nothing) and uninstall removes exactly what install added: when
//! nothing else changed in the file, the original comes back byte for
//! byte from the backup.

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

pub(crate) mod agents;
pub(crate) mod change;
pub(crate) mod command;
mod diff;
mod hooks;
mod http;
pub(crate) mod json;
pub(crate) mod json_config;
pub(crate) mod script_dir;
mod service;
pub(crate) mod shim;
pub(crate) mod toml_switch;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use hookgate_adapters::Agent;

use agents::{AGENTS, AgentSpec, Format};
use change::Change;
use command::HookCommand;
use json::Json;
use json_config::Registration;

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
    /// (claude-code, codex, ...); a name install does not support is
    /// refused with the list of those it does.
    #[arg(long = "agent", value_name = "NAME", value_parser = parse_agent, required_unless_present_any = ["all", "service"])]
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
}

/// How hooks reach the gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Transport {
    Command,
    Http,
}

fn parse_agent(name: &str) -> Result<Agent, String> {
    let agent: Agent = name.parse().map_err(|err| format!("{err}"))?;
    match agents::spec(agent) {
        Some(_) => Ok(agent),
        None => Err(format!(
            "`{name}` is not supported by `gateway install` yet (supported: {})",
            supported_names()
        )),
    }
}

fn supported_names() -> String {
    AGENTS
        .iter()
        .map(|s| s.agent.as_str())
        .collect::<Vec<_>>()
        .join(", ")
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
            "gateway install supports Linux and macOS; on Windows, edit the agents' configs by hand (README)"
        );
    }
    let home = home()?;
    let base = base(args.target.scope, &home)?;
    let specs = selected(&args.target, &home, true);
    let agents_asked = args.target.all || !args.target.agents.is_empty();
    if agents_asked && specs.is_empty() {
        bail!(
            "found none of the supported agents ({}) on PATH or in {}; name one with --agent",
            supported_names(),
            home.display()
        );
    }
    let shim = shim::place(args, &home)?;
    let gateway = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .context("finding this gateway binary")?;
    let socket = args
        .socket
        .clone()
        .unwrap_or_else(hookgate_gateway::transport::default_path);
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
    let project = args.target.scope == Scope::Project;
    for spec in specs {
        let path = spec.path(&base, project);
        let (changes, skipped) = install_changes(spec, (&base, &path), &command, http.as_ref())?;
        for event in &skipped {
            outln!(
                "{}: {} is not hookgate's; left alone, so `{event}` is not hooked",
                spec.agent,
                path.join(event).display()
            );
        }
        finish(
            spec.agent.as_str(),
            &path,
            &changes,
            args.target.dry_run,
            change::apply_install,
        )?;
        if let Some(switch) = &spec.switch {
            outln!("{}: note: {}", spec.agent, switch.notice);
        }
        if http.is_some() && !args.target.dry_run {
            for change in changes.iter().filter(|c| c.after.is_some()) {
                http::make_private(&change.path)?;
            }
        }
    }
    let choice = match (args.no_service, args.target.service) {
        (true, _) => service::Choice::Never,
        (false, true) => service::Choice::Always,
        (false, false) => service::Choice::Auto,
    };
    let started_by = (command.gateway.as_path(), command.socket.as_path());
    service::install(choice, started_by, &home, args.target.dry_run)?;
    if !args.target.dry_run {
        outln!("Check the chain with: gateway doctor");
    }
    Ok(())
}

fn run_uninstall(target: &Target) -> anyhow::Result<()> {
    let home = home()?;
    let base = base(target.scope, &home)?;
    let project = target.scope == Scope::Project;
    for spec in selected(target, &home, false) {
        let path = spec.path(&base, project);
        let changes = uninstall_all(spec, &base, &path)?;
        finish(
            spec.agent.as_str(),
            &path,
            &changes,
            target.dry_run,
            change::apply_uninstall,
        )?;
    }
    if target.service || target.all {
        service::uninstall(&home, target.dry_run)?;
    }
    Ok(())
}

/// Prints what changed (or, dry, would change) and applies it; `label`
/// (an agent, `service`) starts each line.
fn finish(
    label: &str,
    path: &Path,
    changes: &[Change],
    dry_run: bool,
    apply: fn(&Change) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let changed: Vec<&Change> = changes.iter().filter(|c| !c.is_noop()).collect();
    if changed.is_empty() {
        outln!("{label}: {}: nothing to change", path.display());
        return Ok(());
    }
    for change in changed {
        let name = change.path.display().to_string();
        if dry_run {
            out!(
                "{}",
                diff::unified(&name, change.before.as_deref(), change.after.as_deref())
            );
            continue;
        }
        apply(change).with_context(|| format!("{label}: {name}"))?;
        let what = match (&change.before, &change.after) {
            (None, _) => "created",
            (_, None) => "removed",
            _ => "updated",
        };
        outln!("{label}: {what} {name}");
    }
    Ok(())
}

/// The changes that install `spec` at `path`, and events left unhooked.
fn install_changes(
    spec: &AgentSpec,
    (base, path): (&Path, &Path),
    command: &HookCommand,
    http: Option<&http::HttpTarget>,
) -> anyhow::Result<(Vec<Change>, Vec<String>)> {
    match &spec.format {
        Format::ScriptDir => script_dir::install(path, &spec.events(), command, spec.agent),
        Format::Json(format) => {
            let path = &change::resolve(path);
            let before = change::read(path)?;
            let events = spec.events();
            let what = Registration::new(spec, &events, command, http);
            let after = json_config::install(format, before.as_deref(), what)
                .with_context(|| format!("{}: {}", spec.agent, path.display()))?;
            let mut changes = vec![Change {
                path: path.to_path_buf(),
                before,
                after: Some(after),
                executable: false,
            }];
            if let Some(switch) = &spec.switch {
                changes.push(switch.install_change(base)?);
            }
            Ok((changes, Vec::new()))
        }
    }
}

/// The changes that remove hookgate from `spec` at `path`: the backup
/// itself when removing hookgate's entries gives back its content, so the
/// file is the original byte for byte; the file removed when install
/// created it and nothing else was added since.
fn uninstall_changes(spec: &AgentSpec, path: &Path) -> anyhow::Result<Vec<Change>> {
    let format = match &spec.format {
        Format::ScriptDir => return script_dir::uninstall(path, &spec.events()),
        Format::Json(format) => format,
    };
    let path = &change::resolve(path);
    let Some(current) = change::read(path)? else {
        return Ok(Vec::new());
    };
    let Some(stripped) = json_config::uninstall(format, &current)
        .with_context(|| format!("{}: {}", spec.agent, path.display()))?
    else {
        return Ok(Vec::new());
    };
    let same = |a: &str, b: &str| json_config::same_without_ours(format, a, b);
    let after = match change::read(&change::backup_path(path))? {
        Some(original) if same(&original, &stripped) => Some(original),
        Some(_) => Some(stripped),
        None => {
            let mut created = Json::object();
            if let Some(version) = format.version {
                created.entry("version", Json::uint(version));
            }
            (!same(&created.render(), &stripped)).then_some(stripped)
        }
    };
    Ok(vec![Change {
        path: path.to_path_buf(),
        before: Some(current),
        after,
        executable: false,
    }])
}

/// [`uninstall_changes`] plus the agent's TOML switch turned back.
fn uninstall_all(spec: &AgentSpec, base: &Path, path: &Path) -> anyhow::Result<Vec<Change>> {
    let mut changes = uninstall_changes(spec, path)?;
    if let Some(switch) = &spec.switch
        && let Some(change) = switch.uninstall_change(base)?
    {
        changes.push(change);
    }
    Ok(changes)
}
