//! Which dialect a payload speaks, from its top-level keys, the shim's hint
//! and the names of the environment variables the agent set.
//!
//! Dependency-free (see `sniff`), because the shim calls it too when it has
//! to answer without the gateway.

use crate::{Agent, Dialect};

/// The dialect and, when the payload names it, the agent's event name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    pub dialect: Dialect,
    /// The value of `hook_event_name` / `hookName`, when present.
    pub native_event: Option<String>,
}

/// Why no dialect could be chosen. Never carries payload bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DetectError {
    /// The payload is not a JSON object.
    NotAnObject,
    /// A JSON object, but no known agent's event-name field.
    UnknownDialect,
    /// The hint names an agent whose adapter does not exist yet.
    UnsupportedAgent(Agent),
}

impl std::fmt::Display for DetectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DetectError::NotAnObject => f.write_str("payload is not a JSON object"),
            DetectError::UnknownDialect => f.write_str(
                "payload has neither `hook_event_name` nor `hookName`: unknown agent dialect",
            ),
            DetectError::UnsupportedAgent(agent) => {
                write!(f, "agent `{agent}` has no adapter yet")
            }
        }
    }
}

impl std::error::Error for DetectError {}

/// Decides the dialect of `payload`.
///
/// An explicit `hint` (the shim's argument) wins over everything the payload
/// suggests; for Cline it still picks SDK or legacy from the payload.
/// `env_names` are the names (not values) of the agent-related environment
/// variables the hook process saw (`CLAUDE_PROJECT_DIR`, `CURSOR_VERSION`,
/// `CLINE_*`, ...), used to break ties.
pub fn detect(payload: &[u8], hint: Option<Agent>, env_names: &[&str]) -> Result<Detected, DetectError> {
    let _ = (payload, hint, env_names);
    Err(DetectError::UnknownDialect) // IMPLEMENT
}
