//! The console's connections, bounded and checked as the HTTP hook door's
//! are (`crate::http`): on Linux a connection whose socket belongs to
//! another user is closed before it is served (`crate::http::check_peer`:
//! the cookie alone would let any local user who learnt it in); at most
//! [`MAX_CONNECTIONS`] are open at once (past it a new one is closed at
//! once); a request's head is at most [`MAX_HEAD_BYTES`] and must arrive
//! within [`HEAD_TIMEOUT`], which also closes a keep-alive connection
//! left idle that long. A live stream, its head read, stays open until it
//! or the gateway ends; when the gateway stops, each connection gets
//! [`STOP_GRACE`] to finish its response.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::warnings::{self, Warning};

/// Connections open at once: every stream `[ui] max_clients` allows (64
/// at most) and a browser's few parallel requests per tab besides.
const MAX_CONNECTIONS: usize = 128;
/// The most bytes of request line and headers (hyper's floor is 8 KiB).
const MAX_HEAD_BYTES: usize = 16 * 1024;
/// How long a request's head may take, and a keep-alive connection idle.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a connection may take to end once the gateway stops (a client
/// that reads nothing could otherwise hold a response, and the stop).
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Serves `app` on `listener` until `stop`, then waits for the
/// connections to end (each within [`STOP_GRACE`]).
pub(super) async fn serve(listener: TcpListener, app: Router, stop: CancellationToken) {
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let connections = TaskTracker::new();
    loop {
        let Some((stream, peer)) = crate::http::accept(&listener, &stop, "console").await else {
            break;
        };
        // Checked before it takes a place: another user's connections
        // never crowd this user's out.
        if crate::http::check_peer(&stream, peer, "a console connection")
            .await
            .is_err()
        {
            continue;
        }
        let Ok(place) = Arc::clone(&open).try_acquire_owned() else {
            warnings::warn(
                Warning::Connection,
                format_args!("{MAX_CONNECTIONS} console connections open; closed a new one"),
            );
            continue;
        };
        connections.spawn(connection(stream, peer, place, app.clone(), stop.clone()));
    }
    connections.close();
    connections.wait().await;
}

/// One checked connection, holding its place.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    _place: OwnedSemaphorePermit,
    app: Router,
    stop: CancellationToken,
) {
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
    tokio::pin!(conn);
    let served = tokio::select! {
        served = conn.as_mut() => served,
        () = stop.cancelled() => {
            conn.as_mut().graceful_shutdown();
            match tokio::time::timeout(STOP_GRACE, conn).await {
                Ok(served) => served,
                Err(_) => return,
            }
        }
    };
    if let Err(err) = served {
        // Mostly a keep-alive connection left idle past the head's
        // deadline, or a browser gone: no refusal.
        tracing::debug!(%peer, error = %err, "a console connection ended with an error");
    }
}
