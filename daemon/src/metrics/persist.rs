//! The counts across restarts: what the agents did today should not reset
//! because the gateway was restarted (an upgrade, a logout, autostart after
//! an idle exit). The counters are written to `counts.json` (next to the
//! socket, or in the state directory when the socket is under
//! `$XDG_RUNTIME_DIR`, like the HTTP token) every few seconds when they
//! changed and once at shutdown, on the blocking pool, never on the hook
//! path; a new gateway adds them back before it counts anything.
//!
//! Bounded: the file is read up to [`MAX_BYTES`], and at most
//! [`MAX_SUBSCRIBERS`] subscribers with [`MAX_RULES`] rules each are kept.
//! Latency distributions start afresh (they are about now, not the sum).
//! A count of the last few seconds before a crash can be lost; nothing
//! else is.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use hookgate_adapters::{Agent, EventKind};
use serde::{Deserialize, Serialize};

use super::{
    FALLBACK_REASONS, HttpRefusal, LOSSES, Metrics, Outcome, Refusal, SubscriberStats, Unparsed,
};

/// The file's name in its directory.
pub(crate) const FILE: &str = "counts.json";
/// Largest file read back.
pub(crate) const MAX_BYTES: u64 = 4 << 20;
pub(crate) const MAX_SUBSCRIBERS: usize = 1024;
pub(crate) const MAX_RULES: usize = 4096;
/// Version of the file's shape; another one is not read back.
const VERSION: u32 = 1;

/// Every counter, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Counts {
    pub(crate) v: u32,
    /// When the first of these gateways started (Unix ms).
    pub(crate) since_ms: u64,
    /// How many gateway starts the counts span.
    pub(crate) starts: u64,
    pub(crate) events: Vec<EventCounts>,
    pub(crate) probes: BTreeMap<String, u64>,
    pub(crate) detect_errors: u64,
    pub(crate) parse_errors: BTreeMap<String, u64>,
    pub(crate) unparsed: BTreeMap<String, u64>,
    pub(crate) unparsed_replies: BTreeMap<String, u64>,
    pub(crate) oversize_replies: u64,
    pub(crate) refused: BTreeMap<String, u64>,
    pub(crate) http_refused: BTreeMap<String, u64>,
    pub(crate) fallbacks: BTreeMap<String, u64>,
    pub(crate) merge: Vec<MergeCounts>,
    pub(crate) subscribers: Vec<SubscriberCounts>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct EventCounts {
    pub(crate) agent: String,
    pub(crate) event: String,
    pub(crate) count: u64,
    pub(crate) outcomes: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct MergeCounts {
    pub(crate) agent: String,
    pub(crate) rewrite_conflicts: u64,
    pub(crate) context_truncations: u64,
    pub(crate) losses: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct SubscriberCounts {
    pub(crate) name: String,
    pub(crate) counters: BTreeMap<String, u64>,
    /// Rule id → (action, hits).
    pub(crate) rules: BTreeMap<String, (String, u64)>,
}

/// A subscriber's counters by name (the status document's names).
fn subscriber_counters(s: &SubscriberStats) -> [(&'static str, &AtomicU64); 21] {
    [
        ("calls", &s.calls),
        ("ok", &s.ok),
        ("allow", &s.allow),
        ("ask", &s.ask),
        ("deny", &s.deny),
        ("errors", &s.errors),
        ("errors_connect", &s.errors_connect),
        ("errors_status", &s.errors_status),
        ("errors_bad_reply", &s.errors_bad_reply),
        ("timeouts", &s.timeouts),
        ("fail_open", &s.fail_open),
        ("fail_closed", &s.fail_closed),
        ("drops", &s.drops),
        ("breaker_open", &s.breaker_open),
        ("breaker_opened", &s.breaker_opened),
        ("breaker_closed", &s.breaker_closed),
        ("would_allow", &s.would_allow),
        ("would_ask", &s.would_ask),
        ("would_deny", &s.would_deny),
        ("audit_reopened", &s.audit.reopened),
        ("audit_anchor_errors", &s.audit.anchor_errors),
    ]
}

fn load(counter: &AtomicU64) -> u64 {
    counter.load(Ordering::Relaxed)
}

fn add(counter: &AtomicU64, n: u64) {
    counter.fetch_add(n, Ordering::Relaxed);
}

/// `names` zipped with `counters`, zeros left out.
fn by_name<'a>(
    names: impl IntoIterator<Item = &'static str>,
    counters: impl IntoIterator<Item = &'a AtomicU64>,
) -> BTreeMap<String, u64> {
    names
        .into_iter()
        .zip(counters)
        .map(|(name, c)| (name.to_owned(), load(c)))
        .filter(|(_, n)| *n > 0)
        .collect()
}

/// Adds each named count to the counter of that name; unknown names (a
/// newer gateway's) are skipped.
fn add_by_name<'a>(
    names: impl IntoIterator<Item = &'static str>,
    counters: impl IntoIterator<Item = &'a AtomicU64>,
    counts: &BTreeMap<String, u64>,
) {
    for (name, counter) in names.into_iter().zip(counters) {
        if let Some(n) = counts.get(name) {
            add(counter, *n);
        }
    }
}

fn position<T: Copy>(all: &[T], name: &str, as_str: impl Fn(T) -> &'static str) -> Option<usize> {
    all.iter().position(|x| as_str(*x) == name)
}

impl Metrics {
    /// Every counter now, with `since_ms` and `starts` as given.
    pub(crate) fn counts(&self, since_ms: u64, starts: u64) -> Counts {
        let mut events = Vec::new();
        for (agent, row) in Agent::ALL.iter().zip(&self.cells) {
            for (kind, cell) in EventKind::ALL.iter().zip(row) {
                let count = load(&cell.events);
                if count > 0 {
                    events.push(EventCounts {
                        agent: agent.as_str().to_owned(),
                        event: kind.as_str().to_owned(),
                        count,
                        outcomes: by_name(Outcome::ALL.map(Outcome::as_str), &cell.outcomes),
                    });
                }
            }
        }
        let merge = Agent::ALL
            .iter()
            .zip(&self.merge)
            .map(|(agent, cell)| MergeCounts {
                agent: agent.as_str().to_owned(),
                rewrite_conflicts: load(&cell.rewrite_conflicts),
                context_truncations: load(&cell.context_truncations),
                losses: by_name(LOSSES.map(|l| l.as_str()), &cell.losses),
            })
            .filter(|m| m.rewrite_conflicts + m.context_truncations > 0 || !m.losses.is_empty())
            .collect();
        let mut subscribers: Vec<SubscriberCounts> = self
            .subscribers
            .iter()
            .map(|entry| {
                let stats = entry.value();
                let counters = subscriber_counters(stats);
                SubscriberCounts {
                    name: entry.key().clone(),
                    counters: by_name(counters.map(|(n, _)| n), counters.map(|(_, c)| c)),
                    rules: stats
                        .rules
                        .snapshot()
                        .into_iter()
                        .take(MAX_RULES)
                        .map(|r| (r.id, (r.action.to_owned(), r.hits)))
                        .collect(),
                }
            })
            .filter(|s| !s.counters.is_empty() || !s.rules.is_empty())
            .collect();
        subscribers.sort_by(|a, b| a.name.cmp(&b.name));
        subscribers.truncate(MAX_SUBSCRIBERS);
        Counts {
            v: VERSION,
            since_ms,
            starts,
            events,
            probes: by_name(Agent::ALL.map(Agent::as_str), &self.probes),
            detect_errors: load(&self.detect_errors),
            parse_errors: by_name(Agent::ALL.map(Agent::as_str), &self.parse_errors),
            unparsed: by_name(Unparsed::ALL.map(Unparsed::as_str), &self.unparsed),
            unparsed_replies: by_name(["open", "closed"], &self.unparsed_replies),
            oversize_replies: load(&self.oversize_replies),
            refused: by_name(Refusal::ALL.map(Refusal::as_str), &self.refused),
            http_refused: by_name(
                HttpRefusal::ALL.map(HttpRefusal::as_str),
                &self.http_refused,
            ),
            fallbacks: by_name(FALLBACK_REASONS, &self.fallbacks),
            merge,
            subscribers,
        }
    }

    /// Adds `counts` (a previous gateway's) to the counters.
    pub(crate) fn restore(&self, counts: &Counts) {
        let agent = |name: &str| position(&Agent::ALL, name, Agent::as_str);
        for e in &counts.events {
            let (Some(a), Some(k)) = (
                agent(&e.agent),
                position(&EventKind::ALL, &e.event, EventKind::as_str),
            ) else {
                continue;
            };
            let cell = &self.cells[a][k];
            add(&cell.events, e.count);
            add_by_name(
                Outcome::ALL.map(Outcome::as_str),
                &cell.outcomes,
                &e.outcomes,
            );
        }
        add_by_name(Agent::ALL.map(Agent::as_str), &self.probes, &counts.probes);
        add(&self.detect_errors, counts.detect_errors);
        add_by_name(
            Agent::ALL.map(Agent::as_str),
            &self.parse_errors,
            &counts.parse_errors,
        );
        add_by_name(
            Unparsed::ALL.map(Unparsed::as_str),
            &self.unparsed,
            &counts.unparsed,
        );
        add_by_name(
            ["open", "closed"],
            &self.unparsed_replies,
            &counts.unparsed_replies,
        );
        add(&self.oversize_replies, counts.oversize_replies);
        add_by_name(
            Refusal::ALL.map(Refusal::as_str),
            &self.refused,
            &counts.refused,
        );
        add_by_name(
            HttpRefusal::ALL.map(HttpRefusal::as_str),
            &self.http_refused,
            &counts.http_refused,
        );
        add_by_name(FALLBACK_REASONS, &self.fallbacks, &counts.fallbacks);
        for m in &counts.merge {
            let Some(a) = agent(&m.agent) else { continue };
            let cell = &self.merge[a];
            add(&cell.rewrite_conflicts, m.rewrite_conflicts);
            add(&cell.context_truncations, m.context_truncations);
            add_by_name(LOSSES.map(|l| l.as_str()), &cell.losses, &m.losses);
        }
        for s in counts.subscribers.iter().take(MAX_SUBSCRIBERS) {
            let stats = self.subscriber(&s.name);
            let counters = subscriber_counters(&stats);
            add_by_name(
                counters.map(|(n, _)| n),
                counters.map(|(_, c)| c),
                &s.counters,
            );
            for (id, (action, hits)) in s.rules.iter().take(MAX_RULES) {
                let action = if action == "ask" {
                    hookgate_guard::Action::Ask
                } else {
                    hookgate_guard::Action::Deny
                };
                stats.rules.add(id, action, *hits);
            }
        }
    }
}

/// Reads the counts at `path`: `Ok(None)` when there is no file yet.
pub(crate) fn read(path: &Path) -> std::io::Result<Option<Counts>> {
    let text = match hookgate_transport::files::read_to_string(path, MAX_BYTES) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err),
    };
    let counts: Counts = serde_json::from_str(&text).map_err(std::io::Error::other)?;
    if counts.v != VERSION {
        return Err(std::io::Error::other(format!(
            "version {} of the counts file, not {VERSION}",
            counts.v
        )));
    }
    Ok(Some(counts))
}

/// Writes `counts` to `path` in one step (a private temporary file in the
/// same directory, renamed over it), creating the directory 0700. Blocks:
/// run it on the blocking pool.
pub(crate) fn write(path: &Path, counts: &Counts) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("the counts file has no directory"))?;
    if !dir.exists() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir)?;
    }
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    serde_json::to_writer(&mut file, counts).map_err(std::io::Error::other)?;
    std::io::Write::write_all(&mut file, b"\n")?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// Where the counts of the gateway on `socket` are kept.
pub(crate) fn path_for(socket: &Path) -> Option<PathBuf> {
    let (runtime, state) = hookgate_config::runtime_and_state_dirs();
    if cfg!(windows) {
        // A pipe name has no directory.
        return state.map(|s| s.join(FILE));
    }
    hookgate_transport::files::kept_dir_in(socket, runtime.as_deref(), state).map(|d| d.join(FILE))
}
