//! `fake-model`: the scripted model server the real-agent tests point the
//! agent CLIs at (see `hookgate_integration_tests::fake_model`).
//!
//! ```text
//! fake-model --script S.json --log requests.jsonl [--listen 127.0.0.1:0]
//!            [--port-file F] [-- COMMAND ARGS...]
//! ```
//!
//! With a COMMAND it serves only while the command runs, then exits with
//! the command's status: started as the first process of a private network
//! and PID namespace (`unshare --net --pid --fork`), it is the agent's only
//! reachable peer and, when it exits, the kernel ends everything the agent
//! left behind. Without one it serves until SIGINT or SIGTERM.

#![allow(
    clippy::disallowed_methods,
    reason = "test and bench code drives real processes and files; the runtime rules are the gateway's"
)]
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context as _, bail};
use clap::Parser;
use hookgate_integration_tests::fake_model::{FakeModel, Script, serve};
use tokio::net::TcpListener;
use tokio::signal::unix::{SignalKind, signal};

/// How long open connections may delay the exit once the command ended.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

#[derive(Debug, Parser)]
#[command(about = "Scripted Anthropic / OpenAI-compatible model server for tests")]
struct Args {
    /// The conversation script (JSON).
    #[arg(long)]
    script: PathBuf,
    /// Every request is appended here as one JSON line.
    #[arg(long)]
    log: PathBuf,
    /// Address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// Write the port listened on to this file once accepting connections.
    #[arg(long)]
    port_file: Option<PathBuf>,
    /// Run this command while serving; exit with its status.
    #[arg(last = true)]
    command: Vec<String>,
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run(Args::parse()).await {
        Ok(code) => code,
        Err(err) => {
            eprintln!("fake-model: {err:#}");
            ExitCode::from(70)
        }
    }
}

async fn run(args: Args) -> anyhow::Result<ExitCode> {
    let script = Script::load(&args.script)?;
    let model = Arc::new(
        FakeModel::new(script, &args.log)
            .with_context(|| format!("opening the request log {}", args.log.display()))?,
    );
    let listener = TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    let port = listener.local_addr().context("local address")?.port();
    if let Some(path) = &args.port_file {
        // Written whole, then renamed: a reader never sees a partial port.
        let partial = path.with_extension("partial");
        std::fs::write(&partial, port.to_string())
            .and_then(|()| std::fs::rename(&partial, path))
            .with_context(|| format!("writing the port file {}", path.display()))?;
    }
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, model, async move {
        let _ = stopped.await;
    }));

    let code = match args.command.split_first() {
        Some((program, rest)) => {
            let status = tokio::process::Command::new(program)
                .args(rest)
                .status()
                .await
                .with_context(|| format!("running {program}"))?;
            exit_code(status)
        }
        None => {
            let mut term = signal(SignalKind::terminate()).context("SIGTERM handler")?;
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            ExitCode::SUCCESS
        }
    };
    let _ = stop.send(());
    // Bounded: a client that keeps its connection open must not keep us.
    match tokio::time::timeout(SHUTDOWN_GRACE, server)
        .await
        .unwrap_or(Ok(Ok(())))
    {
        Ok(Ok(())) => Ok(code),
        Ok(Err(err)) => bail!("server failed: {err}"),
        Err(err) => bail!("server task failed: {err}"),
    }
}

/// The command's exit status as ours (a signal as 128 + its number, the
/// shell's convention).
fn exit_code(status: std::process::ExitStatus) -> ExitCode {
    use std::os::unix::process::ExitStatusExt as _;
    let code = status
        .code()
        .or_else(|| status.signal().map(|signal| 128 + signal))
        .unwrap_or(1);
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
