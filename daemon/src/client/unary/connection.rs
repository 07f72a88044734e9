//! One HTTP/2 connection to a subscriber: the handshake with the windows
//! and limits the gateway grants, and the task that drives the connection
//! and marks it closed when it ends (the next call then reconnects).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use h2::client::SendRequest;
use tokio::io::{AsyncRead, AsyncWrite};

use super::Body;
use crate::client::error::CallError;

/// HTTP/2 flow-control windows the gateway grants subscribers (hyper's
/// defaults): a reply up to these sizes needs no WINDOW_UPDATE round trip.
const STREAM_WINDOW: u32 = 2 * 1024 * 1024;
const CONNECTION_WINDOW: u32 = 5 * 1024 * 1024;
/// The largest header block a subscriber may send (status and message
/// included).
const MAX_HEADER_LIST: u32 = 64 * 1024;

/// An open connection: where requests go, and whether it has ended.
#[derive(Debug, Clone)]
pub(super) struct Live {
    pub(super) send: SendRequest<Body>,
    /// Set by the connection's task when it ends.
    pub(super) closed: Arc<AtomicBool>,
}

/// Opens HTTP/2 over `io` and drives the connection on a task of its own.
pub(super) async fn handshake<T>(io: T) -> Result<Live, CallError>
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (send, connection) = h2::client::Builder::new()
        .initial_window_size(STREAM_WINDOW)
        .initial_connection_window_size(CONNECTION_WINDOW)
        .max_header_list_size(MAX_HEADER_LIST)
        .enable_push(false)
        // Until the subscriber's SETTINGS arrive (hyper's default), so a
        // burst on a new connection is not refused for going over its limit.
        .initial_max_send_streams(100)
        .handshake::<_, Body>(io)
        .await
        .map_err(|err| CallError::Connect(format!("HTTP/2 handshake: {err}")))?;
    let closed = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&closed);
    // Ends when the subscriber closes the connection, on an error, or once
    // every `SendRequest` is dropped (the subscriber is gone from the
    // config or the gateway stops).
    tokio::spawn(async move {
        if let Err(err) = connection.await {
            tracing::debug!(error = %err, "subscriber connection ended");
        }
        flag.store(true, Ordering::Release);
    });
    Ok(Live { send, closed })
}
