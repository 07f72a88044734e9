//! A gRPC subscriber: a long-lived tonic channel, a deadline per call and
//! the subscriber's failure policy.
//!
//! The deadline is both sent (as the gRPC `grpc-timeout`, so a well-behaved
//! subscriber gives up too) and enforced here with `tokio::time::timeout`,
//! so a subscriber that ignores it still cannot hold the agent.
//!
//! This is transport only: it sends and receives `hookgate.v1` messages;
//! what a reply means canonically is `convert`'s business.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use hookgate_proto::v1;
use prost::bytes::Bytes;
use tonic::GrpcMethod;
use tonic::client::Grpc;
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::{Channel, Endpoint};

use crate::config::OnError;
use crate::convert::BadDecision;
use crate::metrics::{ErrorKind, SubscriberStats};
use crate::subscribers::codec::PreEncoded;

/// The one method the gateway calls (what the generated client calls).
const SERVICE: &str = "hookgate.v1.Subscriber";
const METHOD: &str = "OnEvent";
const PATH: &str = "/hookgate.v1.Subscriber/OnEvent";

/// Why a call gave no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    #[error("no answer within its deadline of {0:?}")]
    Timeout(Duration),
    #[error("gRPC error {code:?}: {message}", code = .0.code(), message = .0.message())]
    Status(tonic::Status),
    #[error("unusable reply: {0}")]
    BadReply(BadDecision),
}

/// The largest message the gateway sends or accepts. A hook payload may be
/// up to `hookgate_wire::MAX_STDIN` (8 MiB) and the event carries it twice
/// (`raw_json` and the tool's `input_json`), so subscribers must accept
/// this much too (tonic's default is 4 MiB; see the README).
pub const MAX_MESSAGE_SIZE: usize = 32 * 1024 * 1024;

/// One configured gRPC subscriber. Cloning shares the channel.
#[derive(Debug, Clone)]
pub struct Remote {
    name: Arc<str>,
    /// The generated `SubscriberClient`'s call, with a codec that sends
    /// the event's shared, already encoded bytes.
    client: Grpc<Channel>,
    channel: Channel,
    timeout: Duration,
    on_error: OnError,
    stats: Arc<SubscriberStats>,
}

impl Remote {
    /// Prepares a lazily connected channel (the subscriber need not be up
    /// yet; a down subscriber is a per-call failure). Must be called inside
    /// a tokio runtime.
    pub fn new(
        name: &str,
        endpoint: &str,
        timeout: Duration,
        on_error: OnError,
        stats: Arc<SubscriberStats>,
    ) -> Result<Remote, tonic::transport::Error> {
        let channel = Endpoint::from_shared(endpoint.to_owned())?
            .connect_timeout(timeout)
            .tcp_nodelay(true)
            .connect_lazy();
        Ok(Remote {
            name: name.into(),
            client: Grpc::new(channel.clone())
                .max_encoding_message_size(MAX_MESSAGE_SIZE)
                .max_decoding_message_size(MAX_MESSAGE_SIZE),
            channel,
            timeout,
            on_error,
            stats,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// What a failed call counts as (decide mode).
    pub fn on_error(&self) -> OnError {
        self.on_error
    }

    pub fn stats(&self) -> &Arc<SubscriberStats> {
        &self.stats
    }

    /// The channel, shared with the health checker.
    pub fn channel(&self) -> Channel {
        self.channel.clone()
    }

    /// One call with the deadline sent and enforced. Counts errors,
    /// timeouts and the call's time (and the subscriber's state when it has
    /// no health service); the caller counts `calls` when it hands the
    /// event over and `ok` once it has used the reply.
    /// `event` is an encoded `v1::HookEvent` (`ProtoEvent::encoded`).
    pub async fn call(&self, event: Bytes) -> Result<v1::Decision, Failure> {
        let started = std::time::Instant::now();
        let mut request = tonic::Request::new(event);
        request.set_timeout(self.timeout);
        let client = self.client.clone();
        let result = match tokio::time::timeout(self.timeout, on_event(client, request)).await {
            Err(_elapsed) => Err(Failure::Timeout(self.timeout)),
            Ok(Err(status)) if is_deadline(&status) => Err(Failure::Timeout(self.timeout)),
            Ok(Err(status)) => Err(Failure::Status(status)),
            Ok(Ok(response)) => Ok(response.into_inner()),
        };
        self.stats.call_took(started.elapsed());
        match &result {
            Ok(_) => self.stats.call_outcome(true),
            Err(Failure::Timeout(_)) => {
                self.stats.timeouts.fetch_add(1, Ordering::Relaxed);
                self.stats.call_outcome(false);
            }
            Err(Failure::Status(status)) if is_connect(status) => {
                self.stats.error(ErrorKind::Connect);
                self.stats.call_outcome(false);
            }
            Err(_) => {
                // It answered: it is up, if unhelpful.
                self.stats.error(ErrorKind::Status);
                self.stats.call_outcome(true);
            }
        }
        result
    }
}

/// `Subscriber.OnEvent`, as the generated client makes it (same readiness
/// error, path and method extension), sending pre-encoded bytes.
async fn on_event(
    mut client: Grpc<Channel>,
    mut request: tonic::Request<Bytes>,
) -> Result<tonic::Response<v1::Decision>, tonic::Status> {
    client
        .ready()
        .await
        .map_err(|e| tonic::Status::unknown(format!("Service was not ready: {e}")))?;
    request
        .extensions_mut()
        .insert(GrpcMethod::new(SERVICE, METHOD));
    let path = PathAndQuery::from_static(PATH);
    client.unary(request, path, PreEncoded).await
}

/// Did the call fail before reaching the subscriber? tonic reports a
/// failed connection as `UNAVAILABLE` carrying the transport error as its
/// source; an `UNAVAILABLE` the subscriber sends itself has no source.
fn is_connect(status: &tonic::Status) -> bool {
    status.code() == tonic::Code::Unavailable && std::error::Error::source(status).is_some()
}

/// Did the call end on its deadline? The server says `DEADLINE_EXCEEDED`;
/// tonic's own client-side enforcement of `grpc-timeout` says `CANCELLED`
/// with the message of [`tonic::TimeoutExpired`].
fn is_deadline(status: &tonic::Status) -> bool {
    match status.code() {
        tonic::Code::DeadlineExceeded => true,
        tonic::Code::Cancelled => status.message() == tonic::TimeoutExpired(()).to_string(),
        _ => false,
    }
}
