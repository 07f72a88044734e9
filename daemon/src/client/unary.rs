//! gRPC unary calls over one long-lived HTTP/2 connection per subscriber,
//! written on the `h2` crate.
//!
//! Why not tonic's `Channel`: hyper's HTTP/2 client under it sends a unary
//! request as three writes, so three TCP segments and often three wake-ups
//! of the subscriber:
//! 1. HEADERS;
//! 2. the message, once h2 grants the stream send capacity, which it does
//!    only after the connection task has opened the stream;
//! 3. an empty DATA frame with END_STREAM, because tonic's request body
//!    reports its end only after it has yielded the message.
//!
//! Each request also crossed two task hand-offs (tower's buffer worker and
//! hyper's dispatch task). Here the caller queues HEADERS and the message
//! with END_STREAM before the connection task runs, so a request leaves in
//! one write (BENCHMARKS.md "Why" has the measurements).
//!
//! What it implements of gRPC is what a unary call needs: the request
//! headers (`content-type`, `te`, `grpc-timeout`), the 5-byte message
//! framing without compression, the status from the trailers or a
//! trailers-only reply, and HTTP errors mapped to codes as the gRPC spec's
//! HTTP-to-gRPC status mapping says (the pure parts are in `grpc.rs`).
//! Replies are bounded by `max_message`.

use std::io::Cursor;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use h2::client::SendRequest;
use http::{Method, Request, StatusCode};
use prost::bytes::{Buf as _, Bytes, BytesMut};
use tokio::sync::Mutex;
use tonic::Code;

use super::dial::Dialer;
use super::error::{BadEndpoint, CallError};
use super::token::Token;
use connection::{Live, handshake};
use grpc::{PREFIX, Status, code_of_http, code_of_reset, grpc_timeout, status_of, unframe};

/// A request body: the prefix, then the event's shared encoded bytes (no
/// copy per subscriber).
type Body = prost::bytes::buf::Chain<Cursor<[u8; PREFIX]>, Bytes>;

/// One subscriber's connection: opened on first use, reopened on the next
/// call after it is lost. Cloning shares it.
#[derive(Debug, Clone)]
pub(crate) struct UnaryClient {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    dialer: Dialer,
    /// Sent as `authorization` with every request, when configured.
    token: Option<Token>,
    /// Every request's method, URI and headers, built once: a call only
    /// clones it.
    head: http::request::Parts,
    max_message: usize,
    /// The largest reply message accepted (at most `max_message`).
    max_reply: usize,
    /// Held while connecting, so concurrent callers share one connect.
    live: Mutex<Option<Live>>,
}

impl UnaryClient {
    /// A client of the method at `path` (`/package.Service/Method`) of
    /// the server at `endpoint`, `http://host[:port]` or `unix:///path`
    /// (Unix only), without TLS or token; see [`UnaryClient::over`].
    #[cfg(test)]
    pub(crate) fn new(
        endpoint: &str,
        path: &str,
        timeout: Duration,
        max_message: usize,
    ) -> Result<UnaryClient, BadEndpoint> {
        if endpoint.starts_with("https://") {
            return Err(BadEndpoint::new(endpoint, "https:// needs TLS settings"));
        }
        let dialer = Dialer::new(endpoint, None).map_err(|err| match err {
            super::dial::DialSetupError::Endpoint(bad) => bad,
            super::dial::DialSetupError::Tls(_) => {
                BadEndpoint::new(endpoint, "TLS needs its settings")
            }
        })?;
        UnaryClient::over(dialer, None, path, timeout, max_message)
    }

    /// A client of the method at `path` over `dialer`'s connections,
    /// sending `token` with each request; `timeout` is sent as every
    /// call's `grpc-timeout`. Nothing is connected yet: a subscriber that
    /// is down is a per-call failure, not a start-up one.
    pub(crate) fn over(
        dialer: Dialer,
        token: Option<Token>,
        path: &str,
        timeout: Duration,
        max_message: usize,
    ) -> Result<UnaryClient, BadEndpoint> {
        let endpoint = dialer.endpoint().to_owned();
        let bad = |why| BadEndpoint::new(&endpoint, why);
        let (head, ()) = Request::builder()
            .method(Method::POST)
            .uri(format!("{}{path}", dialer.origin()))
            .header(http::header::CONTENT_TYPE, "application/grpc")
            .header(http::header::TE, "trailers")
            .header("grpc-timeout", grpc_timeout(timeout))
            .header(http::header::USER_AGENT, USER_AGENT)
            .body(())
            .map_err(|_| bad("not a request URI with this method path"))?
            .into_parts();
        Ok(UnaryClient {
            shared: Arc::new(Shared {
                dialer,
                token,
                head,
                max_message,
                max_reply: max_message,
                live: Mutex::new(None),
            }),
        })
    }

    /// Accepts replies of at most `max` bytes (and `max_message`): a
    /// larger one is refused as unusable.
    pub(crate) fn with_reply_limit(self, max: usize) -> UnaryClient {
        let shared = Shared {
            dialer: self.shared.dialer.clone(),
            token: self.shared.token.clone(),
            head: self.shared.head.clone(),
            max_message: self.shared.max_message,
            max_reply: max.min(self.shared.max_message),
            live: Mutex::new(None),
        };
        UnaryClient {
            shared: Arc::new(shared),
        }
    }

    /// [`UnaryClient::call_within`] with the subscriber's own deadline.
    #[cfg(test)]
    pub(crate) async fn call(&self, message: Bytes) -> Result<Bytes, CallError> {
        self.call_within(message, None).await
    }

    /// Calls the method with `message` (an encoded protobuf message) and
    /// returns the reply's encoded message. The caller bounds the call
    /// (connecting included) by the deadline it sent: the subscriber's own,
    /// or `deadline` when that comes first (the shim's).
    pub(crate) async fn call_within(
        &self,
        message: Bytes,
        deadline: Option<Duration>,
    ) -> Result<Bytes, CallError> {
        let len = u32::try_from(message.len())
            .ok()
            .filter(|&len| len as usize <= self.shared.max_message)
            .ok_or_else(|| {
                CallError::Protocol(format!(
                    "request of {} bytes is over the limit",
                    message.len()
                ))
            })?;
        let mut prefix = [0u8; PREFIX];
        prefix[1..].copy_from_slice(&len.to_be_bytes());
        // One retry, and only for a request the subscriber never processed
        // (a restarting server's GOAWAY or REFUSED_STREAM): it is safe to
        // send again, and an event should not fail over a reconnect.
        let mut retried = false;
        loop {
            let (send, fresh) = self.ready().await?;
            let body = Cursor::new(prefix).chain(message.clone());
            let mut head = self.shared.head.clone();
            if let Some(deadline) = deadline {
                head.headers.insert("grpc-timeout", grpc_timeout(deadline));
            }
            if let Some(token) = &self.shared.token {
                head.headers
                    .insert(http::header::AUTHORIZATION, token.header());
            }
            let request = Request::from_parts(head, ());
            match send_once(send, request, body).await {
                Ok(response) => return self.read_reply(response).await,
                Err(err) if !retried && unprocessed(&err) => {
                    tracing::debug!(error = %err, "request not processed by the subscriber; sending it again");
                    retried = true;
                }
                Err(err) if fresh => {
                    return Err(self
                        .refused_tls(&err)
                        .unwrap_or_else(|| self.call_error(err)));
                }
                Err(err) => return Err(self.call_error(err)),
            }
        }
    }

    /// The endpoint this client calls, as configured.
    pub(crate) fn endpoint(&self) -> &str {
        self.shared.dialer.endpoint()
    }

    /// An h2 failure, in TLS terms when TLS is what failed (with TLS 1.3
    /// a refused client certificate shows only at the first read).
    fn call_error(&self, err: h2::Error) -> CallError {
        self.tls_failure(&err).unwrap_or_else(|| from_h2(err))
    }

    /// A new TLS connection that died on its first request: with TLS 1.3
    /// the subscriber checks the client certificate only after the
    /// handshake, and depending on timing the gateway then reads its alert
    /// or just finds the connection closed.
    fn refused_tls(&self, err: &h2::Error) -> Option<CallError> {
        let name = self.shared.dialer.server_name()?;
        if let Some(tls) = self.tls_failure(err) {
            return Some(tls);
        }
        let io = err.get_io()?;
        Some(CallError::Tls(format!(
            "{}: the subscriber refused the TLS connection with `{name}` ({io}; \
             a missing or untrusted client certificate?)",
            self.endpoint()
        )))
    }

    fn tls_failure(&self, err: &h2::Error) -> Option<CallError> {
        let name = self.shared.dialer.server_name()?;
        let why = super::tls::in_h2(err, &name)?;
        Some(CallError::Tls(format!("{}: {why}", self.endpoint())))
    }

    /// Whether no connection is open (none yet, or the last one ended).
    #[cfg(test)]
    async fn connection_closed(&self) -> bool {
        let live = self.shared.live.lock().await;
        live.as_ref()
            .is_none_or(|live| live.closed.load(Ordering::Acquire))
    }

    /// A sender whose connection is open: the live one, or a new one if
    /// there is none yet or the live one turns out lost (then no request
    /// was sent on it). One new connection per call at most; callers that
    /// find the connection lost at the same time share the new one.
    /// Also says whether the connection is new (opened by this call).
    async fn ready(&self) -> Result<(SendRequest<Body>, bool), CallError> {
        let mut live = self.shared.live.lock().await;
        let mut connected = false;
        loop {
            let current = match live.as_ref().filter(|l| !l.closed.load(Ordering::Acquire)) {
                Some(current) => current.clone(),
                None => {
                    let fresh = self.connect().await?;
                    connected = true;
                    *live = Some(fresh.clone());
                    fresh
                }
            };
            drop(live);
            match current.send.ready().await {
                Ok(send) => return Ok((send, connected)),
                Err(err) if connected => {
                    return Err(self.tls_failure(&err).unwrap_or(CallError::Transport(err)));
                }
                Err(err) => {
                    tracing::debug!(error = %err, "subscriber connection lost; reconnecting");
                    current.closed.store(true, Ordering::Release);
                    live = self.shared.live.lock().await;
                }
            }
        }
    }

    async fn connect(&self) -> Result<Live, CallError> {
        handshake(self.shared.dialer.dial().await?).await
    }

    /// The reply's one message, or the status it carries.
    async fn read_reply(
        &self,
        response: http::Response<h2::RecvStream>,
    ) -> Result<Bytes, CallError> {
        let (head, mut body) = response.into_parts();
        // A trailers-only reply: the status is in the headers. It wins over
        // the HTTP status, which is mapped only when there is none.
        match status_of(&head.headers)? {
            None if head.status != StatusCode::OK => {
                return Err(CallError::Status {
                    code: code_of_http(head.status),
                    message: format!("HTTP status {}", head.status),
                });
            }
            None => {}
            Some(Status { code: Code::Ok, .. }) => {
                return Err(CallError::Protocol(
                    "status OK without a message".to_owned(),
                ));
            }
            Some(Status { code, message }) => return Err(CallError::Status { code, message }),
        }
        let limit = PREFIX + self.shared.max_reply;
        let mut buf = BytesMut::new();
        while let Some(chunk) = body.data().await {
            let chunk = chunk.map_err(|err| self.call_error(err))?;
            // Err only for a capacity never received; h2 gives a closed
            // stream's capacity back to the connection either way.
            let _ = body.flow_control().release_capacity(chunk.len());
            if buf.len() + chunk.len() > limit {
                return Err(CallError::Protocol(format!(
                    "reply over the limit of {} bytes",
                    self.shared.max_reply
                )));
            }
            buf.extend_from_slice(&chunk);
        }
        let trailers = body.trailers().await.map_err(|err| self.call_error(err))?;
        match trailers.as_ref().map(status_of).transpose()?.flatten() {
            Some(Status { code: Code::Ok, .. }) => unframe(buf.freeze()),
            Some(Status { code, message }) => Err(CallError::Status { code, message }),
            None => Err(CallError::Protocol("no grpc-status".to_owned())),
        }
    }
}

/// Sends one request: HEADERS and the whole message with END_STREAM are
/// queued before the connection task writes, so they leave in one write.
async fn send_once(
    mut send: SendRequest<Body>,
    request: Request<()>,
    body: Body,
) -> Result<http::Response<h2::RecvStream>, h2::Error> {
    let (response, mut stream) = send.send_request(request, false)?;
    stream.send_data(body, true)?;
    response.await
}

/// Did the subscriber reject the request before processing it? Streams
/// above a GOAWAY's last stream id, and streams reset with REFUSED_STREAM,
/// were not processed (RFC 9113, 8.7).
fn unprocessed(err: &h2::Error) -> bool {
    err.is_remote()
        && (err.is_go_away()
            || (err.is_reset() && err.reason() == Some(h2::Reason::REFUSED_STREAM)))
}

/// A stream the subscriber reset is its answer, mapped to a gRPC code as
/// tonic maps it; only REFUSED_STREAM (nothing was processed) and
/// connection-level failures (I/O, GOAWAY) mean it could not be reached.
fn from_h2(err: h2::Error) -> CallError {
    match err.reason() {
        Some(reason)
            if err.is_reset() && err.is_remote() && reason != h2::Reason::REFUSED_STREAM =>
        {
            CallError::Status {
                code: code_of_reset(reason),
                message: format!("stream reset by the subscriber ({reason:?})"),
            }
        }
        _ => CallError::Transport(err),
    }
}

/// `user-agent` of every call.
const USER_AGENT: &str = concat!("hookgate/", env!("CARGO_PKG_VERSION"));

mod connection;
mod grpc;
#[cfg(test)]
mod tests;
