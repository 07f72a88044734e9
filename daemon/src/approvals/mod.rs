//! The one in-daemon registry of calls held for a person (issue #30), and
//! what was allowed for the rest of a session: what the built-in
//! `approval` (`builtin/approval.rs`) holds, and what the admin API's
//! `Approvals` call (`gateway approvals`) and any later console drive:
//! list, approve, deny, watch.
//!
//! Bounded: at most [`MAX_HELD_TOTAL`] calls at once in the whole gateway
//! (each subscriber's `max_held` under it), each listed with a masked,
//! shortened input; the session allowances in `sessions`. It outlives
//! config reloads (one per gateway), and [`Approvals::stop`] answers every
//! held call at shutdown: its holder applies `on_timeout` at once.

pub(crate) mod notify;
mod sessions;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use tokio::sync::{oneshot, watch};
use tokio_util::sync::CancellationToken;

pub use sessions::Scope;
use sessions::Sessions;

/// Calls held at once in the whole gateway, whatever the subscribers say.
pub const MAX_HELD_TOTAL: usize = 1024;
/// The most of a held call's (masked) input a listing shows.
pub const MAX_INPUT_SHOWN: usize = 2048;
/// The longest reason a person may give a deny.
pub const MAX_REASON: usize = 1024;
/// The longest approver name recorded.
pub const MAX_APPROVER: usize = 128;

/// One held call, as listed: nothing here is unmasked.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct HeldCall {
    pub id: u64,
    /// The `approval` subscriber holding it.
    pub subscriber: String,
    pub agent: String,
    pub event: String,
    pub session: Option<String>,
    pub tool: Option<String>,
    /// The tool's input, masked like the audit log, at most
    /// [`MAX_INPUT_SHOWN`] bytes.
    pub input: String,
    /// The rule that matched, and its reason.
    pub rule: Option<String>,
    pub reason: Option<String>,
    pub held_at_unix_ms: u64,
    pub deadline_unix_ms: u64,
    /// Filled in when listed.
    pub time_left_ms: u64,
}

/// A person's answer to a held call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Approve {
        approver: String,
        channel: String,
        scope: Scope,
    },
    Deny {
        approver: String,
        channel: String,
        reason: Option<String>,
    },
}

/// Why a call was not held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotHeld {
    #[error("{0} calls are already held by this subscriber (max_held)")]
    Full(usize),
    #[error("{MAX_HELD_TOTAL} calls are already held in this gateway")]
    GatewayFull,
    #[error("the gateway is stopping")]
    Stopping,
}

/// Why an answer found no call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("no call {0} is held (answered already, timed out, or never held)")]
pub struct Unknown(pub u64);

struct Entry {
    call: HeldCall,
    /// The exact command, for "allow this command for this session".
    command: Option<String>,
    answer: oneshot::Sender<Verdict>,
}

/// The registry. Shared (`Arc`) by every `approval` built-in and the admin
/// API.
pub struct Approvals {
    held: Mutex<BTreeMap<u64, Entry>>,
    sessions: Mutex<Sessions>,
    next_id: AtomicU64,
    /// Bumped on every change, for watchers.
    changes: watch::Sender<u64>,
    stopping: CancellationToken,
}

impl std::fmt::Debug for Approvals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Approvals").finish_non_exhaustive()
    }
}

impl Default for Approvals {
    fn default() -> Self {
        Approvals {
            held: Mutex::new(BTreeMap::new()),
            sessions: Mutex::new(Sessions::default()),
            next_id: AtomicU64::new(1),
            changes: watch::Sender::new(0),
            stopping: CancellationToken::new(),
        }
    }
}

/// A held call, for its holder: the answer when it comes, and the entry
/// removed when dropped (timed out, or the event abandoned).
#[derive(Debug)]
pub struct Holding<'a> {
    pub id: u64,
    pub answer: oneshot::Receiver<Verdict>,
    approvals: &'a Approvals,
}

impl Drop for Holding<'_> {
    fn drop(&mut self) {
        self.approvals.remove(self.id);
    }
}

impl Approvals {
    /// Holds `call` (its id is assigned here) for `subscriber`, which may
    /// hold `max_held` at once; `command` is its exact command, if any.
    pub(crate) fn hold(
        &self,
        mut call: HeldCall,
        command: Option<String>,
        max_held: usize,
    ) -> Result<Holding<'_>, NotHeld> {
        if self.stopping.is_cancelled() {
            return Err(NotHeld::Stopping);
        }
        let mut held = self.lock_held();
        let by_this = held
            .values()
            .filter(|e| e.call.subscriber == call.subscriber)
            .count();
        if by_this >= max_held {
            return Err(NotHeld::Full(max_held));
        }
        if held.len() >= MAX_HELD_TOTAL {
            return Err(NotHeld::GatewayFull);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        call.id = id;
        let (tx, rx) = oneshot::channel();
        held.insert(
            id,
            Entry {
                call,
                command,
                answer: tx,
            },
        );
        drop(held);
        self.changed();
        Ok(Holding {
            id,
            answer: rx,
            approvals: self,
        })
    }

    /// The held calls, oldest first, with the time each has left.
    pub fn list(&self) -> Vec<HeldCall> {
        let now = crate::clock::now_ms();
        self.lock_held()
            .values()
            .map(|e| HeldCall {
                time_left_ms: e.call.deadline_unix_ms.saturating_sub(now),
                ..e.call.clone()
            })
            .collect()
    }

    /// Answers held call `id`; what it was. An approval for the session
    /// (or this command in it) is remembered for later matching calls; the
    /// holder is told the scope really remembered (`once` for a call with
    /// no session, a command scope without a command, or one past the
    /// bounds of `sessions`), so the decision log never claims more.
    pub fn answer(&self, id: u64, mut verdict: Verdict) -> Result<HeldCall, Unknown> {
        let entry = self.lock_held().remove(&id).ok_or(Unknown(id))?;
        if let Verdict::Approve { scope, .. } = &mut verdict {
            *scope = match &entry.call.session {
                Some(session) => {
                    let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
                    sessions.allow(
                        &entry.call.subscriber,
                        session,
                        *scope,
                        entry.command.as_deref(),
                    )
                }
                None => Scope::Once,
            };
        }
        // The holder may have just timed out: then the answer is moot.
        let _ = entry.answer.send(verdict);
        self.changed();
        Ok(entry.call)
    }

    /// Whether `subscriber` was told to allow this call for the rest of its
    /// session (every call, or this exact command).
    pub(crate) fn allowed(
        &self,
        subscriber: &str,
        session: Option<&str>,
        command: Option<&str>,
    ) -> Option<Scope> {
        let session = session?;
        let sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.allowed(subscriber, session, command)
    }

    /// A receiver that sees every change (a call held or answered).
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// The gateway is stopping: every held call is answered by its holder
    /// with its `on_timeout` at once, and no new call is held.
    pub fn stop(&self) {
        self.stopping.cancel();
    }

    /// Resolves when [`Approvals::stop`] is called.
    pub(crate) async fn stopped(&self) {
        self.stopping.cancelled().await;
    }

    fn remove(&self, id: u64) {
        if self.lock_held().remove(&id).is_some() {
            self.changed();
        }
    }

    fn changed(&self) {
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    fn lock_held(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Entry>> {
        // A panic while holding it cannot leave the map half-changed.
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// `text` cut to at most `max` bytes at a character boundary.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}
