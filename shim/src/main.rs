//! gateway-shim: the hook command every agent runs.
//!
//! Agents spawn it once per hook event. It forwards its argv, cwd, the
//! agent-related environment and stdin to the gateway over a local socket
//! and replays the gateway's stdout, stderr and exit code. When the gateway
//! cannot answer in time it answers on its own, fail-open by default (see
//! `run` for the flow and the shim's README for every decision).
//!
//! On Unix: `no_std` and `no_main`, single-threaded, over libc: std's share
//! of a static glibc binary (its panic and backtrace machinery) would put
//! the shim over its 1 MiB budget. The entry point is `sys::unix::rt`,
//! which calls `hook_call` below. Unit tests and `panic = "unwind"` builds
//! (which `cargo test` always uses) link std for its test harness and
//! unwinding runtime only.
//!
//! On Windows that budget reason does not apply, so the shim uses std (named
//! pipes through `interprocess`, worker threads for deadlines) and has an
//! ordinary `main`. Either way all `unsafe` and every system call live in
//! `sys`; the other modules are written against `core` and `alloc`. Outside
//! `sys`, a `cfg` only says what a platform has: this file (what of std
//! links, the Windows `main`), and autostart and the fallback record, which
//! are Unix only (`autostart`, `record`).
//!
//! This file stays thin: each concept lives in its own module.

#![cfg_attr(unix, no_std)]
#![cfg_attr(all(unix, not(test)), no_main)]
#![allow(
    clippy::disallowed_methods,
    reason = "the shim has no async runtime: it blocks by design, every wait under its one deadline"
)]

extern crate alloc;
#[cfg(all(unix, test))]
#[macro_use]
extern crate std;
// Unwinding needs std's runtime (its personality routine); nothing else of
// std is used.
#[cfg(all(unix, not(test), panic = "unwind"))]
#[allow(unused_extern_crates)]
extern crate std;

#[cfg(not(any(unix, windows)))]
compile_error!("gateway-shim has a runtime (src/sys) for Unix and Windows only");

mod autostart;
mod call;
mod cli;
mod config;
mod output;
mod record;
mod request;
mod run;
mod stdin;
mod sys;

/// The hook call, as the platform's runtime in `sys` starts it: argv after
/// the program name, and the environment. The one call from `sys` up into
/// the shim (as a C runtime calls `main`), so no module below the root
/// depends on a module that depends on it.
#[cfg_attr(all(unix, test), allow(dead_code))]
fn hook_call(argv: alloc::vec::Vec<alloc::vec::Vec<u8>>, environ: Environ) -> u8 {
    run::run(argv, environ)
}

/// The environment as `run` takes it: (name, value) byte strings.
type Environ = alloc::vec::Vec<(alloc::vec::Vec<u8>, alloc::vec::Vec<u8>)>;

/// The Windows entry point (on Unix it is the C `main` in `sys`).
#[cfg(all(windows, not(test)))]
fn main() -> std::process::ExitCode {
    sys::main()
}
