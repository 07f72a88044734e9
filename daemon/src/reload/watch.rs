//! The file watch: a change to the config file asks for a reload.
//!
//! The directory is watched, not the file: editors and `mv` replace the
//! file (a new inode), which a watch on the old inode would never see.
//! Only events naming the config file count, and never mere reads (the
//! reload itself opens the file).

use std::ffi::OsString;
use std::path::Path;

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher as _};

use super::{Handle, Trigger};

/// Watches `path` and nudges `handle` on each change, for as long as the
/// returned watcher lives. `None` (logged) when it cannot be watched: its
/// directory does not exist, or the platform refuses.
pub(crate) fn watch(path: &Path, handle: &Handle) -> Option<RecommendedWatcher> {
    // `--config gateway.toml` has an empty parent: the working directory.
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name: OsString = path.file_name()?.to_owned();
    let handle = handle.clone();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        if event.paths.iter().any(|p| p.file_name() == Some(&name)) {
            handle.nudge(Trigger::Watch);
        }
    });
    let mut watcher = match watcher {
        Ok(watcher) => watcher,
        Err(err) => {
            tracing::warn!(error = %err, "cannot watch the config file; reload with SIGHUP or `gateway reload`");
            return None;
        }
    };
    if let Err(err) = watcher.watch(dir, RecursiveMode::NonRecursive) {
        tracing::warn!(dir = %dir.display(), error = %err, "cannot watch the config directory; reload with SIGHUP or `gateway reload`");
        return None;
    }
    tracing::debug!(path = %path.display(), "watching the config file");
    Some(watcher)
}
