//! `gateway audit --follow`: after the last events, each new record as it
//! is appended, until interrupted or the reader closes the output. The log
//! is polled (a CLI with one user watching: a short sleep costs nothing),
//! and followed across rotations: when the path names a new file (the
//! writer renamed the old one to `.1`), the old file is read to its end
//! first, then every file rotated after it (a burst can rotate more than
//! once between two looks), oldest first, then the new one.

use std::fs::File;
use std::io::{BufRead as _, BufReader, Seek as _, SeekFrom};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::View;

/// Pause between looks at the log.
const POLL: Duration = Duration::from_millis(100);
/// Looks at a rotation's files before giving up on finding the old one.
const LISTINGS: usize = 20;
/// Pause between two of those looks.
const LISTING_PAUSE: Duration = Duration::from_millis(10);
/// A line longer than this (a runaway file) is skipped, not held.
const MAX_LINE: u64 = 64 << 20;

/// Prints every record appended to `path` from now on that `view` keeps.
pub(super) fn follow(path: &Path, view: &View<'_>) {
    let mut current = Open::at_end(path);
    loop {
        if let Some(open) = &mut current {
            if !open.print_new(view) {
                return;
            }
            if open.rotated(path) {
                // Whatever the writer added before renaming it away.
                if !open.print_new(view) {
                    return;
                }
                let mut newer = successors(path, open.id);
                let last = newer.pop();
                for mut done in newer {
                    if !done.print_new(view) {
                        return;
                    }
                }
                current = last;
                continue;
            }
        } else {
            current = Open::at_start(path);
        }
        pause(POLL);
    }
}

/// The file being read and its identity.
struct Open {
    reader: BufReader<File>,
    id: Option<(u64, u64)>,
    /// A line begun but not yet finished by the writer.
    partial: String,
}

impl Open {
    fn from(path: &Path, end: bool) -> Option<Open> {
        let mut file = File::open(path).ok()?;
        if end {
            file.seek(SeekFrom::End(0)).ok()?;
        }
        let id = identity(&file);
        Some(Open {
            reader: BufReader::new(file),
            id,
            partial: String::new(),
        })
    }

    fn at_end(path: &Path) -> Option<Open> {
        Open::from(path, true)
    }

    fn at_start(path: &Path) -> Option<Open> {
        Open::from(path, false)
    }

    /// Whether `path` now names another file (or none).
    fn rotated(&self, path: &Path) -> bool {
        let now = File::open(path).ok().and_then(|f| identity(&f));
        now.is_none() || now != self.id
    }

    /// Prints the complete lines added since the last call; false when the
    /// output is closed.
    fn print_new(&mut self, view: &View<'_>) -> bool {
        loop {
            let mut chunk = String::new();
            let limit = MAX_LINE.saturating_sub(self.partial.len() as u64);
            let read = std::io::Read::take(&mut self.reader, limit).read_line(&mut chunk);
            match read {
                Ok(0) | Err(_) => return true,
                Ok(_) => {}
            }
            self.partial.push_str(&chunk);
            if !self.partial.ends_with('\n') {
                if self.partial.len() as u64 >= MAX_LINE {
                    self.partial.clear();
                }
                continue;
            }
            let line = std::mem::take(&mut self.partial);
            let line = line.trim_end_matches(['\n', '\r']);
            let Ok(record) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            if view.keeps(&record) && !crate::out::try_print(view.render(line, &record).as_bytes())
            {
                return false;
            }
        }
    }
}

/// The log's files written after the one with identity `id`, opened from
/// their start, oldest first. Opened before any is read, so a rotation
/// meanwhile cannot shift a name onto another file between the listing and
/// the reading. A listing taken mid-rotation can miss files (the writer
/// renames `.N` to `.N+1` one by one), so it is taken again until `id` is
/// in it; if it never is (rotated past `keep`), only the live file is
/// read, never a file twice.
fn successors(path: &Path, id: Option<(u64, u64)>) -> Vec<Open> {
    for _ in 0..LISTINGS {
        let mut opened: Vec<Open> = hookgate_daemon::builtin::auditlog::files(path)
            .iter()
            .filter_map(|file| Open::at_start(file))
            .collect();
        if let Some(i) = opened.iter().position(|o| o.id.is_some() && o.id == id) {
            return opened.split_off(i + 1);
        }
        pause(LISTING_PAUSE);
    }
    Open::at_start(path).into_iter().collect()
}

/// The file's device and inode (Unix); its creation time elsewhere.
fn identity(file: &File) -> Option<(u64, u64)> {
    let meta = file.metadata().ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let created = meta.created().ok()?;
        let since = created.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some((since.as_secs(), u64::from(since.subsec_nanos())))
    }
}

#[expect(
    clippy::disallowed_methods,
    reason = "a CLI polling a file for its one user; no runtime here"
)]
fn pause(how_long: Duration) {
    std::thread::sleep(how_long);
}
