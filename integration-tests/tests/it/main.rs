//! End-to-end tests of hookgate through real processes: the real `gateway`
//! and `gateway-shim` binaries, real tonic subscribers in this process.
//! See `hookgate_integration_tests` for the harness and how the binaries
//! are found.

#![allow(
    clippy::disallowed_methods,
    reason = "test and bench code drives real processes and files; the runtime rules are the gateway's"
)]
mod audit_log;
mod bad_input;
mod breaker;
mod claude_code;
mod cline_legacy;
mod cline_sdk;
mod concurrency;
mod cursor;
mod fail_modes;
mod fan_out;
mod filters;
mod guard_corpus;
mod http_hook;
mod install;
mod install_http;
mod managed;
mod memory;
mod observe;
mod otel;
mod peer_uid;
mod printing;
mod reload;
mod remote;
mod shadow;
mod socket_activation;
mod status;
mod support;
mod trust;
