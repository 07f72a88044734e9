//! The schema, versioned in SQLite's `user_version`: each migration runs
//! once, in order, in its own transaction; a file from a newer hookgate is
//! refused rather than misread.

use rusqlite::{Connection, TransactionBehavior};

use crate::MemoryError;

/// Migration `n` (1-based) takes the file from version `n - 1` to `n`.
const MIGRATIONS: &[&str] = &[V1];

/// The first schema: raw observations waiting for their session's
/// compression, memories, and the memories' full-text index (external
/// content, kept in step by triggers; `secure-delete` so a deleted row's
/// tokens leave the index at once).
const V1: &str = "
CREATE TABLE observations (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    agent TEXT NOT NULL,
    session TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX observations_session ON observations (session, id);
CREATE INDEX observations_project ON observations (project);
CREATE INDEX observations_at ON observations (at_ms);
CREATE TABLE memories (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    agent TEXT NOT NULL,
    session TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('fact', 'decision', 'file', 'problem')),
    text TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX memories_project ON memories (project, at_ms);
CREATE INDEX memories_session ON memories (session);
CREATE INDEX memories_at ON memories (at_ms);
CREATE VIRTUAL TABLE memories_fts USING fts5 (
    text, content = 'memories', content_rowid = 'id', tokenize = 'unicode61'
);
INSERT INTO memories_fts (memories_fts, rank) VALUES ('secure-delete', 1);
CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER memories_au AFTER UPDATE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO memories_fts (rowid, text) VALUES (new.id, new.text);
END;
";

/// The schema version this build writes.
pub(crate) fn current() -> i64 {
    MIGRATIONS.len() as i64
}

/// Brings the file's schema up to [`current`], under a write lock taken
/// first, so two processes opening a new file at once migrate it once.
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), MemoryError> {
    let version = |conn: &Connection| -> Result<i64, MemoryError> {
        Ok(conn.query_row("PRAGMA user_version", [], |row| row.get(0))?)
    };
    let found = version(conn)?;
    if found > current() {
        return Err(MemoryError::NewerSchema {
            found,
            known: current(),
        });
    }
    if found == current() {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found = version(&tx)?;
    for (index, sql) in MIGRATIONS.iter().enumerate().skip(found.max(0) as usize) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index as i64 + 1)?;
    }
    tx.commit()?;
    Ok(())
}
