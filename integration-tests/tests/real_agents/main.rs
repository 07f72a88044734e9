//! The real agent CLIs — Claude Code, the Cline CLI, Qwen Code, Factory
//! Droid, Gemini CLI, Codex, GitHub Copilot CLI and OpenCode, pinned versions
//! installed by the test setup —
//! running headless and offline with `gateway-shim` as their hook command,
//! against a real
//! `gateway` and test gRPC subscribers, with the scripted `fake-model` as
//! their model.
//!
//! Each test asserts what really happened: the marker file the shell
//! command creates (or not), the requests the model received (the deny
//! reason, the injected context), and the events the subscribers received.
//! How the CLIs are driven, and what they were seen to do, is in
//! docs/agents.md ("What the real agents do (observed)", "Running the real
//! CLIs headless and offline" and each agent's section).
//!
//! Run with `cargo test -p hookgate-integration-tests --test real_agents`
//! (needs npm and the npm registry the first time, Node 20+, and root for
//! the network namespace).

#![allow(
    clippy::disallowed_methods,
    reason = "test and bench code drives real processes and files; the runtime rules are the gateway's"
)]
mod approvals;
mod claude_code;
mod claude_meanings;
mod cline;
mod codex;
mod conformance;
mod console;
mod copilot;
mod decision_log;
mod droid;
mod first_hour;
mod flows;
mod gemini_cli;
mod guard;
mod hermes;
mod http_attack;
mod http_hooks;
mod installed;
mod memory;
mod opencode;
mod qwen_code;
mod rego;
mod scenario;
mod sdk_examples;
mod self_protection;
mod support;
mod trust;
