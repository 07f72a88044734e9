//! A gRPC subscriber: its endpoints (`balance`: each with a connection for
//! events, `unary`, and a tonic channel for health checks, both dialed with
//! the same TLS, `dial`), its token, a deadline per call and the
//! subscriber's failure policy.
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

use crate::client::balance::{Backend, Backends};
use crate::client::breaker::{Attempt, Breaker};
use crate::client::dial::{DialSetupError, Dialer};
use crate::client::error::{BadEndpoint, CallError};
use crate::client::token::{Token, TokenError};
use crate::client::unary::UnaryClient;
use crate::metrics::{ErrorKind, SubscriberStats};
use hookgate_config::{BreakerConfig, Connection, OnError};
use hookgate_proto::v1;
use prost::Message as _;
use prost::bytes::Bytes;

/// The one method the gateway calls (what the generated client calls).
const PATH: &str = "/hookgate.v1.Subscriber/OnEvent";

/// Why a call gave no usable answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    #[error("no answer within its deadline of {0:?}")]
    Timeout(Duration),
    /// Cut short: the shim's deadline (what it had left) came before the
    /// subscriber's own.
    #[error("no answer within the {0:?} the shim had left")]
    ShimDeadline(Duration),
    #[error(transparent)]
    Call(CallError),
    #[error("not called: its circuit breaker is open")]
    BreakerOpen,
}

impl Failure {
    /// What kind of failure, in a few words, for WARN lines and the deny
    /// reason an agent shows: never the subscriber's own error text, which
    /// may quote the payload (grpcio puts exception text in grpc-message).
    pub(crate) fn class(&self) -> &'static str {
        match self {
            Failure::Timeout(_) => "no answer within its deadline",
            Failure::ShimDeadline(_) => "no answer before the shim's deadline",
            Failure::Call(CallError::Connect(_)) => "not reachable",
            Failure::Call(CallError::Tls(_)) => "TLS failed",
            Failure::Call(CallError::ForeignPeer(_)) => {
                "its Unix socket is served by another user; refused"
            }
            Failure::Call(CallError::Transport(_)) => "connection failed",
            Failure::Call(CallError::Status { .. }) => "answered with a gRPC error status",
            Failure::Call(CallError::Protocol(_)) => "unusable reply",
            Failure::BreakerOpen => "circuit breaker open after repeated failures; not called",
        }
    }

    /// More than [`Failure::class`] for WARN lines, from what the gateway
    /// itself knows (never the subscriber's message): which certificate
    /// was refused by whom, or the gRPC code (UNAUTHENTICATED: a token).
    pub(crate) fn detail(&self) -> Option<String> {
        match self {
            Failure::Call(CallError::Tls(why) | CallError::ForeignPeer(why)) => Some(why.clone()),
            Failure::Call(CallError::Status { code, .. }) => Some(format!("{code:?}")),
            _ => None,
        }
    }
}

/// A subscriber's endpoint that cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RemoteError {
    #[error(transparent)]
    Endpoint(#[from] BadEndpoint),
    #[error(transparent)]
    Dial(#[from] DialSetupError),
    #[error(transparent)]
    Token(#[from] TokenError),
}

/// The largest message the gateway sends or accepts. A hook payload may be
/// up to `hookgate_wire::MAX_STDIN` (8 MiB) and the event carries it twice
/// (`raw_json` and the tool's `input_json`), so subscribers must accept
/// this much too (tonic's default is 4 MiB; see docs/subscribers.md).
pub(crate) const MAX_MESSAGE_SIZE: usize = 32 * 1024 * 1024;

/// The largest reply accepted: what an agent's reply may be at most
/// (`hookgate_wire::MAX_REPLY_BODY`, which the shim enforces), since a
/// decision carries at most a rewritten tool input and text. A larger one
/// is an unusable reply (its `on_error` applies), never an agent reply the
/// shim would have to refuse.
pub(crate) const MAX_REPLY_SIZE: usize = hookgate_wire::MAX_REPLY_BODY;

/// One configured gRPC subscriber. Cloning shares the connections.
#[derive(Debug, Clone)]
pub(crate) struct Remote {
    name: Arc<str>,
    /// Events go to these endpoints (`OnEvent` with the event's shared
    /// encoded bytes); health checks too, on connections of their own (a
    /// probe never queues behind events).
    backends: Arc<Backends>,
    /// Sent with every call and health check, when configured.
    token: Option<Token>,
    timeout: Duration,
    on_error: OnError,
    stats: Arc<SubscriberStats>,
    breaker: Arc<Breaker>,
}

impl Remote {
    /// Prepares lazily opened connections (the subscriber need not be up
    /// yet; a down subscriber is a per-call failure). Must be called inside
    /// a tokio runtime.
    /// TLS files and the token are read now: one that cannot be used
    /// refuses the subscriber (and so the config), never an event.
    pub(crate) fn new(
        name: &str,
        connection: &Connection,
        timeout: Duration,
        on_error: OnError,
        breaker: BreakerConfig,
        stats: Arc<SubscriberStats>,
    ) -> Result<Remote, RemoteError> {
        let token = connection.token.as_ref().map(Token::load).transpose()?;
        let count = u32::try_from(connection.endpoints.len()).unwrap_or(u32::MAX);
        let backends = connection
            .endpoints
            .iter()
            .map(|endpoint| {
                let mut dialer = Dialer::new(endpoint, connection.tls.as_ref())?;
                if count > 1 {
                    // A share of the deadline each, so a black-holed
                    // endpoint leaves time for the others.
                    dialer = dialer.with_connect_timeout(timeout / count);
                }
                let channel = dialer.channel(timeout)?;
                let client =
                    UnaryClient::over(dialer, token.clone(), PATH, timeout, MAX_MESSAGE_SIZE)?
                        .with_reply_limit(MAX_REPLY_SIZE);
                Ok(Backend::new(client, channel))
            })
            .collect::<Result<Vec<_>, RemoteError>>()?;
        stats.endpoints.store(Arc::new(
            backends
                .iter()
                .map(|b: &Backend| (b.endpoint().to_owned(), Arc::clone(b.stats())))
                .collect(),
        ));
        Ok(Remote {
            name: name.into(),
            backends: Arc::new(Backends::new(backends, breaker.cooldown)),
            token,
            timeout,
            on_error,
            breaker: Breaker::new(name, breaker, Arc::clone(&stats)),
            stats,
        })
    }

    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// What a failed call counts as (decide mode).
    pub(crate) fn on_error(&self) -> OnError {
        self.on_error
    }

    pub(crate) fn stats(&self) -> &Arc<SubscriberStats> {
        &self.stats
    }

    /// The endpoints, shared with the health checker.
    pub(crate) fn backends(&self) -> Arc<Backends> {
        Arc::clone(&self.backends)
    }

    /// The token health checks send too.
    pub(crate) fn token(&self) -> Option<Token> {
        self.token.clone()
    }

    /// One call with the deadline sent and enforced. Counts errors,
    /// timeouts and the call's time (and the subscriber's state when it has
    /// no health service); the caller counts `calls` when it hands the
    /// event over and `ok` once it has used the reply.
    /// `event` is an encoded `v1::HookEvent` (`ProtoEvent::encoded`).
    /// While its circuit breaker is open, fails at once with
    /// [`Failure::BreakerOpen`] (counted `breaker_open`, nothing else).
    /// `cap` is what the shim has left, when it said: a call that would
    /// outlast it is cut there (sent as its `grpc-timeout` too) and fails
    /// with [`Failure::ShimDeadline`], counted `deadline_cuts`, not against
    /// the subscriber's state or breaker.
    pub(crate) async fn call(
        &self,
        event: Bytes,
        cap: Option<Duration>,
    ) -> Result<v1::Decision, Failure> {
        let permit = match self.breaker.admit() {
            Attempt::Call(permit) => permit,
            Attempt::Skip => return Err(Failure::BreakerOpen),
        };
        let started = std::time::Instant::now();
        let cut = cap.filter(|cap| *cap < self.timeout);
        let call = self.backends.call(event, cut);
        let result = match tokio::time::timeout(cut.unwrap_or(self.timeout), call).await {
            Err(_elapsed) => Err(match cut {
                Some(cut) => Failure::ShimDeadline(cut),
                None => Failure::Timeout(self.timeout),
            }),
            Ok(Err(CallError::Status { code, message }))
                if cut.is_some() && is_deadline(code, &message) =>
            {
                Err(Failure::ShimDeadline(cut.unwrap_or(self.timeout)))
            }
            Ok(Err(CallError::Status { code, message })) if is_deadline(code, &message) => {
                Err(Failure::Timeout(self.timeout))
            }
            Ok(Err(err)) => Err(Failure::Call(err)),
            Ok(Ok(message)) => v1::Decision::decode(message).map_err(|err| {
                Failure::Call(CallError::Protocol(format!("undecodable Decision: {err}")))
            }),
        };
        self.stats.call_took(started.elapsed());
        match &result {
            Ok(_) => self.stats.call_outcome(true),
            Err(Failure::Timeout(_)) => {
                self.stats.timeouts.fetch_add(1, Ordering::Relaxed);
                self.stats.call_outcome(false);
            }
            Err(Failure::Call(
                CallError::Connect(_)
                | CallError::Tls(_)
                | CallError::ForeignPeer(_)
                | CallError::Transport(_),
            )) => {
                self.stats.error(ErrorKind::Connect);
                self.stats.call_outcome(false);
            }
            // It answered: it is up, if unhelpful.
            Err(Failure::Call(CallError::Status { .. })) => {
                self.stats.error(ErrorKind::Status);
                self.stats.call_outcome(true);
            }
            Err(Failure::Call(CallError::Protocol(_))) => {
                self.stats.error(ErrorKind::BadReply);
                self.stats.call_outcome(true);
            }
            Err(Failure::ShimDeadline(_)) => {
                // Not the subscriber's fault: no state, no breaker verdict
                // (a probe still counts as failed, see `Permit`).
                self.stats.deadline_cuts.fetch_add(1, Ordering::Relaxed);
                drop(permit);
                return result;
            }
            Err(Failure::BreakerOpen) => {}
        }
        permit.finish(result.is_ok());
        result
    }
}

/// Did the subscriber give up on the deadline the gateway sent? The gRPC
/// spec says `DEADLINE_EXCEEDED`; tonic servers answer an expired
/// `grpc-timeout` with `CANCELLED` and the message of
/// [`tonic::TimeoutExpired`] instead, usually a moment before the gateway's
/// own timer fires.
fn is_deadline(code: tonic::Code, message: &str) -> bool {
    match code {
        tonic::Code::DeadlineExceeded => true,
        tonic::Code::Cancelled => message == tonic::TimeoutExpired(()).to_string(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use tonic::Code;

    #[test]
    fn a_deadline_is_recognised_in_both_spellings() {
        let expired = tonic::TimeoutExpired(()).to_string();
        let cases = [
            (Code::DeadlineExceeded, "anything", true),
            (Code::Cancelled, expired.as_str(), true),
            (Code::Cancelled, "the client went away", false),
            (Code::Unavailable, expired.as_str(), false),
        ];
        for (code, message, deadline) in cases {
            assert_eq!(
                super::is_deadline(code, message),
                deadline,
                "{code:?} {message}"
            );
        }
    }
}
