//! The hookgate gateway: a long-lived daemon that answers every hook event
//! of every coding agent.
//!
//! A shim connects to the Unix socket ([`socket`]) with one request
//! ([`server`]); the [`pipeline`] detects and parses the agent's payload,
//! asks the matching [`subscribers`] in parallel (gRPC ones and the
//! [`builtin`] guard), merges their decisions and renders the agent's
//! reply, while observe subscribers and the audit log get the event through
//! bounded queues. [`config`] says who subscribes to what; [`metrics`]
//! counts everything that can go wrong.
//!
//! [`serve`] runs it all on an already bound [`socket::Listener`], so tests
//! can run a gateway in-process; the `gateway` binary is a thin CLI over it.

pub mod builtin;
pub mod config;
pub mod convert;
pub mod ids;
pub mod metrics;
pub mod pipeline;
pub mod server;
pub mod shutdown;
pub mod socket;
pub mod subscribers;

#[cfg(test)]
mod testing;

use std::sync::Arc;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use config::Config;
use metrics::Metrics;
use pipeline::Pipeline;
use server::Server;
use socket::Listener;
use subscribers::Registry;

/// Serves hook events on `listener` until `shutdown` is cancelled, then
/// stops accepting, removes the socket file and lets in-flight events
/// finish within `config.server.shutdown_grace`.
pub async fn serve(
    config: Config,
    listener: Listener,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    serve_with_metrics(config, listener, shutdown, Arc::new(Metrics::default())).await
}

/// [`serve`], counting into `metrics` (for status reporting and tests).
pub async fn serve_with_metrics(
    config: Config,
    listener: Listener,
    shutdown: CancellationToken,
    metrics: Arc<Metrics>,
) -> anyhow::Result<()> {
    let workers = TaskTracker::new();
    let registry = Registry::build(&config.subscribers, &metrics, &workers)?;
    let server = Server {
        pipeline: Arc::new(Pipeline::new(registry, Arc::clone(&metrics))),
        metrics,
        config: config.server.clone(),
        uid: hookgate_wire::socket::current_uid(),
    };
    tracing::info!(
        socket = %listener.path().display(),
        config = %config.origin,
        subscribers = config.subscribers.len(),
        "gateway ready"
    );
    let connections = TaskTracker::new();
    server.accept_loop(&listener, &shutdown, &connections).await;

    // Stop accepting: new shims now fail fast and apply their fail mode.
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
    // Dropping the pipeline closes the observe and audit queues: workers
    // drain what is queued, within what is left of the grace period.
    drop(server);
    workers.close();
    if tokio::time::timeout_at(deadline, workers.wait())
        .await
        .is_err()
    {
        tracing::warn!("grace period over; observe/audit queues not fully drained");
    }
    tracing::info!("gateway stopped");
    Ok(())
}
