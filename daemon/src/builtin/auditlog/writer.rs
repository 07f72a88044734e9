//! Appending to the audit log: chained lines, rotation, the head sidecar
//! and the optional anchor, and a reopen when the log's path no longer
//! names the file open for appending.
//!
//! A log moved or deleted while the gateway runs would otherwise take every
//! later record into a file nobody can find, while each write succeeds.
//! Before each append the writer compares the path with its open file; when
//! they differ it opens the path again (creating it) and goes on. The new
//! file's first line chains to the last line written (`prev` is the hash
//! the head sidecar and the anchor recorded), and the head's `file_seq`
//! counts the move, so `verify` accepts a current file that starts
//! mid-chain. A file found at the path that does not end where the chain
//! stood breaks the chain at the next line: `verify` fails there rather
//! than endorse what someone put in its place.

use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use hookgate_transport::files::{Access, open};
use serde_json::Value;

use super::{GENESIS, Head, hash, head_path, last_line, last_of, line_count, rotated, rotations};

/// The largest anchor or head file written: a few hashes and counts. The
/// anchor is replaced whole, never appended to, so it cannot grow.
const MAX_HEAD_BYTES: usize = 1024;

/// Where and how the log is written.
#[derive(Debug, Clone)]
pub struct LogConfig {
    pub path: PathBuf,
    /// Rotate before the file would pass this size.
    pub max_bytes: u64,
    /// Rotated files kept.
    pub keep: usize,
    /// Also write the [`Head`] here after each write (`anchor` in the
    /// config): a copy out of the agent's reach lets `gateway audit verify
    /// --anchor` detect a rewrite of the whole chain.
    pub anchor: Option<PathBuf>,
}

/// What an append did besides writing the records.
#[derive(Debug, Default)]
pub struct Appended {
    /// The path no longer named the open file (moved or deleted): the log
    /// was reopened at the path first.
    pub reopened: bool,
    /// Writing the anchor failed; the records themselves were written.
    pub anchor_error: Option<std::io::Error>,
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

    /// Appends `records` (blocking), opening the file first if needed, or
    /// again if its path names another file now; after a failed write the
    /// next append reopens it. Then writes the anchor, if one is set.
    pub fn append(&self, config: &LogConfig, records: Vec<Value>) -> std::io::Result<Appended> {
        let mut state = match self.0.lock() {
            Ok(state) => state,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut appended = Appended::default();
        let file = match state.take() {
            Some(mut file) => match file.reopen_if_moved() {
                Ok(reopened) => {
                    appended.reopened = reopened;
                    file
                }
                // Kept, with where the chain stands: the next append
                // checks (and tries to reopen) again before writing.
                Err(err) => {
                    *state = Some(file);
                    return Err(err);
                }
            },
            None => LogFile::open(&config.path, config.max_bytes, config.keep)?,
        };
        let file = state.insert(file);
        (file.max_bytes, file.keep) = (config.max_bytes, config.keep);
        if let Err(err) = file.append(records) {
            *state = None;
            return Err(err);
        }
        if let Some(anchor) = &config.anchor {
            appended.anchor_error = file.write_anchor(anchor).err();
        }
        Ok(appended)
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
    file_seq: u64,
    max_bytes: u64,
    keep: usize,
}

impl LogFile {
    /// Opens (or creates) `path`, 0600 in a 0700 directory, and reads where
    /// its chain stands.
    pub fn open(path: &Path, max_bytes: u64, keep: usize) -> std::io::Result<LogFile> {
        create_dir(path)?;
        // Non-blocking and never through a symlink: see `files`.
        let file = open(path, Access::Append)?;
        let text = fs::read(path)?;
        let (lines, last) = match last_line(&text) {
            Some(line) => (line_count(&text), hash(line)),
            // An empty current file continues the newest rotated one.
            None => (
                0,
                last_of(&rotated(path, 1)).unwrap_or_else(|| GENESIS.into()),
            ),
        };
        // Without a head, the rotated files show the chain moved on at
        // least that often.
        let file_seq =
            Head::read(&head_path(path)).map_or(rotations(path).len() as u64, |head| head.file_seq);
        Ok(LogFile {
            path: path.to_path_buf(),
            file,
            size: text.len() as u64,
            lines,
            last,
            file_seq,
            max_bytes,
            keep,
        })
    }

    /// Where the chain stands now.
    pub fn head(&self) -> Head {
        Head {
            lines: self.lines,
            last: self.last.clone(),
            file_seq: self.file_seq,
        }
    }

    /// Reopens the log at its path when the path no longer names the open
    /// file (see the module docs); true when it did.
    pub fn reopen_if_moved(&mut self) -> std::io::Result<bool> {
        if self.still_at_path() {
            return Ok(false);
        }
        create_dir(&self.path)?;
        let file = open(&self.path, Access::Append)?;
        let text = fs::read(&self.path)?;
        // `last` stays: the next line chains to the last one written.
        self.file = file;
        self.size = text.len() as u64;
        self.lines = line_count(&text);
        self.file_seq += 1;
        Ok(true)
    }

    /// Does `path` still name the open file? Compared by device and inode,
    /// without following a symlink put in its place.
    #[cfg(unix)]
    fn still_at_path(&self) -> bool {
        use std::os::unix::fs::MetadataExt as _;
        match (fs::symlink_metadata(&self.path), self.file.metadata()) {
            (Ok(named), Ok(open)) => named.dev() == open.dev() && named.ino() == open.ino(),
            _ => false,
        }
    }

    /// Windows: std has no stable file identity (`file_index` is
    /// unstable), so the cheapest honest check is that the path holds a
    /// regular file exactly as long as what was written to it. It catches
    /// a delete and a move; a replacement of the same length passes.
    #[cfg(not(unix))]
    fn still_at_path(&self) -> bool {
        fs::symlink_metadata(&self.path).is_ok_and(|m| m.is_file() && m.len() == self.size)
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
        replace(&head_path(&self.path), &self.head())
    }

    /// Writes the head to `anchor` (whole, by write and rename).
    pub fn write_anchor(&self, anchor: &Path) -> std::io::Result<()> {
        create_dir(anchor)?;
        replace(anchor, &self.head())
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
        self.file = open(&self.path, Access::Append)?;
        self.size = 0;
        self.lines = 0;
        self.file_seq += 1;
        Ok(())
    }
}

/// Creates the directory `path` is in (0700 on Unix), if missing.
fn create_dir(path: &Path) -> std::io::Result<()> {
    let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Replaces `path` with `head` as JSON: written aside, then renamed over
/// it, so a reader sees the old head or the new one, never half of one.
fn replace(path: &Path, head: &Head) -> std::io::Result<()> {
    let text = serde_json::to_string(head).map_err(std::io::Error::other)?;
    if text.len() > MAX_HEAD_BYTES {
        return Err(std::io::Error::other("head larger than expected"));
    }
    let aside = hookgate_transport::sibling(path, ".new");
    let _ = fs::remove_file(&aside);
    let mut file = open(&aside, Access::Append)?;
    file.write_all(text.as_bytes())?;
    fs::rename(&aside, path)
}
