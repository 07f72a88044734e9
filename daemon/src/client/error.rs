//! Why a call to a subscriber gave no reply, in the client's own words:
//! the errors of dialing (`dial`), calling (`unary`) and balancing
//! (`balance`), which each of them returns and none of them owns.

use tonic::Code;

/// Why a call gave no reply message.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CallError {
    #[error("cannot connect: {0}")]
    Connect(String),
    /// The gateway refused the subscriber's certificate, or the subscriber
    /// refused the gateway's (or its lack of one). Our own words only.
    #[error("TLS: {0}")]
    Tls(String),
    /// A `unix://` endpoint served by a process of another user (neither
    /// this user nor root): refused before anything was sent.
    #[cfg_attr(
        not(unix),
        expect(
            dead_code,
            reason = "only `unix://` endpoints, Unix-only, are peer-checked"
        )
    )]
    #[error("refused: {0}")]
    ForeignPeer(String),
    #[error("connection failed: {0}")]
    Transport(#[source] h2::Error),
    #[error("gRPC status {code:?}: {message}")]
    Status { code: Code, message: String },
    #[error("not a usable gRPC reply: {0}")]
    Protocol(String),
}

/// A malformed endpoint (the config check should have caught it).
#[derive(Debug, thiserror::Error)]
#[error("bad endpoint `{endpoint}`: {why}")]
pub(crate) struct BadEndpoint {
    endpoint: String,
    why: &'static str,
}

impl BadEndpoint {
    pub(super) fn new(endpoint: &str, why: &'static str) -> BadEndpoint {
        BadEndpoint {
            endpoint: endpoint.to_owned(),
            why,
        }
    }
}
