//! gateway-shim: the hook command every agent runs.
//!
//! Agents spawn it once per hook event. It forwards its argv, cwd, the
//! agent-related environment and stdin to the gateway over a local socket
//! and replays the gateway's stdout, stderr and exit code. When the gateway
//! cannot answer in time it answers on its own, fail-open by default (see
//! `run` for the flow and the shim's README for every decision).
//!
//! `no_std` and `no_main`, single-threaded, over libc: std's share of a
//! static binary (its panic and backtrace machinery) would put the shim
//! over its 1 MiB budget. All `unsafe` lives in `sys`; the entry point is
//! `sys::rt`. Unit tests and `panic = "unwind"` builds (which `cargo test`
//! always uses) link std for its test harness and unwinding runtime only.
//!
//! This file stays thin: each concept lives in its own module.

#![no_std]
#![cfg_attr(not(test), no_main)]

extern crate alloc;
#[cfg(test)]
#[macro_use]
extern crate std;
// Unwinding needs std's runtime (its personality routine); nothing else of
// std is used.
#[cfg(all(not(test), panic = "unwind"))]
#[allow(unused_extern_crates)]
extern crate std;

#[cfg(not(unix))]
compile_error!("gateway-shim's runtime (src/sys) is Unix-only; see the shim's README, \"Windows\"");

mod call;
mod cli;
mod config;
mod output;
mod path;
mod record;
mod request;
mod run;
mod sys;
