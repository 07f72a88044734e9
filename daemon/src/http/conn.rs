//! One HTTP/1.1 connection served under hookgate's bounds, for both
//! loopback doors (the hook endpoint and the console): a request head of
//! at most [`MAX_HEAD_BYTES`] that must arrive within the door's head
//! timeout (which also closes a keep-alive connection left idle that
//! long), and once the gateway stops, [`STOP_GRACE`] to finish the
//! response in flight: a client that reads nothing cannot hold the stop.

use std::time::Duration;

use hyper::body::{Body, Incoming};
use hyper::server::conn::http1;
use hyper::service::HttpService;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;

/// The most bytes of request line and headers (hyper's floor is 8 KiB):
/// an agent or a browser sends a handful of short headers.
pub(crate) const MAX_HEAD_BYTES: usize = 16 * 1024;
/// How long a connection may take to end once the gateway stops.
pub(crate) const STOP_GRACE: Duration = Duration::from_secs(2);

/// Serves `service` on `stream` until the client or `stop` ends it; the
/// connection's error, if it ended with one (a connection cut at the end
/// of [`STOP_GRACE`] is no error).
pub(crate) async fn serve<S>(
    stream: TcpStream,
    service: S,
    head_timeout: Duration,
    stop: &CancellationToken,
) -> Result<(), hyper::Error>
where
    S: HttpService<Incoming>,
    S::ResBody: 'static,
    <S::ResBody as Body>::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(head_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    tokio::select! {
        served = conn.as_mut() => served,
        () = stop.cancelled() => {
            conn.as_mut().graceful_shutdown();
            tokio::time::timeout(STOP_GRACE, conn).await.unwrap_or(Ok(()))
        }
    }
}
