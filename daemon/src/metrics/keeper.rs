//! Keeps the counts on disk while the gateway runs (`persist`): restored
//! once at the start, saved every [`INTERVAL`] when they changed and once
//! more at shutdown, each save on the blocking pool.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::Metrics;
use super::persist::{self, Counts};

/// How often the counts are saved (when they changed).
pub(crate) const INTERVAL: Duration = Duration::from_secs(5);

/// Where the counts are kept across restarts and what they span, for
/// `gateway status`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CountsInfo {
    pub path: String,
    /// When the first gateway of these counts started (Unix ms).
    pub since_ms: u64,
    /// Gateway starts the counts span, this one included.
    pub starts: u64,
}

/// The counts' file and what was last written to it.
#[derive(Debug)]
pub(crate) struct Keeper {
    path: PathBuf,
    metrics: Arc<Metrics>,
    since_ms: u64,
    starts: u64,
    last: Mutex<Option<Counts>>,
}

impl Keeper {
    /// The keeper of the counts at `path`, with what a previous gateway
    /// left there added to `metrics` (a file that cannot be read is
    /// reported and replaced at the next save).
    pub(crate) async fn open(path: PathBuf, metrics: &Arc<Metrics>) -> Keeper {
        let reading = path.clone();
        let previous = tokio::task::spawn_blocking(move || persist::read(&reading))
            .await
            .unwrap_or_else(|err| Err(std::io::Error::other(err)));
        let previous = match previous {
            Ok(previous) => previous,
            Err(err) => {
                tracing::warn!(path = %path.display(), error = %err, "the counts of earlier runs cannot be read; counting from zero");
                None
            }
        };
        let (since_ms, starts) = match &previous {
            Some(counts) => {
                metrics.restore(counts);
                (counts.since_ms, counts.starts.saturating_add(1))
            }
            None => (crate::clock::now_ms(), 1),
        };
        Keeper {
            path,
            metrics: Arc::clone(metrics),
            since_ms,
            starts,
            last: Mutex::new(previous),
        }
    }

    /// The keeper for the gateway on `socket`, `None` when there is no
    /// place for the file.
    pub(crate) async fn for_socket(socket: &Path, metrics: &Arc<Metrics>) -> Option<Keeper> {
        Some(Keeper::open(persist::path_for(socket)?, metrics).await)
    }

    pub(crate) fn info(&self) -> CountsInfo {
        CountsInfo {
            path: self.path.display().to_string(),
            since_ms: self.since_ms,
            starts: self.starts,
        }
    }

    /// Writes the counts if they changed since the last write.
    pub(crate) async fn save(&self) {
        let mut counts = self.metrics.counts(self.since_ms, self.starts);
        {
            let last = self
                .last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.as_ref().is_some_and(|l| *l == counts) {
                return;
            }
        }
        let path = self.path.clone();
        let written = tokio::task::spawn_blocking(move || {
            let result = persist::write(&path, &counts);
            (result, counts)
        })
        .await;
        match written {
            Ok((Ok(()), written)) => {
                counts = written;
                *self
                    .last
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(counts);
            }
            Ok((Err(err), _)) => {
                tracing::warn!(path = %self.path.display(), error = %err, "saving the counts failed");
            }
            Err(err) => tracing::warn!(error = %err, "saving the counts failed"),
        }
    }

    /// Saves every [`INTERVAL`] on `tracker` until `stop`.
    pub(crate) fn spawn(self: &Arc<Self>, tracker: &TaskTracker, stop: CancellationToken) {
        let keeper = Arc::clone(self);
        tracker.spawn(async move {
            loop {
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(INTERVAL) => keeper.save().await,
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{Outcome, Refusal};
    use hookgate_adapters::{Agent, EventKind};

    #[tokio::test]
    async fn counts_survive_a_new_gateway_and_add_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state").join(persist::FILE);
        let first = Arc::new(Metrics::default());
        let keeper = Keeper::open(path.clone(), &first).await;
        assert_eq!(keeper.info().starts, 1);
        first.event(Agent::Codex, EventKind::PreToolUse);
        first.replied(
            Agent::Codex,
            EventKind::PreToolUse,
            Outcome::Deny,
            Duration::ZERO,
        );
        first.refused(Refusal::Busy);
        first.probe(Agent::Codex, Outcome::Allow);
        first.fallbacks("unreachable", 2);
        let stats = first.subscriber("guard");
        stats
            .rules
            .counter("env-read", hookgate_guard::Action::Deny)
            .hit();
        stats.answered(hookgate_adapters::Permission::Deny);
        keeper.save().await;
        let since = keeper.info().since_ms;

        let second = Arc::new(Metrics::default());
        let again = Keeper::open(path.clone(), &second).await;
        assert_eq!((again.info().starts, again.info().since_ms), (2, since));
        second.event(Agent::Codex, EventKind::PreToolUse);
        let snap = second.snapshot();
        assert_eq!(snap.total_events(), 2);
        assert_eq!(snap.events[0].outcomes["deny"], 1);
        assert_eq!(snap.refusals(Refusal::Busy), 1);
        assert_eq!(snap.probes["codex"], 1);
        assert_eq!(snap.fallbacks["unreachable"], 2);
        let guard = snap.subscriber("guard").unwrap();
        assert_eq!((guard.deny, guard.rules[0].hits), (1, 1));
        assert_eq!(second.counts(since, 2).events[0].count, 2);
    }

    #[tokio::test]
    async fn an_unreadable_file_counts_from_zero_and_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(persist::FILE);
        std::fs::write(&path, "{ not json").unwrap();
        let metrics = Arc::new(Metrics::default());
        let keeper = Keeper::open(path.clone(), &metrics).await;
        assert_eq!(keeper.info().starts, 1);
        metrics.detect_error();
        keeper.save().await;
        let saved = persist::read(&path).unwrap().unwrap();
        assert_eq!(saved.detect_errors, 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
