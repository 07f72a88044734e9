//! End-to-end tests of hookgate through real processes: the real `gateway`
//! and `gateway-shim` binaries, real tonic subscribers in this process.
//! See `hookgate_integration_tests` for the harness and how the binaries
//! are found.

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
mod memory;
mod observe;
mod peer_uid;
mod reload;
mod shadow;
mod status;
mod support;
mod trust;
