//! The agents hookgate knows, told apart by their payloads, and the reply
//! each expects when no gateway answers.
//!
//! This is the slice of the agents' dialects the shim needs on its own:
//! [`detect`] picks the [`Dialect`] from the bytes, the shim's hint and the
//! names of the environment variables the agent set; [`events`] holds each
//! dialect's table of events (one [`events::Descriptor`] per dialect, read
//! by the adapters' parse and render too); [`fallback`] answers for the
//! agent and event from its row, correctly, when the gateway is
//! unreachable.
//! [`sniff`] reads a payload's top-level string fields without a JSON
//! library; [`probe_payload`] is a harmless call per agent for `gateway
//! doctor`.
//!
//! It is `no_std` (it needs only `alloc`) with no dependencies and no
//! features, so the shim, a `no_std` binary, links the same crate the
//! gateway does. Everything that needs JSON (parse, merge, render) lives in
//! `hookgate-adapters`, which re-exports this crate's items.

#![cfg_attr(not(test), no_std)]

extern crate alloc;

mod detect;
mod dialect;
mod event;
pub mod events;
mod fallback;
mod probe;
mod reply;
pub mod sniff;

pub use detect::{DetectError, Detected, args_hint, detect, detect_with_event};
pub use dialect::{Agent, Dialect, FailMode, UnknownAgent};
pub use event::{Capabilities, EventKind};
pub use events::hook_names;
pub use fallback::{WORKTREE_CREATE_MESSAGE, fallback};
pub use probe::{
    EVAL_SESSION, PROBE_SESSION, danger_payload, is_probe_session, probe_event, probe_payload,
};
pub use reply::Reply;
