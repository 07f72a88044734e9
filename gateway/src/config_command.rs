//! `gateway config`: `init` writes a commented starter file, `show` the
//! layers and what they merge into (`--effective`: as TOML, each entry with
//! its layer), `check FILE` validates a file as its layer would be read.

#![allow(
    clippy::disallowed_methods,
    reason = "a CLI command with one user waiting: no hook is answered on its runtime"
)]

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use hookgate_config::{
    self as config, Config, ConfigError, Env, Layer, LoadError, RegoConfig, STARTER_TOML, Source,
    SubscriberConfig, SubscriberKind,
};

/// An invalid config (as `gateway serve` exits for one).
const EXIT_CONFIG: u8 = 2;

#[derive(Debug, clap::Args)]
pub(crate) struct ConfigArgs {
    #[command(subcommand)]
    pub(crate) action: ConfigAction,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ConfigAction {
    /// Write a starter config file, every example in it commented out, so
    /// it changes nothing until edited. Refuses to overwrite a file.
    Init {
        /// Where. Default: $XDG_CONFIG_HOME/hookgate/gateway.toml (on
        /// Windows %APPDATA%\hookgate\gateway.toml).
        #[arg(long, value_name = "PATH")]
        path: Option<PathBuf>,
    },
    /// Show the config's layers and the subscribers they merge into; with
    /// --effective, the merged config as TOML, each entry with its layer.
    Show {
        /// The merged config as TOML, each value and rule followed by the
        /// layer it comes from (default, system, user).
        #[arg(long)]
        effective: bool,
        /// The user config, as `gateway serve --config`. Default: as
        /// `gateway serve` finds it.
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
    },
    /// Check FILE as the user config (over the embedded default and the
    /// system file), or with --system as the system file: exit 0 when
    /// valid (warnings printed), 2 with file:line:column and key when not.
    Check {
        file: PathBuf,
        /// Check FILE as the system (managed) config.
        #[arg(long)]
        system: bool,
    },
}

pub(crate) fn run(args: &ConfigArgs) -> ExitCode {
    match &args.action {
        ConfigAction::Init { path } => init(path.as_deref()),
        ConfigAction::Show { effective, config } => show(*effective, config.as_deref()),
        ConfigAction::Check { file, system } => check(file, *system),
    }
}

fn init(path: Option<&Path>) -> ExitCode {
    let Some(path) = path
        .map(Path::to_path_buf)
        .or_else(|| Env::from_process().user_config_path())
    else {
        eprintln!("gateway: error: no config directory (no HOME); pass --path");
        return ExitCode::FAILURE;
    };
    match write_new(&path, STARTER_TOML) {
        Ok(()) => {
            outln!(
                "wrote {}: it adds to the embedded default (every example in it is commented out)",
                path.display()
            );
            outln!("see the result with `gateway config show --effective`");
            ExitCode::SUCCESS
        }
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
            eprintln!(
                "gateway: {} exists; not overwritten (edit it, or move it away and run this again)",
                path.display()
            );
            ExitCode::FAILURE
        }
        Err(err) => {
            eprintln!("gateway: error: cannot write {}: {err}", path.display());
            ExitCode::FAILURE
        }
    }
}

/// Creates `path` (never over an existing file), its directory private.
fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.exists())
    {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

fn show(effective: bool, explicit: Option<&Path>) -> ExitCode {
    let env = Env::from_process();
    let config = match Config::sources(explicit, &env)
        .and_then(|sources| Ok(Config::from_layers(&sources, &env)?))
    {
        Ok(config) => config,
        Err(err) => return invalid(&err),
    };
    if effective {
        out!("{}", config::effective(&config));
    } else {
        out!("{}", summary(&config, explicit, &env));
    }
    ExitCode::SUCCESS
}

/// The layers (present or not) and one line per subscriber.
fn summary(config: &Config, explicit: Option<&Path>, env: &Env) -> String {
    let mut out = String::from("layers, bottom first:\n");
    let present = |layer: Layer| config.layers.iter().find(|(l, _)| *l == layer);
    let _ = writeln!(out, "  default  {}", config::EMBEDDED_NAME);
    let candidates = [
        (Layer::System, env.system_config.clone()),
        (
            Layer::User,
            explicit
                .map(Path::to_path_buf)
                .or_else(|| env.user_config_path()),
        ),
    ];
    for (layer, path) in candidates {
        match (present(layer), path) {
            (Some((_, origin)), _) => {
                let _ = writeln!(out, "  {:<8} {origin}", layer.as_str());
            }
            (None, Some(path)) => {
                let _ = writeln!(out, "  {:<8} {} (none)", layer.as_str(), path.display());
            }
            (None, None) => {}
        }
    }
    out.push_str("subscribers:\n");
    for sub in &config.subscribers {
        let _ = writeln!(out, "  {}", describe(sub));
    }
    notes(&mut out, config);
    out.push_str("(`gateway config show --effective` prints every setting and rule)\n");
    out
}

/// `name  kind  layers  detail`.
fn describe(sub: &SubscriberConfig) -> String {
    let mut layers = vec![sub.layer];
    for layer in sub.provenance.keys.values().chain(&sub.provenance.rules) {
        if !layers.contains(layer) {
            layers.push(*layer);
        }
    }
    let layers: Vec<&str> = layers.iter().map(|l| l.as_str()).collect();
    let (kind, detail) = match &sub.kind {
        SubscriberKind::Guard { guard } => {
            let mut by_layer = Vec::new();
            for layer in [Layer::Default, Layer::System, Layer::User] {
                let n = sub.provenance.rules.iter().filter(|l| **l == layer).count();
                if n > 0 {
                    by_layer.push(format!("{n} {}", layer.as_str()));
                }
            }
            (
                "guard",
                format!("{} rules ({})", guard.rules().len(), by_layer.join(", ")),
            )
        }
        SubscriberKind::Audit { path, .. } => ("audit", path.display().to_string()),
        SubscriberKind::Memory(memory) => ("memory", memory.path.display().to_string()),
        SubscriberKind::Remote { connection, .. } => ("remote", connection.endpoints.join(", ")),
        SubscriberKind::Rego(rego) => ("rego", rego_detail(rego)),
        SubscriberKind::Approval(approval) => (
            "approval",
            format!(
                "{} rules, hold {} ms, on_timeout {}, max_held {}",
                approval.guard.rules().len(),
                approval.hold.as_millis(),
                match approval.on_timeout {
                    hookgate_config::OnError::Allow => "allow",
                    hookgate_config::OnError::Deny => "deny",
                },
                approval.max_held
            ),
        ),
    };
    let locked = if sub.locked { " (locked)" } else { "" };
    format!(
        "{:<16} {kind:<7} {:<22} {detail}",
        sub.name,
        format!("{}{locked}", layers.join("+"))
    )
}

/// A policy's source: its bundle, else its files; and `(shadow)`.
fn rego_detail(rego: &RegoConfig) -> String {
    let source = match &rego.bundle {
        Some(bundle) => bundle.url.clone(),
        None => format!("{} policy file(s)", rego.modules.len()),
    };
    if rego.shadow {
        format!("{source} (shadow)")
    } else {
        source
    }
}

/// Warnings and lock refusals, if any.
fn notes(out: &mut String, config: &Config) {
    for warning in &config.warnings {
        let _ = writeln!(out, "warning: {warning}");
    }
    for refusal in &config.refused {
        let _ = writeln!(out, "refused: {refusal}");
    }
}

fn check(file: &Path, system: bool) -> ExitCode {
    let env = Env::from_process();
    let sources = (|| -> Result<Vec<Source>, LoadError> {
        let mut sources = vec![Source::embedded()];
        if system {
            sources.push(Source::read(file, Layer::System)?);
        } else {
            if let Some(path) = env.system_config.as_deref().filter(|p| p.exists()) {
                sources.push(Source::read(path, Layer::System)?);
            }
            sources.push(Source::read(file, Layer::User)?);
        }
        Ok(sources)
    })();
    let config = match sources.and_then(|s| Ok(Config::from_layers(&s, &env)?)) {
        Ok(config) => config,
        Err(err) => return invalid(&err),
    };
    let mut out = format!(
        "{}: valid ({} subscribers: {})\n",
        file.display(),
        config.subscribers.len(),
        config
            .subscribers
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    notes(&mut out, &config);
    out!("{out}");
    ExitCode::SUCCESS
}

/// Prints why the config cannot be used; exit 2.
fn invalid(err: &LoadError) -> ExitCode {
    match err {
        LoadError::Invalid(err) => print_invalid(err),
        LoadError::Read { .. } => eprintln!("gateway: error: {err}"),
    }
    ExitCode::from(EXIT_CONFIG)
}

fn print_invalid(err: &ConfigError) {
    eprintln!("gateway: invalid config: {err}");
}
