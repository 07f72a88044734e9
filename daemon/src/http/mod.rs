//! The HTTP hook endpoint: agents that can POST their hook payload to a
//! URL (Claude Code's and Qwen Code's `type: "http"` hooks) are answered
//! with no process at all, through the same pipeline as the shim's frames.
//!
//! Off unless `[http]` is configured, and loopback only. Every request
//! must carry the per-user token ([`token`]); on Linux the connecting
//! socket's owner must also be this user ([`peer`]), checked before the
//! connection takes any place: another user's connections are closed at
//! once and counted, so a flood of them cannot crowd this user's out.
//! Bounded like the socket path: peer checks in progress are capped (past
//! it accepting waits, the kernel's backlog holds the rest), open
//! connections are capped (past it a new one is closed at once), headers
//! and body have a size limit and a read deadline, the
//! body's bytes are reserved from the shared memory budget before it is
//! read, and a request waits at most `queue_wait` for an evaluation slot.
//! When no decision can be had (no slot, no budget) the hook call's fail
//! mode answers, as the shim would. Every refusal is counted
//! (`http_refused{reason}`).

mod conn;
#[cfg(target_os = "linux")]
pub mod peer;
pub mod port;
mod request;
#[cfg(target_os = "linux")]
mod sock_diag;
pub mod token;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::service::service_fn;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::admission::Admission;
use crate::metrics::HttpRefusal;
use crate::warnings::{self, Warning};
use hookgate_config::HttpConfig;

pub(crate) use conn::serve as serve_connection;
pub use token::Token;

/// Peer checks in progress at once (each reads the kernel's TCP table on
/// the blocking pool, a millisecond or so). Past it the accept loop waits
/// for one to finish instead of closing anything: a connection still
/// unchecked may be this user's.
const MAX_PEER_CHECKS: usize = 32;

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
    /// Places for open (checked) connections.
    open: Arc<Semaphore>,
    max_open: usize,
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
        let checks = Arc::new(Semaphore::new(MAX_PEER_CHECKS));
        let shared = Arc::new(Shared {
            admission: Arc::clone(&self.admission),
            token: self.token.clone(),
            open,
            max_open: self.http.max_open,
        });
        loop {
            // A check place first: under a flood, accepting waits here.
            let check = tokio::select! {
                biased;
                () = shutdown.cancelled() => return,
                check = Arc::clone(&checks).acquire_owned() => check,
            };
            let Ok(check) = check else { return };
            let Some((stream, peer)) = accept(listener, shutdown, "HTTP").await else {
                return;
            };
            connections.spawn(admit(
                stream,
                peer,
                check,
                Arc::clone(&shared),
                shutdown.clone(),
            ));
        }
    }
}

/// A new connection: its peer checked first (holding only a check place),
/// then an open-connection place, then served. Another user's connection
/// is closed without ever taking a place this user's calls need.
async fn admit(
    stream: TcpStream,
    peer: SocketAddr,
    check: OwnedSemaphorePermit,
    shared: Arc<Shared>,
    shutdown: CancellationToken,
) {
    let checked = check_peer(&stream, peer, "an HTTP connection").await;
    drop(check);
    if let Err(reason) = checked {
        shared.admission.metrics.http_refused(reason);
        return;
    }
    let Ok(open) = Arc::clone(&shared.open).try_acquire_owned() else {
        shared
            .admission
            .metrics
            .http_refused(HttpRefusal::TooManyConnections);
        warnings::warn(
            Warning::Connection,
            format_args!(
                "{} HTTP connections open; closed a new one",
                shared.max_open
            ),
        );
        return;
    };
    connection(stream, open, shared, shutdown).await;
}

/// One checked connection, holding its open-connection place.
async fn connection(
    stream: TcpStream,
    _open: OwnedSemaphorePermit,
    shared: Arc<Shared>,
    shutdown: CancellationToken,
) {
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
    let served = conn::serve(stream, service, shared.admission.read_timeout, &shutdown).await;
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

/// The next connection on `listener`, `None` once `stop` is cancelled.
/// A failed accept (out of descriptors, mostly) is warned about, as
/// `door`'s, and retried after a pause rather than spun on.
pub(crate) async fn accept(
    listener: &TcpListener,
    stop: &CancellationToken,
    door: &str,
) -> Option<(TcpStream, SocketAddr)> {
    loop {
        let accepted = tokio::select! {
            biased;
            () = stop.cancelled() => return None,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok(accepted) => return Some(accepted),
            Err(err) => {
                warnings::warn(
                    Warning::Connection,
                    format_args!("{door} accept failed: {err}"),
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

/// Linux: the connecting socket must be this user's (the token alone
/// would let any local user who learnt it in). Elsewhere nothing to check.
/// `what` names the connection in the warning (the console checks its
/// own with this too).
#[cfg(target_os = "linux")]
pub(crate) async fn check_peer(
    stream: &TcpStream,
    peer: SocketAddr,
    what: &str,
) -> Result<(), HttpRefusal> {
    let local = stream.local_addr().map_err(|_| HttpRefusal::NoPeerUid)?;
    let owner = tokio::task::spawn_blocking(move || peer::owner(peer, local)).await;
    let uid = hookgate_wire::socket::current_uid();
    match owner {
        Ok(Ok(Some(owner))) if owner == uid => Ok(()),
        Ok(Ok(Some(owner))) => {
            warnings::warn(
                Warning::Connection,
                format_args!("refused {what} from uid {owner} (this user is {uid})"),
            );
            Err(HttpRefusal::ForeignUid)
        }
        Ok(Ok(None)) => {
            warnings::warn(
                Warning::Connection,
                format_args!("refused {what} from {peer}: its socket is not in /proc/net/tcp"),
            );
            Err(HttpRefusal::NoPeerUid)
        }
        Ok(Err(err)) => {
            warnings::warn(
                Warning::Connection,
                format_args!("refused {what}: the TCP table is unreadable: {err}"),
            );
            Err(HttpRefusal::NoPeerUid)
        }
        Err(_) => Err(HttpRefusal::NoPeerUid),
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) async fn check_peer(
    _stream: &TcpStream,
    _peer: SocketAddr,
    _what: &str,
) -> Result<(), HttpRefusal> {
    Ok(())
}
