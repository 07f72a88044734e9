//! The console's connections, bounded and checked as the HTTP hook door's
//! are (`crate::http`): on Linux a connection whose socket belongs to
//! another user is closed before it is served (`crate::http::check_peer`:
//! the cookie alone would let any local user who learnt it in); at most
//! [`MAX_CONNECTIONS`] are open at once (past it a new one is closed at
//! once); each is served as the hook door's are (`crate::http::serve_connection`:
//! a head of at most 16 KiB, here within [`HEAD_TIMEOUT`], which also
//! closes a keep-alive connection left idle that long; two seconds to
//! finish a response once the gateway stops). A live stream, its head
//! read, stays open until it or the gateway ends.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::warnings::{self, Warning};

/// Connections open at once: every stream `[ui] max_clients` allows (64
/// at most) and a browser's few parallel requests per tab besides.
const MAX_CONNECTIONS: usize = 128;
/// How long a request's head may take, and a keep-alive connection idle.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves `app` on `listener` until `stop`, then waits for the
/// connections to end.
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
    let served =
        crate::http::serve_connection(stream, TowerToHyperService::new(app), HEAD_TIMEOUT, &stop)
            .await;
    if let Err(err) = served {
        // Mostly a keep-alive connection left idle past the head's
        // deadline, or a browser gone: no refusal.
        tracing::debug!(%peer, error = %err, "a console connection ended with an error");
    }
}
