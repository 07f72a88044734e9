//! Removing memories: on request (`forget`: one memory, a session, a
//! project, everything) and by policy (`retain`: an age and a size cap).
//! Rows and their index entries go in one transaction; then the index is
//! merged and the write-ahead log checkpointed, so with `secure_delete`
//! the forgotten text leaves the file's bytes.

use std::time::Duration;

use rusqlite::{TransactionBehavior, params};

use crate::{MemoryError, Store};

/// What to forget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forget<'a> {
    /// One memory, by id.
    Id(i64),
    /// A session's memories and raw observations.
    Session(&'a str),
    /// A project's memories and raw observations.
    Project(&'a str),
    All,
}

/// What forgetting removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Forgotten {
    pub memories: usize,
    pub observations: usize,
    /// The write-ahead log was emptied; false when another connection was
    /// reading (the text leaves it at a later checkpoint).
    pub checkpointed: bool,
}

/// The caps `retain` applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Rows older than this are removed.
    pub max_age: Option<Duration>,
    /// The pages in use (the file's size less its free pages) are kept
    /// under this many bytes, oldest rows first.
    pub max_bytes: u64,
}

/// Steps per `retain` call while the file is over its size cap.
const MAX_SHRINK_STEPS: usize = 8;

impl Store {
    /// Forgets `what`, then merges the index and checkpoints.
    pub fn forget(&mut self, what: Forget<'_>) -> Result<Forgotten, MemoryError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let (memories, observations) = match what {
            Forget::Id(id) => (tx.execute("DELETE FROM memories WHERE id = ?1", [id])?, 0),
            Forget::Session(session) => (
                tx.execute("DELETE FROM memories WHERE session = ?1", [session])?,
                tx.execute("DELETE FROM observations WHERE session = ?1", [session])?,
            ),
            Forget::Project(project) => (
                tx.execute("DELETE FROM memories WHERE project = ?1", [project])?,
                tx.execute("DELETE FROM observations WHERE project = ?1", [project])?,
            ),
            Forget::All => (
                tx.execute("DELETE FROM memories", [])?,
                tx.execute("DELETE FROM observations", [])?,
            ),
        };
        tx.commit()?;
        let checkpointed = self.scrub()?;
        Ok(Forgotten {
            memories,
            observations,
            checkpointed,
        })
    }

    /// Applies `policy`; the rows removed.
    pub fn retain(&mut self, policy: Retention, now_ms: i64) -> Result<usize, MemoryError> {
        let mut removed = 0;
        if let Some(age) = policy.max_age {
            let cutoff = now_ms.saturating_sub(i64::try_from(age.as_millis()).unwrap_or(i64::MAX));
            removed += self
                .conn
                .execute("DELETE FROM memories WHERE at_ms < ?1", [cutoff])?;
            removed += self
                .conn
                .execute("DELETE FROM observations WHERE at_ms < ?1", [cutoff])?;
        }
        // Rows deleted free pages only once the index is merged: each step
        // estimates how many of the oldest rows to drop for the pages in
        // use to fall to 90% of the cap, then merges and measures again.
        for _ in 0..MAX_SHRINK_STEPS {
            let used = self.used_bytes()?;
            if used <= policy.max_bytes {
                break;
            }
            let rows: i64 = self.conn.query_row(
                "SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM observations)",
                [],
                |row| row.get(0),
            )?;
            if rows == 0 {
                break;
            }
            let target = policy.max_bytes / 10 * 9;
            let share = (used - target.min(used)) as f64 / used as f64;
            let drop = ((rows as f64 * share).ceil() as i64).clamp(1, rows);
            for table in ["observations", "memories"] {
                removed += self.conn.execute(
                    &format!(
                        "DELETE FROM {table} WHERE id IN
                         (SELECT id FROM {table} ORDER BY at_ms, id LIMIT ?1)"
                    ),
                    params![drop],
                )?;
            }
            self.scrub()?;
        }
        if removed > 0 {
            self.scrub()?;
        }
        Ok(removed)
    }

    /// Bytes of the pages in use.
    pub(crate) fn used_bytes(&self) -> Result<u64, MemoryError> {
        let pragma = |name: &str| -> Result<i64, MemoryError> {
            Ok(self
                .conn
                .query_row(&format!("PRAGMA {name}"), [], |row| row.get(0))?)
        };
        let used = (pragma("page_count")? - pragma("freelist_count")?) * pragma("page_size")?;
        Ok(used.max(0).unsigned_abs())
    }

    /// Merges the full-text index (old segments, which may still hold a
    /// deleted row's words, are rewritten), gives free pages back and
    /// checkpoints.
    fn scrub(&mut self) -> Result<bool, MemoryError> {
        self.conn.execute(
            "INSERT INTO memories_fts (memories_fts) VALUES ('optimize')",
            [],
        )?;
        self.conn.execute_batch("PRAGMA incremental_vacuum")?;
        self.checkpoint()
    }
}
