//! What the store holds, in numbers (`gateway memory stats`).

use crate::{MemoryError, MemoryKind, Store};

/// Counts and sizes of one memory database.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Raw observations waiting for compression.
    pub observations: u64,
    /// Sessions they belong to.
    pub pending_sessions: u64,
    pub memories: u64,
    /// Memories per kind, in [`MemoryKind::ALL`] order.
    pub by_kind: Vec<(MemoryKind, u64)>,
    /// Projects with at least one memory.
    pub projects: u64,
    /// The oldest and newest memory (ms since the epoch).
    pub oldest_ms: Option<i64>,
    pub newest_ms: Option<i64>,
    /// Bytes of the pages in use, and of the file and its write-ahead log.
    pub used_bytes: u64,
    pub file_bytes: u64,
    pub wal_bytes: u64,
    pub schema: i64,
}

impl Store {
    /// The store's counts and sizes.
    pub fn stats(&self) -> Result<Stats, MemoryError> {
        let count = |sql: &str| -> Result<u64, MemoryError> {
            let n: i64 = self.conn.query_row(sql, [], |row| row.get(0))?;
            Ok(n.max(0).unsigned_abs())
        };
        let mut by_kind = Vec::new();
        for kind in MemoryKind::ALL {
            let n: i64 = self.conn.query_row(
                "SELECT count(*) FROM memories WHERE kind = ?1",
                [kind.as_str()],
                |row| row.get(0),
            )?;
            by_kind.push((kind, n.max(0).unsigned_abs()));
        }
        let (oldest_ms, newest_ms) =
            self.conn
                .query_row("SELECT min(at_ms), max(at_ms) FROM memories", [], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })?;
        let size = |suffix: &str| {
            let mut path = self.path().as_os_str().to_owned();
            path.push(suffix);
            std::fs::metadata(path).map_or(0, |m| m.len())
        };
        Ok(Stats {
            observations: count("SELECT count(*) FROM observations")?,
            pending_sessions: count("SELECT count(DISTINCT session) FROM observations")?,
            memories: count("SELECT count(*) FROM memories")?,
            by_kind,
            projects: count("SELECT count(DISTINCT project) FROM memories")?,
            oldest_ms,
            newest_ms,
            used_bytes: self.used_bytes()?,
            file_bytes: size(""),
            wal_bytes: size("-wal"),
            schema: crate::schema::current(),
        })
    }
}
