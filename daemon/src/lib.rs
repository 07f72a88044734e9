//! The hookgate gateway: a long-lived daemon that answers every hook event
//! of every coding agent.
//!
//! A shim connects to the gateway's socket ([`hookgate_transport`]: a Unix socket,
//! or a named pipe on Windows) with one request
//! (`server`); the `pipeline` detects and parses the agent's payload,
//! asks the matching `subscribers` in parallel (gRPC ones and the
//! [`builtin`] guard), merges their decisions and renders the agent's
//! reply, while observe subscribers and the audit log get the event through
//! bounded queues. `hookgate_config` says who subscribes to what; `metrics`
//! counts everything that can go wrong, [`shim_records`] adds what the shims
//! recorded while the gateway was unreachable (a Windows pipe has no
//! record), [`start_failure`] why the last start failed, and [`admin`]
//! (gRPC on a sibling socket, `gateway status`) and `prometheus` report
//! it.
//!
//! [`serve`] runs it all on an already bound [`hookgate_transport::Listener`], so tests
//! can run a gateway in-process; the `gateway` binary is a thin CLI over it.

#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "tests set up files and wait on real processes; the runtime rules are for the gateway's own code"
    )
)]

pub mod admin;
pub(crate) mod admission;
pub mod approvals;
pub(crate) mod budget;
pub mod builtin;
pub(crate) mod call_terms;
pub(crate) mod client;
pub mod clock;
pub mod console;
pub(crate) mod convert;
pub mod delivery;
pub mod feed;
pub(crate) mod hold;
pub(crate) mod hook_call;
pub mod http;
pub(crate) mod ids;
pub(crate) mod metrics;
pub mod offline;
pub(crate) mod otel;
pub(crate) mod pipeline;
pub(crate) mod prometheus;
pub mod protect;
pub(crate) mod reload;
pub(crate) mod serve;
pub(crate) mod server;
pub mod shim_records;
pub mod shutdown;
pub mod start_failure;
pub(crate) mod subscribers;
pub(crate) mod warnings;

#[cfg(test)]
mod testing;

pub use serve::{Options, serve};
