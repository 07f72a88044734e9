//! The built-in `memory` subscriber's keys: where its database lives, its
//! size cap and retention, how much it may inject into a session and how
//! long it may take to, which projects it leaves alone, when a session's
//! raw observations are compressed early, and by which model
//! (`memory_model.rs`).
//!
//! Not in the embedded default: memory keeps a second copy of prompts and
//! tool outputs across sessions and projects, and changes what the model
//! is told, so a user turns it on knowingly (docs/memory.md).

use std::sync::Arc;
use std::time::Duration;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use toml::Spanned;

use super::SubscriberKind;
use super::error::ConfigError;
use super::raw::RawSubscriber;
use super::table::Table;
use super::values::file_path;

const DEFAULT_MAX_BYTES: u64 = 256 << 20;
const MAX_MAX_BYTES: i64 = 16 << 30;
const DEFAULT_INJECT_BYTES: usize = 2048;
const MAX_INJECT_BYTES: i64 = 16 * 1024;
const DEFAULT_RETENTION_DAYS: u64 = 90;
/// The longest the hook path waits for memories: a session start must not
/// be slowed by them.
const DEFAULT_TIMEOUT_MS: u64 = 100;
const MAX_TIMEOUT_MS: i64 = 1000;
const DEFAULT_COMPRESS_AFTER: u64 = 200;
const MAX_EXCLUDE: usize = 256;

/// One `memory` subscriber's settings.
#[derive(Debug, Clone)]
pub struct MemoryConfig {
    /// The SQLite file (default: `memory.db` in the state directory).
    pub path: std::path::PathBuf,
    /// Observations waiting for the writer (a full queue is a counted drop).
    pub queue_size: usize,
    /// The database's pages in use are kept under this (oldest rows go).
    pub max_bytes: u64,
    /// The most memory text injected into one event's context.
    pub inject_bytes: usize,
    /// Projects (their paths) neither captured nor given memories.
    pub exclude: Arc<GlobSet>,
    /// The globs `exclude` was built from, as written.
    pub exclude_globs: Vec<String>,
    /// Rows older than this are removed; `None` keeps them.
    pub retention: Option<Duration>,
    /// The longest an injection may take before the event goes on without.
    pub timeout: Duration,
    /// A session's raw observations are compressed when they pass this
    /// count, besides at its end.
    pub compress_after: u64,
    /// The model sessions are compressed with; `None`: the extractive
    /// summary.
    pub model: Option<super::MemoryModel>,
}

/// A `memory` subscriber from its table's keys.
pub(super) fn memory_kind(
    table: &Table<'_>,
    raw: &mut RawSubscriber,
) -> Result<SubscriberKind, ConfigError> {
    let path = match raw.path.take() {
        Some(path) => file_path(table.at, table.env, &path, &table.key("path"))?,
        None => table
            .env
            .default_audit_path()
            .and_then(|audit| Some(audit.parent()?.join("memory.db")))
            .ok_or_else(|| {
                table.error_here(
                    "path",
                    "no default memory path: neither $XDG_STATE_HOME nor $HOME is set; set `path`",
                )
            })?,
    };
    let globs: Vec<_> = raw.exclude.take().unwrap_or_default();
    let exclude = exclusions(table, &globs)?;
    let days: u64 = table.int(
        raw.retention_days.as_ref(),
        "retention_days",
        0..=36_500,
        DEFAULT_RETENTION_DAYS,
    )?;
    let model = match raw.model.take() {
        Some(model) => Some(super::memory_model::memory_model(table, model.get_ref())?),
        None => None,
    };
    Ok(SubscriberKind::Memory(Box::new(MemoryConfig {
        path,
        queue_size: table.queue_size,
        max_bytes: table.int(
            raw.max_bytes.as_ref(),
            "max_bytes",
            1 << 20..=MAX_MAX_BYTES,
            DEFAULT_MAX_BYTES,
        )?,
        inject_bytes: table.int(
            raw.inject_bytes.as_ref(),
            "inject_bytes",
            0..=MAX_INJECT_BYTES,
            DEFAULT_INJECT_BYTES,
        )?,
        exclude: Arc::new(exclude),
        exclude_globs: globs.into_iter().map(|g| g.into_inner()).collect(),
        retention: (days > 0).then(|| Duration::from_secs(days * 86_400)),
        timeout: table.timeout(raw.timeout_ms.as_ref(), MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS)?,
        compress_after: table.int(
            raw.compress_after.as_ref(),
            "compress_after",
            10..=1_000_000,
            DEFAULT_COMPRESS_AFTER,
        )?,
        model,
    })))
}

/// `exclude`: globs of paths and projects memory leaves alone.
fn exclusions(table: &Table<'_>, globs: &[Spanned<String>]) -> Result<GlobSet, ConfigError> {
    if globs.len() > MAX_EXCLUDE {
        return Err(table.error_here("exclude", "at most 256 globs"));
    }
    let mut set = GlobSetBuilder::new();
    for (index, glob) in globs.iter().enumerate() {
        let compiled = GlobBuilder::new(glob.get_ref())
            .literal_separator(true)
            .build()
            .map_err(|err| {
                table.at.error(
                    glob.span(),
                    format!("{}[{index}]", table.key("exclude")),
                    err.to_string(),
                )
            })?;
        set.add(compiled);
    }
    set.build()
        .map_err(|err| table.error_here("exclude", err.to_string()))
}
