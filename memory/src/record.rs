//! Raw observations: one row per thing an agent did, keyed by project,
//! agent and session, each bounded in size, waiting for their session's
//! compression.

use crate::entry::{Entry, Table};
use crate::{MemoryError, ObservationKind, Store};

/// An observation's text is cut to this many bytes (at a character
/// boundary) before it is stored.
pub const MAX_OBSERVATION_BYTES: usize = 4096;
/// A project is a directory path; longer ones are refused.
pub const MAX_PROJECT_BYTES: usize = 4096;
/// Agent names and session ids longer than this are refused.
pub const MAX_KEY_BYTES: usize = 256;

/// One thing an agent did (its text already masked by the caller).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    pub project: String,
    pub agent: String,
    pub session: String,
    pub kind: ObservationKind,
    pub text: String,
    /// Milliseconds since the Unix epoch.
    pub at_ms: i64,
}

impl Store {
    /// Stores `observation` (its text cut to [`MAX_OBSERVATION_BYTES`]);
    /// its row id.
    pub fn record(&mut self, observation: &Observation) -> Result<i64, MemoryError> {
        check_keys(
            &observation.project,
            &observation.agent,
            &observation.session,
        )?;
        let text = cut(&observation.text, MAX_OBSERVATION_BYTES);
        let entry = Entry {
            project: &observation.project,
            agent: &observation.agent,
            session: &observation.session,
            kind: observation.kind.as_str(),
            text,
            at_ms: observation.at_ms,
        };
        entry.insert(&self.conn, Table::Observations)?;
        Ok(self.conn.last_insert_rowid())
    }

    /// How many raw observations of `session` wait for compression.
    pub fn pending(&self, session: &str) -> Result<u64, MemoryError> {
        let count: i64 = self.conn.query_row(
            "SELECT count(*) FROM observations WHERE session = ?1",
            [session],
            |row| row.get(0),
        )?;
        Ok(count.max(0).unsigned_abs())
    }
}

/// Refuses an empty or oversized project, agent or session.
pub(crate) fn check_keys(project: &str, agent: &str, session: &str) -> Result<(), MemoryError> {
    let invalid = |what, why| Err(MemoryError::Invalid { what, why });
    if project.is_empty() || project.len() > MAX_PROJECT_BYTES {
        return invalid("project", "must be 1 to 4096 bytes");
    }
    if agent.is_empty() || agent.len() > MAX_KEY_BYTES {
        return invalid("agent", "must be 1 to 256 bytes");
    }
    if session.is_empty() || session.len() > MAX_KEY_BYTES {
        return invalid("session", "must be 1 to 256 bytes");
    }
    Ok(())
}

/// `text` cut to at most `max` bytes, at a character boundary.
pub(crate) fn cut(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
