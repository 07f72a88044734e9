//! hookgate's memory across sessions and agents (issue #31): what an agent
//! did in one session, kept so the next session (of any agent) in the same
//! project can be told.
//!
//! One SQLite file (the library compiled in, FTS5 included), private to its
//! user, in WAL mode with `secure_delete` so forgotten text leaves the file:
//! raw `observations` (prompts, commands and their outcomes, files edited)
//! wait there until their session is compressed (`compress`: a
//! deterministic extractive summary, or a model's whose reply `model`
//! reads) into `memories` (fact, decision, file,
//! problem), which `search` ranks by full-text relevance, recency and
//! project within a byte budget. `forget` removes rows and their index
//! entries and checkpoints; `retain` applies the age and size caps.
//!
//! A project is the git root above a working directory, else the directory
//! (`project_of`, which only `stat`s). No tokio, no gateway: the daemon's built-in `memory` subscriber and the
//! `gateway memory` commands both drive a [`Store`]. Nothing here masks
//! secrets: callers store only text already masked.

mod common;
mod compress;
mod entry;
mod error;
mod forget;
mod kinds;
mod model;
mod project;
mod record;
mod schema;
mod search;
mod stats;
mod store;

pub use compress::{Compressed, MAX_MEMORY_BYTES, MAX_SUMMARY_BYTES, summarize};
pub use error::MemoryError;
pub use forget::{Forget, Forgotten, Retention};
pub use kinds::{MemoryKind, ObservationKind};
pub use model::{Batch, MODEL_INSTRUCTIONS, model_prompt, parse_reply};
pub use project::project_of;
pub use record::{MAX_KEY_BYTES, MAX_OBSERVATION_BYTES, MAX_PROJECT_BYTES, Observation};
pub use search::{Memory, Query};
pub use stats::Stats;
pub use store::{DEFAULT_BUSY, Store};

#[cfg(test)]
mod model_tests;
#[cfg(test)]
mod open_tests;
#[cfg(test)]
mod search_tests;
#[cfg(test)]
mod tests;
