//! The gRPC client the gateway calls remote subscribers with, written on
//! `h2` directly: `error` (why a call gave no reply), `unary` (one unary call, one write per request, sent
//! once more only if refused unprocessed), `dial` (one endpoint's
//! connections: TCP, TLS or a Unix socket whose server is checked), `tls`
//! (rustls from the `tls_*` files), `token` (the bearer token's source),
//! `balance` (a subscriber's endpoints: round robin and failover),
//! `breaker` (closed → open → one probe) and `health` (`grpc.health.v1`
//! checks of every endpoint).
//!
//! It knows endpoints, bytes and deadlines, not events: `subscribers::remote`
//! is the one subscriber built on it.

pub(crate) mod balance;
pub(crate) mod breaker;
pub(crate) mod dial;
pub(crate) mod error;
pub(crate) mod health;
pub(crate) mod tls;
pub(crate) mod token;
pub(crate) mod unary;
