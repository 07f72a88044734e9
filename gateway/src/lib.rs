//! The hookgate gateway: a long-lived daemon that answers every hook event
//! of every coding agent.
//!
//! A shim connects to the gateway's socket ([`transport`]: a Unix socket,
//! or a named pipe on Windows) with one request
//! (`server`); the `pipeline` detects and parses the agent's payload,
//! asks the matching `subscribers` in parallel (gRPC ones and the
//! [`builtin`] guard), merges their decisions and renders the agent's
//! reply, while observe subscribers and the audit log get the event through
//! bounded queues. [`config`] says who subscribes to what; `metrics`
//! counts everything that can go wrong, [`fallbacks`] adds what the shims
//! recorded while the gateway was unreachable (a Windows pipe has no
//! record), and [`admin`]
//! (gRPC on a sibling socket, `gateway status`) and `prometheus` report
//! it.
//!
//! [`serve`] runs it all on an already bound [`transport::Listener`], so tests
//! can run a gateway in-process; the `gateway` binary is a thin CLI over it.

#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "tests set up files and wait on real processes; the runtime rules are for the gateway's own code"
    )
)]

pub mod admin;
pub(crate) mod admission;
pub(crate) mod budget;
pub mod builtin;
pub mod config;
pub(crate) mod convert;
pub mod fallbacks;
pub mod files;
pub(crate) mod filter;
pub mod http;
pub(crate) mod ids;
pub(crate) mod layer;
pub(crate) mod metrics;
pub(crate) mod otel;
pub(crate) mod pipeline;
pub(crate) mod prometheus;
pub(crate) mod reload;
pub(crate) mod server;
pub mod shutdown;
pub(crate) mod subscribers;
pub mod transport;
pub(crate) mod warnings;

#[cfg(test)]
mod testing;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use admin::status::StatusSource;
use config::Config;
use metrics::Metrics;
use pipeline::Pipeline;
use server::Server;
use subscribers::Builder;
use transport::Listener;

/// What `gateway serve` can turn on beyond the config file.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Serve Prometheus metrics on this TCP address (off when `None`).
    pub metrics_addr: Option<SocketAddr>,
    /// The `--config` file, which reloads read again (watched for
    /// changes). `None`: reloads resolve it as at startup (the user's
    /// file, watched, else the embedded default).
    pub config_path: Option<PathBuf>,
}

/// Serves hook events on `listener` until `shutdown` is cancelled, then
/// stops accepting, removes the socket file (a Windows pipe just closes)
/// and lets in-flight events finish within `config.server.shutdown_grace`.
/// Counts into `metrics`; also serves the admin API on the sibling admin
/// socket (see [`admin`]) and health-checks remote subscribers.
pub async fn serve(
    config: Config,
    listener: Listener,
    shutdown: CancellationToken,
    metrics: Arc<Metrics>,
    options: Options,
) -> anyhow::Result<()> {
    // First, so a bad subscriber leaves nothing running behind the error
    // (dropping a half-built registry stops its workers and checks).
    let workers = TaskTracker::new();
    // Admin API, metrics, health checks, reloads: stopped after the hook path.
    let background = TaskTracker::new();
    let stop_background = CancellationToken::new();
    let builder = Builder {
        metrics: &metrics,
        workers: &workers,
        health: Some((&background, &stop_background)),
    };
    let registry = builder
        .build(&config.subscribers, None)?
        .with_caller(convert::caller(&config.identity));
    let (reload_handle, reload_requests) = reload::channel();
    reload_handle
        .on_hangup(&background, stop_background.clone())
        .context("installing the SIGHUP handler")?;
    // Both layers' files, watched before anything reports the gateway up
    // (the admin socket): an edit from then on is never missed. A system
    // directory that does not exist is no managed layer, not a warning.
    let user_path = options
        .config_path
        .clone()
        .or_else(|| config::Env::from_process().user_config_path());
    let system_path = config::Env::from_process()
        .system_config
        .filter(|p| p.parent().is_some_and(std::path::Path::is_dir));
    let _watchers: Vec<_> = user_path
        .into_iter()
        .chain(system_path)
        .filter_map(|path| reload::watch(&path, &reload_handle))
        .collect();
    let mut source = StatusSource::new(
        Arc::clone(&metrics),
        listener.path().to_path_buf(),
        config.origin.clone(),
    );
    source.system_config.clone_from(&config.system_origin);
    let source = Arc::new(source);
    metrics.set_config_refused(config.refused.len());
    // Fallbacks recorded while no gateway ran.
    source.collect_fallbacks().await;
    // The HTTP hook endpoint: its token first, so a bad token file stops
    // the start before it listens; bound before the admin socket, so a
    // client that sees the admin socket can reach it too.
    let http_endpoint = match &config.http {
        Some(http_config) => {
            let token_path = http::token::token_path(listener.path())?;
            let token = http::token::load_or_create(&token_path)
                .with_context(|| format!("HTTP hook token {}", token_path.display()))?;
            let bound = http::bind(http_config.listen)
                .await
                .with_context(|| format!("cannot serve HTTP hooks on {}", http_config.listen))?;
            let _ = source.http_addr.set(bound.local_addr()?);
            Some((bound, token, http_config.clone()))
        }
        None => None,
    };
    let admin_listener = Listener::bind(&source.admin_socket)
        .await
        .context("admin socket")?;
    let metrics_listener = match options.metrics_addr {
        Some(addr) => {
            let bound = prometheus::bind(addr)
                .await
                .with_context(|| format!("cannot serve metrics on {addr}"))?;
            let _ = source.metrics_addr.set(bound.local_addr()?);
            Some(bound)
        }
        None => None,
    };

    background.spawn({
        let (source, stop) = (Arc::clone(&source), stop_background.clone());
        let reload = reload_handle.clone();
        async move {
            if let Err(err) = admin::serve(admin_listener, source, reload, stop).await {
                tracing::error!(error = %err, "admin API stopped");
            }
        }
    });
    if let Some(bound) = metrics_listener {
        let (source, stop) = (Arc::clone(&source), stop_background.clone());
        background.spawn(async move {
            if let Err(err) = prometheus::serve(bound, source, stop).await {
                tracing::error!(error = %err, "metrics endpoint stopped");
            }
        });
    }

    let (telemetry, telemetry_running) = match &config.otel {
        Some(otel) => otel::Telemetry::start(otel, &metrics, &background)?,
        None => (otel::Telemetry::off(), otel::Running::default()),
    };
    let pipeline = Arc::new(
        Pipeline::new(registry, Arc::clone(&metrics), config.server.on_unparsed)
            .with_telemetry(telemetry),
    );
    let stop_reloads = CancellationToken::new();
    let reloader = reload::Reloader {
        explicit: options.config_path.clone(),
        registry: pipeline.registry(),
        config: config.clone(),
        metrics: Arc::clone(&metrics),
        workers: workers.clone(),
        health: background.clone(),
        stop_health: stop_background.clone(),
        stop: stop_reloads.clone(),
        status: Arc::clone(&source.reload),
    };
    let reloads = tokio::spawn(reloader.run(reload_requests));
    let admission = Arc::new(admission::Admission::new(pipeline, metrics, &config.server));
    let http_server = http_endpoint.map(|(bound, token, http_config)| {
        let server = http::HttpServer {
            admission: Arc::clone(&admission),
            http: http_config,
            token,
        };
        (server, bound)
    });
    let server = Server { admission };
    tracing::info!(
        socket = %listener.path().display(),
        admin = %source.admin_socket.display(),
        metrics = ?source.metrics_addr.get(),
        http = ?source.http_addr.get(),
        config = %config.origin,
        subscribers = config.subscribers.len(),
        "gateway ready"
    );
    let connections = TaskTracker::new();
    let http_loop = http_server.map(|(http_server, bound)| {
        let (shutdown, connections) = (shutdown.clone(), connections.clone());
        tokio::spawn(async move {
            http_server
                .accept_loop(&bound, &shutdown, &connections)
                .await;
        })
    });
    server.accept_loop(&listener, &shutdown, &connections).await;
    // The HTTP listener closes with its loop; its connections finish their
    // request in flight with the socket's, within the grace period.
    if let Some(http_loop) = http_loop
        && let Err(err) = http_loop.await
    {
        tracing::warn!(error = %err, "the HTTP accept loop failed");
    }

    // Stop accepting: new shims now fail and apply their fail mode. On Unix
    // at once (the socket file is gone); on Windows in-flight connections
    // keep the pipe name alive, so a new shim sees it busy and gives up
    // within its connect limit (1 s), still inside its total deadline.
    drop(listener);
    let deadline = Instant::now() + config.server.shutdown_grace;
    connections.close();
    if tokio::time::timeout_at(deadline, connections.wait())
        .await
        .is_err()
    {
        tracing::warn!(
            in_flight = connections.len(),
            "grace period over; abandoning in-flight events"
        );
    }
    // Dropping the pipeline and the reloader's hold on the registry closes
    // the observe and audit queues: workers drain what is queued, within
    // what is left of the grace period.
    drop(_watchers);
    stop_reloads.cancel();
    if let Err(err) = reloads.await {
        tracing::warn!(error = %err, "the reloader failed");
    }
    drop(server);
    workers.close();
    if tokio::time::timeout_at(deadline, workers.wait())
        .await
        .is_err()
    {
        tracing::warn!("grace period over; observe/audit queues not fully drained");
    }
    // Spans of the last events, then the background tasks.
    telemetry_running.stop(deadline).await;
    stop_background.cancel();
    background.close();
    if tokio::time::timeout_at(deadline, background.wait())
        .await
        .is_err()
    {
        tracing::warn!("grace period over; admin API not fully stopped");
    }
    tracing::info!("gateway stopped");
    Ok(())
}
