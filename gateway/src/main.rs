//! `gateway`: parse the command line, set up logging, run the daemon.
//! Everything else lives in the library (`hookgate_daemon`).

#[macro_use]
mod out;

// `audit_command`, `child`, `config_command`, `doctor`, `install`, `manual` and `memory_command` may
// block on files and processes (each allows it at its top): CLI commands
// with one user waiting.
mod admin_client;
mod approvals_command;
mod audit_command;
mod child;
mod cli;
mod config_command;
mod doctor;
mod eval_command;
mod install;
mod manual;
mod memory_command;
mod reload_command;
mod replay_command;
mod status_command;
mod terminal;
mod ui_command;

use std::process::ExitCode;

use anyhow::Context as _;
use clap::Parser as _;
use hookgate_config::{Config, LoadError};
use hookgate_transport::Listener;
use tokio_util::sync::CancellationToken;
use tracing_subscriber::EnvFilter;

use cli::{Cli, Command, ServeArgs};
use hookgate_daemon::Options;

/// mimalloc instead of glibc malloc: the hook path allocates many small,
/// short-lived buffers per event (JSON, protobuf, h2 frames) across tokio's
/// worker threads, and glibc's arena locking showed as ~15 % of the
/// gateway's CPU under load (BENCHMARKS.md "Why").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit code for an invalid configuration (distinct from runtime failures).
const EXIT_CONFIG: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return usage_error(&err),
    };
    let filter = match &cli.log_level {
        Some(level) => EnvFilter::try_new(level),
        None => EnvFilter::try_from_default_env().or_else(|_| EnvFilter::try_new("info")),
    };
    let filter = match filter {
        Ok(filter) => filter,
        Err(err) => {
            eprintln!("gateway: error: bad log level: {err}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();

    match cli.command {
        Command::Serve(args) => serve(args),
        Command::Status(args) => status_command::run(&args),
        Command::Install(args) => install::install(&args),
        Command::Uninstall(target) => install::uninstall(&target),
        Command::Doctor(args) => doctor::run(&args),
        Command::Completions(args) => manual::completions(&args),
        Command::Man(args) => manual::man(&args),
        Command::Reload(args) => reload_command::run(&args),
        Command::Approvals(args) => approvals_command::run(&args),
        Command::Ui(args) => ui_command::run(&args),
        Command::Audit(args) => audit_command::run(&args),
        Command::Eval(args) => eval_command::run(&args),
        Command::Replay(args) => replay_command::run(&args),
        Command::Config(args) => config_command::run(&args),
        Command::Memory(args) => memory_command::run(&args),
    }
}

/// clap's answer to a command line it refused (or `--help`): its exit code,
/// but 1 for `gateway eval`, whose 2 means "blocked".
fn usage_error(err: &clap::Error) -> ExitCode {
    let _ = err.print();
    let code = err.exit_code();
    if code != 0 && subcommand(std::env::args_os().skip(1)).is_some_and(|c| c == "eval") {
        return ExitCode::FAILURE;
    }
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// The subcommand's word: the first argument that is not the global
/// `--log-level` or its value.
fn subcommand(mut args: impl Iterator<Item = std::ffi::OsString>) -> Option<std::ffi::OsString> {
    while let Some(arg) = args.next() {
        if arg == "--log-level" {
            args.next();
        } else if !arg.to_string_lossy().starts_with("--log-level=") {
            return Some(arg);
        }
    }
    None
}

fn serve(args: ServeArgs) -> ExitCode {
    // Why a start failed is recorded next to the socket it was for (the
    // one asked for, else the default: a config that cannot be read names
    // none), where a shim's autostart, `status` and `doctor` look.
    let failed = |socket: &std::path::Path, why: &str| {
        hookgate_daemon::start_failure::write(socket, why);
    };
    let asked = args
        .socket
        .clone()
        .unwrap_or_else(hookgate_transport::default_path);
    let config = match Config::load(args.config.as_deref()) {
        Ok(config) => config,
        Err(err @ LoadError::Invalid(_)) => {
            eprintln!("gateway: invalid config: {err}");
            failed(&asked, &format!("invalid config at {err}"));
            return ExitCode::from(EXIT_CONFIG);
        }
        Err(err) => {
            eprintln!("gateway: error: {err}");
            failed(&asked, &err.to_string());
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    let path = args
        .socket
        .clone()
        .or_else(|| config.server.socket.clone())
        .unwrap_or_else(hookgate_transport::default_path);
    // Each connection holds a descriptor (idle ones until their read
    // deadline): up to 16 per slot may be open, more than the usual soft
    // limit of 1024, so take what the hard limit allows.
    #[cfg(unix)]
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::debug!(limit, "open files limit"),
        Err(err) => tracing::warn!(error = %err, "cannot raise the open files limit"),
    }
    // Payloads nest up to `adapters::MAX_DEPTH` levels and serde_json walks
    // them recursively (drop, serialize): every thread that may hold one
    // gets the stack for it (address space; touched only as deep as used).
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(hookgate_adapters::STACK_SIZE)
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("gateway: error: cannot start the runtime: {err}");
            failed(&path, &format!("cannot start the runtime: {err}"));
            return ExitCode::FAILURE;
        }
    };
    // On a worker, not in `block_on`'s future: that future runs on the main
    // thread, which is no runtime worker, so the accept loop there cost
    // every event a hand-off (I/O driver wakes the main thread, which
    // accepts and wakes a worker for the connection).
    let socket = path.clone();
    let served = runtime.block_on(async {
        tokio::spawn(run(config, args, socket))
            .await
            .unwrap_or_else(|err| Err(anyhow::anyhow!("the gateway task failed: {err}")))
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("gateway: error: {err:#}");
            failed(&path, &format!("{err:#}"));
            ExitCode::FAILURE
        }
    }
}

/// The socket systemd passed (socket activation), else one bound at `path`.
async fn listen(path: &std::path::Path) -> anyhow::Result<Listener> {
    #[cfg(unix)]
    if let Some(listener) = Listener::inherited().context("socket activation")? {
        tracing::info!(socket = %listener.path().display(), "socket activation: serving the inherited socket");
        if listener.path() != path {
            tracing::info!(
                inherited = %listener.path().display(),
                configured = %path.display(),
                "serving the socket systemd passed, not the configured path"
            );
        }
        return Ok(listener);
    }
    Ok(Listener::bind(path).await?)
}

async fn run(config: Config, args: ServeArgs, path: std::path::PathBuf) -> anyhow::Result<()> {
    let shutdown = CancellationToken::new();
    let forced = CancellationToken::new();
    hookgate_daemon::shutdown::cancel_on_signals(shutdown.clone(), forced.clone())
        .context("installing signal handlers")?;
    tokio::spawn(async move {
        forced.cancelled().await;
        #[expect(
            clippy::disallowed_methods,
            reason = "a second signal means now: in-flight events are abandoned on purpose"
        )]
        std::process::exit(hookgate_daemon::shutdown::EXIT_FORCED);
    });
    // Closing the terminal a gateway was started from sends SIGHUP, whose
    // default action kills it with no drain. With a handler installed
    // (tokio keeps it for the process's life) it is received and ignored.
    #[cfg(unix)]
    let _hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
        .context("ignoring SIGHUP")?;
    let listener = listen(&path).await?;
    // Bound: an earlier failed start is history.
    hookgate_daemon::start_failure::clear(&path);
    let options = Options {
        metrics_addr: args.metrics_addr,
        config_path: args.config,
    };
    let metrics = std::sync::Arc::default();
    hookgate_daemon::serve(config, listener, shutdown, metrics, options).await
}
