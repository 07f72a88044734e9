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
//! [`detect`] and [`fallback`] need no JSON library (they build without the
//! `json` feature): the shim uses them to answer on its own, correctly for
//! the agent and event, when the gateway is unreachable. Without `json` the
//! crate is `no_std` (it needs only `alloc`), so the shim, a `no_std` binary,
//! can link it without pulling in std.

#![cfg_attr(not(any(feature = "json", test)), no_std)]

extern crate alloc;

mod detect;
mod dialect;
mod fallback;
mod reply;
mod sniff;

pub use detect::{DetectError, Detected, args_hint, detect, detect_with_event};
pub use dialect::{Agent, Dialect, FailMode, UnknownAgent};
pub use fallback::fallback;
pub use probe::probe_payload;
pub use reply::Reply;

#[cfg(feature = "json")]
mod claude_code;
#[cfg(feature = "json")]
mod cline;
#[cfg(feature = "json")]
mod codex;
#[cfg(feature = "json")]
mod copilot;
#[cfg(feature = "json")]
mod cursor;
#[cfg(feature = "json")]
mod decision;
#[cfg(feature = "json")]
mod decode;
#[cfg(feature = "json")]
mod droid;
#[cfg(feature = "json")]
mod error;
#[cfg(feature = "json")]
mod event;
#[cfg(feature = "json")]
mod gemini_cli;
#[cfg(feature = "json")]
mod http;
#[cfg(feature = "json")]
mod json;
#[cfg(feature = "json")]
mod merge;
#[cfg(feature = "json")]
mod parse;
#[cfg(feature = "json")]
pub mod paths;
mod probe;
#[cfg(feature = "json")]
mod qwen_code;
#[cfg(feature = "json")]
mod render;

#[cfg(feature = "json")]
pub use {
    decision::{Decision, Permission},
    decode::{MAX_DEPTH, STACK_SIZE},
    error::{ParseError, ParseErrorKind},
    event::{Capabilities, EventKind, HookEvent, StopInfo, Tool, ToolClass},
    http::{HTTP_AGENTS, HttpReply, http_fallback, http_reply, speaks_http},
    merge::{Merged, RankedDecision, merge},
    parse::{parse, parse_detected},
    render::{Loss, Rendered, render},
};

#[cfg(all(test, feature = "json"))]
mod testing;
