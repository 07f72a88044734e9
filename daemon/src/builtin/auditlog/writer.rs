//! Appending to the audit log: chained lines, rotation, and the head
//! sidecar, one writer state per log file in the process.

use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde_json::Value;

use super::{GENESIS, hash, head_path, last_line, last_of, line_count, rotated};

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
        let aside = hookgate_transport::sibling(&head_path(&self.path), ".new");
        let _ = fs::remove_file(&aside);
        let mut file =
            hookgate_transport::files::open(&aside, hookgate_transport::files::Access::Append)?;
        file.write_all(head.to_string().as_bytes())?;
        fs::rename(&aside, head_path(&self.path))
    }
}
