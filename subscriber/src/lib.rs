//! Write a hookgate subscriber in Rust: a handler per event kind, typed
//! events from every coding agent (with the shell commands as hookgate's
//! guard parsed them), decision helpers, and the gRPC server done for you
//! (the gateway's message limits, `grpc.health.v1`, enforced deadlines,
//! TLS/mTLS, bearer tokens, a graceful stop on SIGTERM, `unix:` or TCP).
//!
//! ```no_run
//! use hookgate_subscriber::{Subscriber, context, deny, none};
//!
//! # async fn run() -> Result<(), hookgate_subscriber::Error> {
//! Subscriber::new()
//!     .on_pre_tool_use(|e| if e.runs("terraform", &["destroy"]) { deny("no terraform destroy") } else { none() })
//!     .on_session_start(|_| context("hello from rust"))
//!     .serve("unix:policy.sock")
//!     .await
//! # }
//! ```
//!
//! [`testing::Kit`] runs the handlers behind a real gateway and shim on
//! every agent's sample payloads.

mod deadline;
mod decision;
mod event;
mod handlers;
mod listen;
mod server;
pub mod testing;

pub use deadline::DEFAULT_DEADLINE;
pub use decision::{
    Decision, Permission, allow, ask, context, deny, followup, halt, none, rewrite,
};
pub use event::{
    Agent, Caller, Capabilities, Dialect, Event, Kind, ShellCommand, Stop, Tool, ToolClass,
    agent_name, kind_name,
};
pub use handlers::Subscriber;
pub use server::{MAX_RECEIVE_BYTES, MAX_SEND_BYTES, ServeOptions, Server, Stats, Tls};

/// Why a server could not start or run.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot listen on {address}: {source}")]
    Listen {
        address: String,
        source: std::io::Error,
    },
    #[error("TLS configuration refused: {0}")]
    Tls(tonic::transport::Error),
    #[error("serving failed: {0}")]
    Serve(tonic::transport::Error),
    #[error("cannot wait for SIGTERM: {0}")]
    Signal(std::io::Error),
}
