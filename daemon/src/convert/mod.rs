//! The one place where `hookgate.v1` protobuf types and the canonical types
//! of `adapters` meet.
//!
//! Keeping the mapping here means a proto change touches one module, and
//! nothing else in the gateway needs to know that enums are `i32` on the
//! wire or that empty strings mean "absent".
//!
//! Two directions, one file each: `event` turns a canonical event into the
//! proto one subscribers receive (`elide` keeping a large text to one
//! copy), `decision` turns a subscriber's proto reply back into a canonical
//! decision.

mod caller;
mod decision;
mod elide;
mod event;

pub(crate) use caller::{caller, caller_json};
pub(crate) use decision::decision_from_proto;
pub(crate) use event::{ProtoEvent, shell_json};
