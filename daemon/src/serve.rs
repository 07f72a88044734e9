//! `gateway serve`'s life: start in an order that leaves nothing behind an
//! error, accept on the socket (and the HTTP endpoint) until shutdown,
//! then stop in the reverse order, each step within one grace period.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use tokio::net::TcpListener;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::admin::{self, document::StatusSource};
use crate::admission::Admission;
use crate::approvals::Approvals;
use crate::http::{HttpServer, Token};
use crate::metrics::Metrics;
use crate::metrics::keeper::{CountsInfo, Keeper};
use crate::pipeline::Pipeline;
use crate::reload::{self, Handle as ReloadHandle};
use crate::server::Server;
use crate::subscribers::Builder;
use crate::{console, convert, otel, prometheus, protect};
use hookgate_config::{Config, HttpConfig};
use hookgate_transport::Listener;

mod config_watch;
mod http_start;

use config_watch::watch_config_files;
use http_start::{bind_http, serve_http_unless_squatted};

/// What `gateway serve` can turn on beyond the config file.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Serve Prometheus metrics on this TCP address; `None`: the config's
    /// `[server] metrics_addr`, else off.
    pub metrics_addr: Option<SocketAddr>,
    /// The `--config` file, which reloads read again (watched for
    /// changes). `None`: reloads resolve it as at startup (the user's
    /// file, watched, else the embedded default).
    pub config_path: Option<PathBuf>,
}

/// The admin API, metrics, health checks and reloads: stopped after the
/// hook path.
struct Background {
    tasks: TaskTracker,
    stop: CancellationToken,
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
    let background = Background {
        tasks: TaskTracker::new(),
        stop: CancellationToken::new(),
    };
    let approvals = Arc::new(Approvals::default());
    let builder = Builder {
        metrics: &metrics,
        workers: &workers,
        health: Some((&background.tasks, &background.stop)),
        approvals: &approvals,
    };
    let site = protect::Site {
        socket: listener.path().to_path_buf(),
        explicit: options.config_path.clone(),
        enabled: config.server.self_protection,
    };
    let protection = {
        let (config, site, metrics) = (config.clone(), site.clone(), Arc::clone(&metrics));
        tokio::task::spawn_blocking(move || protect::decider(&config, &site, &metrics))
            .await
            .context("resolving hookgate's own parts")?
    };
    warn_if_unprotected(&config, protection.is_some());
    let registry = builder
        .build(&config.subscribers, None)?
        .with_caller(convert::caller(&config.identity))
        .with_protection(protection);
    let (reload_handle, reload_requests) = reload::channel();
    reload_handle
        .on_hangup(&background.tasks, background.stop.clone())
        .context("installing the SIGHUP handler")?;
    let _watchers = watch_config_files(&options, &reload_handle);
    // Before anything counts: what earlier gateways counted.
    let keeper = Keeper::for_socket(listener.path(), &metrics)
        .await
        .map(Arc::new);
    let counts = keeper.as_deref().map(Keeper::info);
    let source = status_source(&config, &listener, &metrics, counts).await;
    let http_endpoint = match &config.http {
        Some(http) => serve_http_unless_squatted(bind_http(http, &listener, &source).await)?,
        None => None,
    };
    let metrics_addr = options.metrics_addr.or(config.server.metrics_addr);
    let evals = admin::eval::Door::default();
    let reports = Reports {
        metrics_addr,
        reloads: &reload_handle,
        evals: &evals,
        approvals: &approvals,
    };
    serve_reports(&source, reports, &background).await?;
    let feed = match &config.ui {
        Some(ui) => {
            let tasks = (&background.tasks, background.stop.clone());
            Some(console::start(ui, listener.path(), &source, &approvals, tasks).await?)
        }
        None => None,
    };

    let (telemetry, telemetry_running) = match &config.otel {
        Some(otel) => otel::Telemetry::start(otel, &metrics, &background.tasks)?,
        None => (otel::Telemetry::off(), otel::Running::default()),
    };
    let pipeline = Arc::new(
        Pipeline::new(registry, Arc::clone(&metrics), config.server.on_unparsed)
            .with_max_followups(config.server.max_followups)
            .with_telemetry(telemetry)
            .with_feed(feed),
    );
    let stop_reloads = CancellationToken::new();
    let reloader = reload::Reloader {
        explicit: options.config_path.clone(),
        registry: pipeline.registry(),
        config: config.clone(),
        metrics: Arc::clone(&metrics),
        workers: workers.clone(),
        health: background.tasks.clone(),
        stop_health: background.stop.clone(),
        stop: stop_reloads.clone(),
        status: Arc::clone(&source.reload),
        site,
        approvals: Arc::clone(&approvals),
    };
    let reloads = tokio::spawn(reloader.run(reload_requests));
    if let Some(keeper) = &keeper {
        keeper.spawn(&background.tasks, background.stop.clone());
    }
    let admission = Arc::new(Admission::new(pipeline, metrics, &config.server));
    evals.open(&admission);
    tracing::info!(
        socket = %listener.path().display(),
        admin = %source.admin_socket.display(),
        metrics = ?source.metrics_addr.get(),
        http = ?source.http_addr.get(),
        ui = ?source.ui_addr.get(),
        config = %config.origin,
        subscribers = config.subscribers.len(),
        "gateway ready"
    );
    let connections = TaskTracker::new();
    accept(listener, http_endpoint, admission, &shutdown, &connections).await;
    // Every call held for a person gets its on_timeout now, so none is
    // left hanging while the connections drain.
    approvals.stop();

    // The listeners are closed: new shims now fail and apply their fail
    // mode. On Unix at once (the socket file is gone); on Windows
    // in-flight connections keep the pipe name alive, so a new shim sees
    // it busy and gives up within its connect limit (1 s), still inside
    // its total deadline.
    let deadline = Instant::now() + config.server.shutdown_grace;
    drain(&connections, deadline, "abandoning in-flight events").await;
    // Dropping the pipeline (the connections held the last Admission) and
    // the reloader's hold on the registry closes the observe and audit
    // queues: workers drain what is queued, within what is left.
    drop(_watchers);
    stop_reloads.cancel();
    if let Err(err) = reloads.await {
        tracing::warn!(error = %err, "the reloader failed");
    }
    drain(&workers, deadline, "observe/audit queues not fully drained").await;
    if let Some(keeper) = &keeper {
        keeper.save().await;
    }
    // Spans of the last events, then the background tasks.
    telemetry_running.stop(deadline).await;
    background.stop.cancel();
    drain(&background.tasks, deadline, "admin API not fully stopped").await;
    tracing::info!("gateway stopped");
    Ok(())
}

/// What `gateway status` reads, with the fallbacks recorded while no
/// gateway ran already counted.
async fn status_source(
    config: &Config,
    listener: &Listener,
    metrics: &Arc<Metrics>,
    counts: Option<CountsInfo>,
) -> Arc<StatusSource> {
    let mut source = StatusSource::new(
        Arc::clone(metrics),
        listener.path().to_path_buf(),
        config.origin.clone(),
    );
    source.system_config.clone_from(&config.system_origin);
    source.counts = counts;
    let source = Arc::new(source);
    metrics.set_config_refused(config.refused.len());
    source.collect_fallbacks().await;
    source
}

/// What the admin API and the metrics endpoint serve besides the status.
struct Reports<'a> {
    metrics_addr: Option<SocketAddr>,
    reloads: &'a ReloadHandle,
    evals: &'a admin::eval::Door,
    approvals: &'a Arc<Approvals>,
}

/// The admin API and, if asked for, the Prometheus endpoint, on the
/// background tasks.
async fn serve_reports(
    source: &Arc<StatusSource>,
    reports: Reports<'_>,
    background: &Background,
) -> anyhow::Result<()> {
    let Reports {
        metrics_addr,
        reloads,
        evals,
        approvals,
    } = reports;
    let admin_listener = Listener::bind(&source.admin_socket)
        .await
        .context("admin socket")?;
    let metrics_listener = match metrics_addr {
        Some(addr) => {
            let bound = prometheus::bind(addr)
                .await
                .with_context(|| format!("cannot serve metrics on {addr}"))?;
            let _ = source.metrics_addr.set(bound.local_addr()?);
            Some(bound)
        }
        None => None,
    };
    let (admin_source, stop) = (Arc::clone(source), background.stop.clone());
    let (reload, evals, approvals) = (reloads.clone(), evals.clone(), Arc::clone(approvals));
    background.tasks.spawn(async move {
        let served = admin::serve(admin_listener, admin_source, reload, evals, approvals, stop);
        if let Err(err) = served.await {
            tracing::error!(error = %err, "admin API stopped");
        }
    });
    if let Some(bound) = metrics_listener {
        let (source, stop) = (Arc::clone(source), background.stop.clone());
        background.tasks.spawn(async move {
            if let Err(err) = prometheus::serve(bound, source, stop).await {
                tracing::error!(error = %err, "metrics endpoint stopped");
            }
        });
    }
    Ok(())
}

/// Accepts on the socket, and on the HTTP endpoint if there is one, until
/// `shutdown`; each connection runs on `connections`. Returns once both
/// listeners are closed.
async fn accept(
    listener: Listener,
    http_endpoint: Option<(TcpListener, Token, HttpConfig)>,
    admission: Arc<Admission>,
    shutdown: &CancellationToken,
    connections: &TaskTracker,
) {
    let http_loop = http_endpoint.map(|(bound, token, http)| {
        let server = HttpServer {
            admission: Arc::clone(&admission),
            http,
            token,
        };
        let (shutdown, connections) = (shutdown.clone(), connections.clone());
        tokio::spawn(async move { server.accept_loop(&bound, &shutdown, &connections).await })
    });
    Server { admission }
        .accept_loop(&listener, shutdown, connections)
        .await;
    // The HTTP listener closes with its loop; its connections finish their
    // request in flight with the socket's, within the grace period.
    if let Some(http_loop) = http_loop
        && let Err(err) = http_loop.await
    {
        tracing::warn!(error = %err, "the HTTP accept loop failed");
    }
}

/// Closes `tasks` and waits for them until `deadline`; past it, says what
/// is left behind.
async fn drain(tasks: &TaskTracker, deadline: Instant, left_behind: &str) {
    tasks.close();
    if tokio::time::timeout_at(deadline, tasks.wait())
        .await
        .is_err()
    {
        tracing::warn!(tasks = tasks.len(), "grace period over; {left_behind}");
    }
}

/// Says loudly what runs without hookgate's usual defenses: self-protection
/// turned off by the system config, no built-in guard, no decision log.
fn warn_if_unprotected(config: &Config, protected: bool) {
    if !protected {
        tracing::warn!(
            "self-protection is off ([server] self_protection = false in the system config): a tool call can change or stop hookgate"
        );
    }
    let has = |builtin: fn(&hookgate_config::SubscriberKind) -> bool| {
        config.subscribers.iter().any(|s| builtin(&s.kind))
    };
    if !has(|k| matches!(k, hookgate_config::SubscriberKind::Guard { .. })) {
        tracing::warn!(config = %config.origin, "the config runs no built-in guard: only self-protection and your subscribers check tool calls");
    }
    if !has(|k| matches!(k, hookgate_config::SubscriberKind::Audit { .. })) {
        tracing::warn!(config = %config.origin, "the config keeps no decision log (no built-in audit)");
    }
}
