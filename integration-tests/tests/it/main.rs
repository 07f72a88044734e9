//! End-to-end tests of hookgate through real processes: the real `gateway`
//! and `gateway-shim` binaries, real tonic subscribers in this process.
//! See `hookgate_integration_tests` for the harness and how the binaries
//! are found.

#![allow(
    clippy::disallowed_methods,
    reason = "test and bench code drives real processes and files; the runtime rules are the gateway's"
)]
mod approval_notify;
mod approvals;
mod audit_follow;
mod audit_log;
mod audit_log_masking;
mod audit_trust;
mod autostart;
mod bad_input;
mod binaries;
mod breaker;
mod claude_code;
mod cline_legacy;
mod cline_sdk;
mod concurrency;
mod console;
mod cursor;
mod decision_log;
mod eval_ask;
mod eval_replay;
mod fail_modes;
mod fan_out;
mod file_tool_paths;
mod filters;
mod followups;
mod foreign;
mod guard_bounds;
mod guard_corpus;
mod guard_heldout;
mod http_foreign;
mod http_hook;
mod install;
mod install_http;
mod large_events;
mod layering;
mod man_pages;
mod managed;
mod memory;
mod memory_faults;
mod memory_model;
mod memory_sessions;
mod memory_support;
mod observability;
mod observe;
mod otel;
mod peer_uid;
mod printing;
mod rego;
// The tarball is Linux x86_64's; its install.sh is POSIX sh.
#[cfg(target_os = "linux")]
mod release_tarball;
mod reload;
mod remote;
mod rewrite_recheck;
mod self_protection;
mod shadow;
mod socket_activation;
mod status;
mod support;
mod tool_paths;
mod trust;
