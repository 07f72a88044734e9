//! Reads the shims' fallback record, so `gateway status` shows how often
//! shims answered without the gateway (e.g. failed open while it was down).
//!
//! The shim appends one line `<unix_secs> <reason>\n` per fallback to
//! `<socket path>.fallbacks` (path and format are [`hookgate_wire::fallback_record`];
//! the shim's `record` module writes it) and never rotates it. A Windows
//! named pipe has no record, so there is nothing to collect. The gateway
//! collects it at startup and before every report:
//!
//! 1. rename it to `<socket path>.fallbacks.collecting` (atomic: new shims
//!    now create a fresh record);
//! 2. read and count the renamed file (bounded: the shim stops at 1 MiB);
//! 3. delete it.
//!
//! The race, and why it is tolerable: a shim that opened the record just
//! before step 1 and writes its line after step 2 writes into the renamed
//! file, and that one line is lost with it. The window is the few
//! microseconds between a shim's `open` and its single `write`; each line
//! is one `write` on an `O_APPEND` file, so a line is never torn.

use std::io;
use std::path::{Path, PathBuf};

use hookgate_wire::fallback_record;

use crate::metrics::Metrics;

/// Suffix of the record while it is being collected.
const COLLECTING_SUFFIX: &str = ".collecting";
/// Never read more than this (the shim stops appending at 1 MiB).
const MAX_READ: u64 = 2 * 1024 * 1024;

/// `<socket>.fallbacks`, as the shim names it (`fallback_record::record_path`);
/// `None` for a named pipe, and for a path that is not UTF-8 (the shim,
/// which reads its socket path as a string, never writes one there).
pub fn record_path(socket: &Path) -> Option<PathBuf> {
    socket
        .to_str()
        .and_then(fallback_record::record_path)
        .map(PathBuf::from)
}

/// The record the shims keep in the user's state directory for `socket`
/// when its directory cannot hold one (`fallback_record::state_record_path`).
pub fn state_record_path(socket: &Path) -> Option<PathBuf> {
    let socket = socket.to_str()?;
    fallback_record::state_record_path(|name| std::env::var(name).ok(), socket).map(PathBuf::from)
}

/// Collects the records of `socket` (next to it and in the state
/// directory) into `metrics`; returns how many fallbacks were counted. A
/// missing record is zero; other errors are logged and also count zero
/// (reports must not fail on it).
pub fn collect(socket: &Path, metrics: &Metrics) -> u64 {
    [record_path(socket), state_record_path(socket)]
        .into_iter()
        .flatten()
        .map(|record| match try_collect(&record, metrics) {
            Ok(n) => n,
            Err(err) => {
                tracing::warn!(record = %record.display(), error = %err, "cannot read the shims' fallback record");
                0
            }
        })
        .sum()
}

/// The fallbacks recorded and not yet collected: by reason, and by what
/// the shim's reply did (its fail mode).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pending {
    pub by_reason: std::collections::BTreeMap<String, u64>,
    /// Fail-open fallbacks: the agent went ahead unchecked.
    pub let_through: u64,
    /// Fail-closed fallbacks: the agent's action was refused.
    pub blocked: u64,
    /// Lines of an older shim, which did not record its mode.
    pub unknown_mode: u64,
}

impl Pending {
    pub fn total(&self) -> u64 {
        self.by_reason.values().sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_reason.is_empty()
    }

    /// `unreachable 3, timeout 1`.
    pub fn reasons(&self) -> String {
        let reasons: Vec<String> = self
            .by_reason
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        reasons.join(", ")
    }

    /// What those replies did, in words: `2 let through unchecked
    /// (fail-open), 1 blocked (fail-closed)`.
    pub fn effect(&self) -> String {
        let mut parts = Vec::new();
        if self.let_through > 0 {
            parts.push(format!(
                "{} let through unchecked (fail-open)",
                self.let_through
            ));
        }
        if self.blocked > 0 {
            parts.push(format!("{} blocked (fail-closed)", self.blocked));
        }
        if self.unknown_mode > 0 {
            parts.push(format!(
                "{} by an older shim that did not record its mode",
                self.unknown_mode
            ));
        }
        parts.join(", ")
    }
}

/// The fallbacks recorded for `socket` and not yet collected, read without
/// touching the records (for `gateway status` when no gateway runs to
/// collect them).
pub fn peek(socket: &Path) -> Pending {
    let mut pending = Pending::default();
    let records = [record_path(socket), state_record_path(socket)];
    for record in records.into_iter().flatten() {
        let collecting = hookgate_transport::sibling(&record, COLLECTING_SUFFIX);
        for path in [record, collecting] {
            let Ok(text) = hookgate_transport::files::read_to_string(&path, MAX_READ) else {
                continue;
            };
            for entry in text.lines().filter_map(fallback_record::parse_line) {
                let reason = entry.reason.map_or("other", |reason| reason.as_str());
                *pending.by_reason.entry(reason.to_owned()).or_default() += 1;
                match entry.mode {
                    Some(fallback_record::Mode::Open) => pending.let_through += 1,
                    Some(fallback_record::Mode::Closed) => pending.blocked += 1,
                    None => pending.unknown_mode += 1,
                }
            }
        }
    }
    pending
}

fn try_collect(record: &Path, metrics: &Metrics) -> io::Result<u64> {
    let collecting = hookgate_transport::sibling(record, COLLECTING_SUFFIX);
    // A leftover from a collection that died between steps 1 and 3 is
    // counted first, then the current record.
    let mut total = count_and_remove(&collecting, metrics)?;
    match std::fs::rename(record, &collecting) {
        Ok(()) => total += count_and_remove(&collecting, metrics)?,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {}
        Err(err) => return Err(err),
    }
    Ok(total)
}

fn count_and_remove(path: &Path, metrics: &Metrics) -> io::Result<u64> {
    use std::io::Read as _;
    // Non-blocking, never through a symlink, a regular file of ours only:
    // a FIFO planted here must not hang start-up or `gateway status`.
    let file = match hookgate_transport::files::open(path, hookgate_transport::files::Access::Read)
    {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(err) => {
            // Not a record a shim wrote: remove it so it is not met again.
            let _ = std::fs::remove_file(path);
            return Err(err);
        }
    };
    let mut text = String::new();
    let read = file.take(MAX_READ).read_to_string(&mut text);
    // Remove even an unreadable record, so it is not counted twice.
    std::fs::remove_file(path)?;
    read?;
    let mut total = 0;
    for entry in text.lines().filter_map(fallback_record::parse_line) {
        // Unknown reasons (a newer shim) are passed on as written; metrics
        // counts them as "other".
        let reason: &str = match entry.reason {
            Ok(reason) => reason.as_str(),
            Err(unknown) => unknown,
        };
        metrics.fallbacks(reason, 1);
        total += 1;
    }
    if total > 0 {
        tracing::warn!(
            count = total,
            "shims answered without the gateway (see `gateway status`)"
        );
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_by_reason_and_removes_the_record() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("gateway.sock");
        let record = record_path(&socket).unwrap();
        assert_eq!(record, dir.path().join("gateway.sock.fallbacks"));
        assert_eq!(
            record_path(Path::new(r"\\.\pipe\hookgate-ada\gateway")),
            None
        );
        std::fs::write(
            &record,
            "1700000000 unreachable\n1700000001 timeout\n1700000002 unreachable\n\
             1700000003 something_new\ngarbage\n",
        )
        .unwrap();
        let metrics = Metrics::default();
        assert_eq!(collect(&socket, &metrics), 4);
        assert!(!record.exists());
        let snap = metrics.snapshot();
        assert_eq!(snap.fallbacks["unreachable"], 2);
        assert_eq!(snap.fallbacks["timeout"], 1);
        assert_eq!(snap.fallbacks["other"], 1);

        // Collected once: a second pass adds nothing; a new line is new.
        assert_eq!(collect(&socket, &metrics), 0);
        std::fs::write(&record, "1700000004 usage\n").unwrap();
        assert_eq!(collect(&socket, &metrics), 1);
        assert_eq!(metrics.snapshot().fallbacks["usage"], 1);
    }

    #[test]
    fn peeking_counts_reasons_and_modes_and_touches_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("gateway.sock");
        let record = record_path(&socket).unwrap();
        std::fs::write(
            &record,
            "1 unreachable open\n2 autostart_failed closed\n3 autostart_failed closed\n4 timeout\n",
        )
        .unwrap();
        let pending = peek(&socket);
        assert_eq!(pending.total(), 4);
        assert_eq!(
            pending.reasons(),
            "autostart_failed 2, timeout 1, unreachable 1"
        );
        assert_eq!(
            pending.effect(),
            "1 let through unchecked (fail-open), 2 blocked (fail-closed), 1 by an older shim that did not record its mode"
        );
        assert!(record.exists());
    }

    #[test]
    fn a_leftover_collection_is_counted() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("gateway.sock");
        let leftover = dir.path().join("gateway.sock.fallbacks.collecting");
        std::fs::write(&leftover, "1 oversize\n").unwrap();
        let metrics = Metrics::default();
        assert_eq!(collect(&socket, &metrics), 1);
        assert!(!leftover.exists());
        assert_eq!(metrics.snapshot().fallbacks["oversize"], 1);
    }

    /// A FIFO planted at the record path is neither waited on nor kept.
    #[cfg(unix)]
    #[test]
    fn a_fifo_at_the_record_path_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("gateway.sock");
        let record = record_path(&socket).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&record).status();
        assert!(made.unwrap().success());
        let metrics = Metrics::default();
        assert_eq!(collect(&socket, &metrics), 0);
        assert!(!record.exists(), "removed");
    }
}
