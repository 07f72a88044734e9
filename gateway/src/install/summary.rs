//! What one `gateway install` or `uninstall` run did, agent by agent, and
//! the lock that keeps two runs from editing the same files at once.
//!
//! A run goes on past an agent whose config it cannot edit (a file with
//! a syntax error, another user's file, a broken link): the others are
//! still installed, and the summary at the end says which were done and
//! which skipped, and why. The run then exits 1, so a script notices.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context as _;

/// How long a run waits for another one to finish.
const LOCK_WAIT: Duration = Duration::from_secs(30);

/// One agent's outcome.
#[derive(Debug)]
enum Outcome {
    /// Done, with the number of files written (0: all already right).
    Done(usize),
    /// Not done, and why.
    Skipped(String),
}

/// The outcomes of one run, in agent order.
#[derive(Debug, Default)]
pub(crate) struct Summary {
    rows: Vec<(String, Outcome)>,
}

impl Summary {
    pub(crate) fn done(&mut self, label: &str, files: usize) {
        self.rows.push((label.to_owned(), Outcome::Done(files)));
    }

    pub(crate) fn skipped(&mut self, label: &str, why: String) {
        self.rows.push((label.to_owned(), Outcome::Skipped(why)));
    }

    /// Prints the summary; an error when an agent was skipped.
    pub(crate) fn finish(&self, verb: &str) -> anyhow::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let skipped = self
            .rows
            .iter()
            .filter(|(_, outcome)| matches!(outcome, Outcome::Skipped(_)))
            .count();
        outln!(
            "summary: {} {verb}, {skipped} skipped",
            self.rows.len() - skipped
        );
        for (label, outcome) in &self.rows {
            match outcome {
                Outcome::Done(0) => outln!("  done     {label} (nothing to change)"),
                Outcome::Done(1) => outln!("  done     {label} (1 file changed)"),
                Outcome::Done(n) => outln!("  done     {label} ({n} files changed)"),
                Outcome::Skipped(why) => outln!("  skipped  {label}: {why}"),
            }
        }
        if skipped > 0 {
            anyhow::bail!(
                "{skipped} of {} skipped (see the summary): fix what it names and run it again",
                self.rows.len()
            );
        }
        Ok(())
    }
}

/// Held while a run edits files: `<state dir>/install.lock`, an exclusive
/// lock on an open file (released when the process ends, however it ends).
#[derive(Debug)]
pub(crate) struct RunLock {
    _file: File,
}

/// Takes the run lock, waiting up to [`LOCK_WAIT`] for another run.
pub(crate) fn lock() -> anyhow::Result<RunLock> {
    let dir = state_dir().context("no state directory (HOME is not set)")?;
    create_private(&dir)?;
    let path = dir.join("install.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))?;
    let started = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(RunLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) if started.elapsed() < LOCK_WAIT => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(std::fs::TryLockError::WouldBlock) => anyhow::bail!(
                "another `gateway install` or `uninstall` is still running ({} is locked)",
                path.display()
            ),
            Err(std::fs::TryLockError::Error(err)) => {
                return Err(err).with_context(|| format!("locking {}", path.display()));
            }
        }
    }
}

fn state_dir() -> Option<PathBuf> {
    hookgate_wire::socket::state_dir(|name| std::env::var(name).ok()).map(PathBuf::from)
}

#[cfg(unix)]
fn create_private(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("creating {}", dir.display()))
}

#[cfg(not(unix))]
fn create_private(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))
}
