//! The audit log's files: a hash chain over its lines, rotation by size
//! with a retention count, and the checks `gateway audit verify` runs.
//!
//! Every line carries `prev`, the SHA-256 (hex) of the line before it as
//! stored (the first line of a new log: 64 zeros), across rotations too.
//! A sidecar `<log>.head` records where the chain stands after each write
//! ([`Head`]), so a log cut short at its end is caught as well as an
//! edited, inserted or removed line. Tamper-evident, not tamper-proof:
//! whoever can write the files can rewrite the whole chain, unless the head
//! is also written to an anchor out of their reach (`writer`, `verify`).
//!
//! Rotation: before a write that would take the file past `max_bytes`,
//! `<log>` becomes `<log>.1` (`.1` → `.2`, ... up to `keep`; older ones
//! are deleted). Synchronous file I/O: the audit writer runs it on the
//! blocking pool.
//!
//! `writer` appends (and reopens a log moved away while open); `verify`
//! checks. Both build on the names and the head defined here.

#![allow(
    clippy::disallowed_methods,
    reason = "runs on the blocking pool (audit.rs) or in `gateway audit`, never on a runtime worker"
)]

mod verify;
mod writer;

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub use verify::{Verified, VerifyError, check_anchor, verify};
pub use writer::{Appended, LogConfig, LogFile, SharedLog};

/// `prev` of a log's first line.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The hex SHA-256 of one stored line (without its newline).
pub fn hash(line: &[u8]) -> String {
    let digest = Sha256::digest(line);
    let mut out = String::with_capacity(64);
    for byte in digest {
        out.push_str(&format!("{byte:02x}"));
    }
    out
}

/// `<log>.<n>`, the n-th newest rotated file.
pub fn rotated(path: &Path, n: usize) -> PathBuf {
    hookgate_transport::sibling(path, &format!(".{n}"))
}

/// `<log>.head`, where the writer records the chain's [`Head`].
pub fn head_path(path: &Path) -> PathBuf {
    hookgate_transport::sibling(path, ".head")
}

/// Where the chain stands after a write: what the head sidecar and the
/// anchor hold, and what `verify` compares the files with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// Lines in the current file.
    pub lines: u64,
    /// The hash of the chain's last line (`GENESIS` before the first).
    pub last: String,
    /// Files the chain moved on from: one per rotation and per reopen of a
    /// log moved or deleted while open. 0: the chain starts in the current
    /// file (its first `prev` must be `GENESIS`). Absent in heads written
    /// before it existed: read as 0.
    #[serde(default)]
    pub file_seq: u64,
}

impl Head {
    /// The head recorded next to the log at `path`, if readable.
    pub fn read(path: &Path) -> Option<Head> {
        let text = fs::read(path).ok()?;
        serde_json::from_slice(&text).ok()
    }
}

/// The numbers `n` of every `<log>.<n>` present, ascending (newest first).
/// Listed from the directory, not probed `.1`, `.2`, ... until one is
/// missing, so a file deleted from the middle leaves a gap `verify` sees
/// instead of hiding the older files behind it.
pub fn rotations(path: &Path) -> Vec<usize> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let prefix = format!("{}.", name.to_string_lossy());
    let mut numbers: Vec<usize> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let entry = entry.file_name();
            let digits = entry.to_str()?.strip_prefix(&prefix)?;
            let n: usize = digits.parse().ok()?;
            // `.01` or `.+1` are not names the writer gives.
            (n > 0 && n.to_string() == digits).then_some(n)
        })
        .collect();
    numbers.sort_unstable();
    numbers
}

/// The log's files, oldest first: every `<log>.<n>` present, highest `n`
/// first, then `<log>`.
pub fn files(path: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = rotations(path)
        .into_iter()
        .rev()
        .map(|n| rotated(path, n))
        .collect();
    files.push(path.to_path_buf());
    files
}

fn line_count(text: &[u8]) -> u64 {
    text.iter().filter(|b| **b == b'\n').count() as u64
}

/// The hash of the last line of `path`, if it has one.
fn last_of(path: &Path) -> Option<String> {
    let text = fs::read(path).ok()?;
    last_line(&text).map(hash)
}

fn last_line(text: &[u8]) -> Option<&[u8]> {
    text.split(|b| *b == b'\n').rfind(|l| !l.is_empty())
}

#[cfg(test)]
mod tests;
