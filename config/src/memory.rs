//! The built-in `memory` subscriber's keys: where its database lives, its
//! size cap and retention, how much it may inject into a session and how
//! long it may take to, which projects it leaves alone, and when a
//! session's raw observations are compressed early.
//!
//! Not in the embedded default: memory keeps a second copy of prompts and
//! tool outputs across sessions and projects, and changes what the model
//! is told, so a user turns it on knowingly (docs/memory.md).

use std::ops::Range;
use std::sync::Arc;
use std::time::Duration;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::error::{ConfigError, Locator};
use super::numbers::int_or;
use super::raw::RawSubscriber;
use super::values::file_path;
use super::{Env, SubscriberKind};

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
}

/// A `memory` subscriber from its table's keys.
pub(super) fn memory_kind(
    at: &Locator<'_>,
    env: &Env,
    raw: &mut RawSubscriber,
    queue_size: usize,
    key: &dyn Fn(&str) -> String,
    name_span: Range<usize>,
) -> Result<SubscriberKind, ConfigError> {
    let path = match raw.path.take() {
        Some(path) => file_path(at, env, &path, &key("path"))?,
        None => env
            .default_audit_path()
            .and_then(|audit| Some(audit.parent()?.join("memory.db")))
            .ok_or_else(|| {
                at.error(
                    name_span.clone(),
                    key("path"),
                    "no default memory path: neither $XDG_STATE_HOME nor $HOME is set; set `path`",
                )
            })?,
    };
    let globs: Vec<_> = raw.exclude.take().unwrap_or_default();
    if globs.len() > MAX_EXCLUDE {
        return Err(at.error(name_span, key("exclude"), "at most 256 globs"));
    }
    let mut set = GlobSetBuilder::new();
    for (index, glob) in globs.iter().enumerate() {
        let compiled = GlobBuilder::new(glob.get_ref())
            .literal_separator(true)
            .build()
            .map_err(|err| {
                at.error(
                    glob.span(),
                    format!("{}[{index}]", key("exclude")),
                    err.to_string(),
                )
            })?;
        set.add(compiled);
    }
    let exclude = set
        .build()
        .map_err(|err| at.error(name_span, key("exclude"), err.to_string()))?;
    let days: u64 = int_or(
        at,
        raw.retention_days.as_ref(),
        &key("retention_days"),
        0..=36_500,
        DEFAULT_RETENTION_DAYS,
    )?;
    Ok(SubscriberKind::Memory(Box::new(MemoryConfig {
        path,
        queue_size,
        max_bytes: int_or(
            at,
            raw.max_bytes.as_ref(),
            &key("max_bytes"),
            1 << 20..=MAX_MAX_BYTES,
            DEFAULT_MAX_BYTES,
        )?,
        inject_bytes: int_or(
            at,
            raw.inject_bytes.as_ref(),
            &key("inject_bytes"),
            0..=MAX_INJECT_BYTES,
            DEFAULT_INJECT_BYTES,
        )?,
        exclude: Arc::new(exclude),
        exclude_globs: globs.into_iter().map(|g| g.into_inner()).collect(),
        retention: (days > 0).then(|| Duration::from_secs(days * 86_400)),
        timeout: Duration::from_millis(int_or(
            at,
            raw.timeout_ms.as_ref(),
            &key("timeout_ms"),
            1..=MAX_TIMEOUT_MS,
            DEFAULT_TIMEOUT_MS,
        )?),
        compress_after: int_or(
            at,
            raw.compress_after.as_ref(),
            &key("compress_after"),
            10..=1_000_000,
            DEFAULT_COMPRESS_AFTER,
        )?,
    })))
}
