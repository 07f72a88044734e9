//! The store's one error type: what went wrong, in words a CLI can print.

use std::path::PathBuf;

/// Why a memory operation failed.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    /// The file could not be created or opened.
    #[error("memory database {}: {source}", path.display())]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The path is not a regular file (a symlink, FIFO or directory).
    #[error("memory database {} is not a regular file", path.display())]
    NotAFile { path: PathBuf },
    /// The file belongs to another user: what it holds is not ours to
    /// tell the model, and what we write would be theirs to read.
    #[error("memory database {} is owned by uid {owner}, not by this user", path.display())]
    NotOurs { path: PathBuf, owner: u32 },
    /// SQLite refused: locked, corrupt, full, or a query failed.
    #[error("memory database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The file was written by a newer hookgate.
    #[error("memory database schema {found} is newer than this hookgate's ({known})")]
    NewerSchema { found: i64, known: i64 },
    /// A value out of its bounds (an empty session id, an oversized key).
    #[error("{what}: {why}")]
    Invalid {
        what: &'static str,
        why: &'static str,
    },
}
