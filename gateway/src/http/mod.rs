//! The HTTP hook endpoint: agents that can POST their hook payload to a
//! URL (Claude Code's and Qwen Code's `type: "http"` hooks) are answered
//! with no process at all, through the same pipeline as the shim's frames.
//!
//! Off unless `[http]` is configured, and loopback only. Every request
//! must carry the per-user token ([`token`]); on Linux the connecting
//! socket's owner must also be this user ([`peer`]). Bounded like the
//! socket path: open connections are capped (past it a new one is closed
//! at once), headers and body have a size limit and a read deadline, the
//! body's bytes are reserved from the shared memory budget before it is
//! read, and a request waits at most `queue_wait` for an evaluation slot.
//! When no decision can be had (no slot, no budget) the hook call's fail
//! mode answers, as the shim would. Every refusal is counted
//! (`http_refused{reason}`).

#[cfg(target_os = "linux")]
pub mod peer;
mod request;
pub mod token;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::admission::Admission;
use crate::config::HttpConfig;
use crate::metrics::HttpRefusal;
use crate::warnings::{self, Warning};

pub use token::Token;

/// The most bytes of request line and headers (hyper's floor is 8 KiB):
/// an agent sends a handful of short headers.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// What the endpoint needs.
#[derive(Debug)]
pub struct HttpServer {
    /// Shared with the socket: one pipeline, budget and set of slots.
    pub(crate) admission: Arc<Admission>,
    pub http: HttpConfig,
    pub token: Token,
}

/// What every request shares.
#[derive(Debug)]
struct Shared {
    admission: Arc<Admission>,
    token: Token,
}

/// Binds the endpoint's listener (the address was checked to be loopback
/// when the config was validated).
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

impl HttpServer {
    /// Accepts until `shutdown` fires; each connection runs on
    /// `connections` and finishes its request in flight when it fires.
    pub async fn accept_loop(
        &self,
        listener: &TcpListener,
        shutdown: &CancellationToken,
        connections: &TaskTracker,
    ) {
        let open = Arc::new(Semaphore::new(self.http.max_open));
        let shared = Arc::new(Shared {
            admission: Arc::clone(&self.admission),
            token: self.token.clone(),
        });
        loop {
            let accepted = tokio::select! {
                biased;
                () = shutdown.cancelled() => return,
                accepted = listener.accept() => accepted,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    warnings::warn(
                        Warning::Connection,
                        format_args!("HTTP accept failed: {err}"),
                    );
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            };
            let Ok(open_permit) = Arc::clone(&open).try_acquire_owned() else {
                self.admission
                    .metrics
                    .http_refused(HttpRefusal::TooManyConnections);
                warnings::warn(
                    Warning::Connection,
                    format_args!(
                        "{} HTTP connections open; closed a new one",
                        self.http.max_open
                    ),
                );
                continue;
            };
            connections.spawn(connection(
                stream,
                peer,
                open_permit,
                Arc::clone(&shared),
                shutdown.clone(),
            ));
        }
    }
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    _open: OwnedSemaphorePermit,
    shared: Arc<Shared>,
    shutdown: CancellationToken,
) {
    if let Err(reason) = check_peer(&stream, peer).await {
        shared.admission.metrics.http_refused(reason);
        return;
    }
    let _ = stream.set_nodelay(true);
    let service = {
        let shared = Arc::clone(&shared);
        service_fn(move |req| {
            let shared = Arc::clone(&shared);
            async move {
                Ok::<_, std::convert::Infallible>(
                    request::answer(&shared.admission, &shared.token, req).await,
                )
            }
        })
    };
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        // Also closes a keep-alive connection idle for that long (not
        // counted: idle is normal).
        .header_read_timeout(shared.admission.read_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    let served = tokio::select! {
        served = conn.as_mut() => served,
        () = shutdown.cancelled() => {
            conn.as_mut().graceful_shutdown();
            conn.await
        }
    };
    if let Err(err) = served {
        // A timeout here is mostly a keep-alive connection left idle past
        // the read deadline (agents keep them), which is no refusal: only
        // a body that stalls is counted (`request`).
        if err.is_parse_too_large() {
            shared.admission.metrics.http_refused(HttpRefusal::Oversize);
        }
        tracing::debug!(error = %err, "HTTP connection ended with an error");
    }
}

/// Linux: the connecting socket must be this user's (the token alone
/// would let any local user who learnt it in). Elsewhere nothing to check.
#[cfg(target_os = "linux")]
async fn check_peer(stream: &TcpStream, peer: SocketAddr) -> Result<(), HttpRefusal> {
    let local = stream.local_addr().map_err(|_| HttpRefusal::NoPeerUid)?;
    let owner = tokio::task::spawn_blocking(move || peer::owner(peer, local)).await;
    let uid = hookgate_wire::socket::current_uid();
    match owner {
        Ok(Ok(Some(owner))) if owner == uid => Ok(()),
        Ok(Ok(Some(owner))) => {
            warnings::warn(
                Warning::Connection,
                format_args!("refused an HTTP connection from uid {owner} (this user is {uid})"),
            );
            Err(HttpRefusal::ForeignUid)
        }
        Ok(Ok(None)) => {
            warnings::warn(
                Warning::Connection,
                format_args!(
                    "refused an HTTP connection from {peer}: its socket is not in /proc/net/tcp"
                ),
            );
            Err(HttpRefusal::NoPeerUid)
        }
        Ok(Err(err)) => {
            warnings::warn(
                Warning::Connection,
                format_args!("refused an HTTP connection: the TCP table is unreadable: {err}"),
            );
            Err(HttpRefusal::NoPeerUid)
        }
        Err(_) => Err(HttpRefusal::NoPeerUid),
    }
}

#[cfg(not(target_os = "linux"))]
async fn check_peer(_stream: &TcpStream, _peer: SocketAddr) -> Result<(), HttpRefusal> {
    Ok(())
}
