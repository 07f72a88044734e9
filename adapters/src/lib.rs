//! Every agent's hook dialect, translated to and from one canonical event.
//!
//! Coding agents (Claude Code, Cursor, Cline, ...) each run hook commands with
//! their own JSON on stdin and expect their own reply on stdout and in the
//! exit code. This crate is the only place in hookgate that knows those
//! dialects. It is pure: no I/O, no async, no transport, and no panics on
//! any input.
//!
//! The life of one payload through this crate:
//! 1. [`detect`] picks the [`Dialect`] from the bytes, the shim's hint and the
//!    names of the environment variables the agent set;
//! 2. [`parse`] turns the bytes into a canonical [`HookEvent`];
//! 3. subscribers answer with [`Decision`]s, which [`merge`] folds into one;
//! 4. [`render`] turns the merged decision into the agent's exact reply
//!    ([`Reply`]: stdout, stderr, exit code) plus the [`Loss`]es: the parts of
//!    the decision this agent could not express for this event.
//!
//! [`detect`], [`fallback`], the agent lists and each dialect's events
//! table ([`hook_names`], [`EventKind`], [`Capabilities`]) come from
//! `hookgate-dialect` (re-exported here under the same names): they need
//! no JSON library, and the shim, a `no_std` binary, links that crate
//! alone. Each dialect's parse and render here are one `Adapter` value.

pub use hookgate_dialect::{
    Agent, Capabilities, DetectError, Detected, Dialect, EVAL_SESSION, EventKind, FailMode,
    PROBE_SESSION, Reply, UnknownAgent, args_hint, danger_payload, detect, detect_with_event,
    fallback, hook_names, is_probe_session, probe_event, probe_payload,
};

mod adapter;
mod claude_code;
mod cline;
mod codex;
mod copilot;
mod cursor;
mod decision;
mod decode;
mod dispatch;
mod droid;
mod error;
mod event;
mod gemini_cli;
mod hermes;
mod http;
mod json;
mod merge;
mod opencode;
mod parse;
pub mod paths;
mod qwen_code;
mod render;
mod rewrite;
pub mod sample;

pub use {
    decision::{Decision, Permission},
    decode::{MAX_DEPTH, STACK_SIZE},
    error::{ParseError, ParseErrorKind},
    event::{HookEvent, StopInfo, Tool, ToolClass, TraceContext},
    http::{HTTP_AGENTS, HttpReply, http_fallback, http_reply, speaks_http},
    merge::{Merged, RankedDecision, merge},
    parse::{parse, parse_detected},
    render::{Loss, Rendered, render},
};

#[cfg(test)]
mod testing;
