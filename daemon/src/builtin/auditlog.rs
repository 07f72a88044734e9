//! The audit log's files: a hash chain over its lines, rotation by size
//! with a retention count, and the checks `gateway audit verify` runs.
//!
//! Every line carries `prev`, the SHA-256 (hex) of the line before it as
//! stored (the first line of a new log: 64 zeros), across rotations too.
//! A sidecar `<log>.head` records the current file's line count and last
//! hash after each write, so a log cut short at its end is caught as well
//! as an edited, inserted or removed line. Tamper-evident, not tamper-proof:
//! whoever can write the files can rewrite the whole chain.
//!
//! Rotation: before a write that would take the file past `max_bytes`,
//! `<log>` becomes `<log>.1` (`.1` → `.2`, ... up to `keep`; older ones
//! are deleted). Synchronous file I/O: the audit writer runs it on the
//! blocking pool.

#![allow(
    clippy::disallowed_methods,
    reason = "runs on the blocking pool (audit.rs) or in `gateway audit`, never on a runtime worker"
)]

use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde_json::Value;
use sha2::{Digest, Sha256};

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

fn head_path(path: &Path) -> PathBuf {
    hookgate_transport::sibling(path, ".head")
}

/// The one writer state of a log file in this process. A reload that
/// changes the `audit` settings builds a second writer while the first
/// drains: both go through this, so the chain stays one chain.
#[derive(Debug, Clone)]
pub struct SharedLog(Arc<State>);

/// A log's writer state: `None` until opened (or after a failure).
type State = Mutex<Option<LogFile>>;

impl SharedLog {
    /// The state of the log at `path`, shared by every writer of it.
    pub fn for_path(path: &Path) -> SharedLog {
        static LOGS: OnceLock<Mutex<HashMap<PathBuf, Weak<State>>>> = OnceLock::new();
        let mut logs = match LOGS.get_or_init(Mutex::default).lock() {
            Ok(logs) => logs,
            Err(poisoned) => poisoned.into_inner(),
        };
        logs.retain(|_, log| log.strong_count() > 0);
        if let Some(log) = logs.get(path).and_then(Weak::upgrade) {
            return SharedLog(log);
        }
        let log = Arc::new(Mutex::new(None));
        logs.insert(path.to_path_buf(), Arc::downgrade(&log));
        SharedLog(log)
    }

    /// Appends `records` (blocking), opening the file first if needed;
    /// after a failure the next append reopens it.
    pub fn append(
        &self,
        path: &Path,
        max_bytes: u64,
        keep: usize,
        records: Vec<Value>,
    ) -> std::io::Result<()> {
        let mut state = match self.0.lock() {
            Ok(state) => state,
            Err(poisoned) => poisoned.into_inner(),
        };
        let file = match state.take() {
            Some(file) => file,
            None => LogFile::open(path, max_bytes, keep)?,
        };
        let file = state.insert(file);
        (file.max_bytes, file.keep) = (max_bytes, keep);
        let appended = file.append(records);
        if appended.is_err() {
            *state = None;
        }
        appended
    }
}

/// The current file, open for appending, and where its chain stands.
#[derive(Debug)]
pub struct LogFile {
    path: PathBuf,
    file: fs::File,
    size: u64,
    lines: u64,
    last: String,
    max_bytes: u64,
    keep: usize,
}

impl LogFile {
    /// Opens (or creates) `path`, 0600 in a 0700 directory, and reads where
    /// its chain stands.
    pub fn open(path: &Path, max_bytes: u64, keep: usize) -> std::io::Result<LogFile> {
        if let Some(dir) = path.parent() {
            let mut builder = fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder.create(dir)?;
        }
        // Non-blocking and never through a symlink: see `files`.
        let file =
            hookgate_transport::files::open(path, hookgate_transport::files::Access::Append)?;
        let text = fs::read(path)?;
        let (lines, last) = match last_line(&text) {
            Some(line) => (line_count(&text), hash(line)),
            // An empty current file continues the newest rotated one.
            None => (
                0,
                last_of(&rotated(path, 1)).unwrap_or_else(|| GENESIS.into()),
            ),
        };
        Ok(LogFile {
            path: path.to_path_buf(),
            file,
            size: text.len() as u64,
            lines,
            last,
            max_bytes,
            keep,
        })
    }

    /// Appends `records` as chained lines, rotating before a line that
    /// would take the file past its limit (a file holds at least one
    /// line), then records the head.
    pub fn append(&mut self, records: Vec<Value>) -> std::io::Result<()> {
        let mut text = String::new();
        for mut record in records {
            record["prev"] = Value::String(std::mem::take(&mut self.last));
            let mut line = record.to_string();
            self.last = hash(line.as_bytes());
            line.push('\n');
            let pending = (self.size + text.len() as u64) > 0;
            if pending && self.size + (text.len() + line.len()) as u64 > self.max_bytes {
                self.write(&text)?;
                text.clear();
                self.rotate()?;
            }
            text.push_str(&line);
        }
        self.write(&text)?;
        self.write_head()
    }

    fn write(&mut self, text: &str) -> std::io::Result<()> {
        self.file.write_all(text.as_bytes())?;
        self.size += text.len() as u64;
        self.lines += line_count(text.as_bytes());
        Ok(())
    }

    fn rotate(&mut self) -> std::io::Result<()> {
        let _ = fs::remove_file(rotated(&self.path, self.keep));
        for n in (1..self.keep).rev() {
            let from = rotated(&self.path, n);
            if from.exists() {
                fs::rename(&from, rotated(&self.path, n + 1))?;
            }
        }
        if self.keep == 0 {
            fs::remove_file(&self.path)?;
        } else {
            fs::rename(&self.path, rotated(&self.path, 1))?;
        }
        self.file =
            hookgate_transport::files::open(&self.path, hookgate_transport::files::Access::Append)?;
        self.size = 0;
        self.lines = 0;
        Ok(())
    }

    fn write_head(&self) -> std::io::Result<()> {
        let head = serde_json::json!({ "lines": self.lines, "last": self.last });
        let aside = hookgate_transport::sibling(&self.path, ".head.new");
        let _ = fs::remove_file(&aside);
        let mut file =
            hookgate_transport::files::open(&aside, hookgate_transport::files::Access::Append)?;
        file.write_all(head.to_string().as_bytes())?;
        fs::rename(&aside, head_path(&self.path))
    }
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

/// The log's files, oldest first: `<log>.N` ... `<log>.1`, `<log>`.
pub fn files(path: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = (1..)
        .map(|n| rotated(path, n))
        .take_while(|p| p.exists())
        .collect();
    files.reverse();
    files.push(path.to_path_buf());
    files
}

/// Why `gateway audit verify` failed.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: not a JSON object with `prev` (a torn or edited line)")]
    Malformed { path: String, line: usize },
    #[error(
        "{path}:{line}: the chain breaks here: a line before it was edited, removed or inserted"
    )]
    Broken { path: String, line: usize },
    #[error("{path}: ends before its recorded last line: the log was truncated or its end edited")]
    Truncated { path: String },
}

/// Checks the chain over every file of the log; the number of lines.
pub fn verify(path: &Path) -> Result<u64, VerifyError> {
    let files = files(path);
    // Files older than the oldest kept one were rotated away: its first
    // line may point to one of them; a lone current file must start fresh.
    let mut expected: Option<String> = (files.len() == 1).then(|| GENESIS.to_owned());
    let mut total = 0;
    let mut current_lines = 0;
    for file in &files {
        let name = file.display().to_string();
        let text = fs::read(file).map_err(|source| VerifyError::Read {
            path: name.clone(),
            source,
        })?;
        current_lines = 0;
        for (i, line) in text.split(|b| *b == b'\n').enumerate() {
            if line.is_empty() {
                continue;
            }
            let prev = serde_json::from_slice::<Value>(line)
                .ok()
                .and_then(|v| v.get("prev").and_then(Value::as_str).map(str::to_owned))
                .ok_or_else(|| VerifyError::Malformed {
                    path: name.clone(),
                    line: i + 1,
                })?;
            if expected.as_ref().is_some_and(|e| *e != prev) {
                return Err(VerifyError::Broken {
                    path: name,
                    line: i + 1,
                });
            }
            expected = Some(hash(line));
            current_lines += 1;
            total += 1;
        }
    }
    let head: Option<Value> = fs::read(head_path(path))
        .ok()
        .and_then(|t| serde_json::from_slice(&t).ok());
    let truncated = match &head {
        None => total > 0,
        Some(head) => {
            head["lines"].as_u64() != Some(current_lines)
                || head["last"].as_str() != Some(expected.as_deref().unwrap_or(GENESIS))
        }
    };
    if truncated {
        return Err(VerifyError::Truncated {
            path: path.display().to_string(),
        });
    }
    Ok(total)
}

#[cfg(test)]
mod tests;
