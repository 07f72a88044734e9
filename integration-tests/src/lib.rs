//! Test harness for hookgate's end-to-end tests: the whole system as users
//! run it, through real processes.
//!
//! - [`TestGateway`]: a real `gateway serve` on a private socket, killed on
//!   drop, its stderr kept for failure messages;
//! - [`Shim`]: a real `gateway-shim` run like an agent runs a hook;
//! - [`TestSubscriber`]: a real tonic `Subscriber` server in the test
//!   process with a scripted behaviour, recording what it receives;
//! - [`config_toml`] / [`SubscriberEntry`]: the gateway config;
//! - [`payloads`] and [`decisions`]: inputs by intent.
//! - [`collector`]: an OTLP collector stand-in (the real OTLP/gRPC trace
//!   and metrics services) recording what the gateway exports.
//! - [`guard_corpus`]: the held-out guard corpus run through the real
//!   shim and gateway, and its list of known gaps.
//! - [`agents`] and [`fake_model`]: the real Claude Code and Cline CLIs,
//!   installed pinned and run offline against a scripted model server.
//! - [`sdk`]: the Python and TypeScript SDKs installed as users install
//!   them, and the README's examples.
//!
//! The binaries are found (and built) as described in [`binaries`].

#![allow(
    clippy::disallowed_methods,
    reason = "test and bench code drives real processes and files; the runtime rules are the gateway's"
)]
pub mod agents;
pub mod autostarted;
pub mod binaries;
pub mod browser;
pub mod collector;
mod config;
pub mod decisions;
pub mod fake_model;
mod gateway;
pub mod guard_corpus;
pub mod http_hook;
pub mod payloads;
pub mod sdk;
mod shim;
mod subscriber;

pub use autostarted::Autostarted;
pub use config::{Mode, OnError, SubscriberEntry, config_toml, default_config, standalone};
pub use gateway::{TestGateway, private_dir, run_gateway};
pub use shim::{Shim, ShimOutput, TEST_SHIM_TIMEOUT_MS};
pub use subscriber::{Behaviour, DecisionFuture, Security, TestSubscriber};
