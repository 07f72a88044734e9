//! Subscribers that ship inside the gateway, behind one trait, `Builtin`:
//! the guard (`guard.rs`, over the `hookgate-guard` crate), `audit` (a
//! masked JSON-lines log; its files in `auditlog`, its masking the
//! `hookgate-mask` crate), `rego` (`rego/`, a policy in Rego over the
//! `hookgate-policy` crate), `memory` (`memory/`, sessions kept and told
//! to later ones, over the `hookgate-memory` crate), `approval`
//! (`approval.rs`, holds a call for a person in `crate::approvals`) and
//! self-protection (`protect.rs`, which
//! `crate::protect` adds to every registry, config or not).
//!
//! The config names each (`builtin = "<name>"`, a `config::SubscriberKind`
//! variant with its keys), `start` turns that into a running built-in,
//! and the registry and pipeline use it through the trait alone. Adding
//! one is its config keys, a module here implementing `Builtin`, and one
//! arm in `start`.

pub mod approval;
pub mod audit;
pub mod auditlog;
mod bounded;
mod guard;
mod memory;
pub(crate) mod on_error;
mod protect;
pub(crate) mod rego;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use hookgate_adapters::{Decision, HookEvent};
use tokio_util::task::TaskTracker;

use crate::budget::Payload;
use crate::metrics::SubscriberStats;
use audit::AuditRecord;
use hookgate_config::SubscriberKind;
pub(crate) use protect::SelfProtection;

/// One built-in subscriber, as the hook path sees it.
///
/// A built-in lives as long as its `[[subscriber]]` table is unchanged: a
/// reload that keeps the table keeps the same value (its queues, caches and
/// tasks go on); a changed table starts a new one, and the old one is
/// dropped when the last event holding it ends, so its background work must
/// stop when it is dropped (a closed channel, a drop guard).
///
/// The registry counts every call (decide, recheck, record), and the
/// latency and answer of every decision; a built-in counts only what it
/// alone sees (drops, writes, errors of its own) in the stats [`start`]
/// gave it.
pub(crate) trait Builtin: fmt::Debug + Send + Sync {
    /// Where the hook path uses it.
    fn role(&self) -> Role;

    /// Its decision on `call.event`, asked with the other deciders, in
    /// parallel (only when [`Role::decides`]). A built-in that waits must
    /// bound the wait itself: it alone knows what a late answer means
    /// (deny, `on_timeout`, no opinion).
    fn decide<'a>(&'a self, call: &'a Call<'a>) -> Answer<'a> {
        let _ = call;
        Answer::Now(Ok(Ruling::from(Decision::default())))
    }

    /// Its decision again on a tool input another subscriber rewrote (in
    /// `call.event`), which the agent will run instead of the call it was
    /// asked about; `None` if it does not judge rewrites. Rule sets do, so a
    /// subscriber cannot launder a call past them (`pipeline/recheck.rs`).
    fn recheck<'a>(&'a self, call: &'a Call<'a>) -> Option<Answer<'a>> {
        let _ = call;
        None
    }

    /// The event and its outcome, after the reply (only when
    /// [`Role::records`]); `record.event` is `None` for a payload that
    /// could not be understood. Never waits: a bounded queue, a counted
    /// drop.
    fn record(&self, record: AuditRecord) {
        let _ = record;
    }

    /// Whether it can decide yet (a policy bundle may be on its way):
    /// `gateway eval` waits a bounded time for it.
    fn ready(&self) -> bool {
        true
    }
}

/// What the hook path asks of a built-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Role {
    /// Asked for a decision on every event its filter matches.
    pub decides: bool,
    /// Told every event its filter matches, and its outcome.
    pub records: bool,
}

impl Role {
    pub(crate) const DECIDES: Role = Role {
        decides: true,
        records: false,
    };
    pub(crate) const RECORDS: Role = Role {
        decides: false,
        records: true,
    };
}

/// One event as a built-in is asked about it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Call<'a> {
    pub event: &'a Arc<HookEvent>,
    /// The event's id, as in the audit log and the proto event.
    pub id: &'a str,
    /// The payload as the agent sent it (its bytes held in the budget).
    pub payload: &'a Arc<Payload>,
    /// When the gateway received the hook call: a built-in that waits
    /// measures its own bound from here.
    pub received: Instant,
    /// Who the event comes from (`[identity]`), as remote subscribers are
    /// told.
    pub caller: &'a Arc<hookgate_proto::v1::Caller>,
    /// When the fan-out must be over for the reply to reach the shim
    /// before its deadline (the shim's, less what the reply needs), if it
    /// said: a remote call that would outlast it is cut there.
    pub deadline: Option<Instant>,
    /// How a built-in holding the call for a person asks the shim to wait
    /// longer (`crate::hold`); only the `approval` uses it.
    pub hold: &'a crate::hold::HoldLine,
}

/// A built-in's decision, or why it has none.
pub(crate) type Decided = Result<Ruling, Failed>;

/// A decision and the rule behind it (its id), for the decision log and
/// the per-rule counters; a subscriber without rules names none.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ruling {
    pub decision: Decision,
    pub rule: Option<String>,
    /// The policy revision that decided (`rego`): the bundle's revision or
    /// the policy files' digest.
    pub revision: Option<Arc<String>>,
    /// How a call held for a person ended (`approval`): who answered,
    /// through which channel, after how long.
    pub held: Option<Arc<approval::HeldNote>>,
}

impl From<Decision> for Ruling {
    fn from(decision: Decision) -> Ruling {
        Ruling {
            decision,
            rule: None,
            revision: None,
            held: None,
        }
    }
}

/// How a built-in answers: at once (a rule set's walk, bounded by the
/// rules), or later (a person, a pool, a database), bounded by itself.
pub(crate) enum Answer<'a> {
    Now(Decided),
    Later(Pin<Box<dyn Future<Output = Decided> + Send + 'a>>),
}

impl Answer<'_> {
    /// The decision, awaited if it comes later.
    pub(crate) async fn resolve(self) -> Decided {
        match self {
            Answer::Now(decided) => decided,
            Answer::Later(pending) => pending.await,
        }
    }
}

impl fmt::Debug for Answer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Now(decided) => f.debug_tuple("Now").field(decided).finish(),
            Answer::Later(_) => f.write_str("Later"),
        }
    }
}

/// A built-in that could not decide: the class of failure (a few words,
/// for counters and the trace; details go to its own debug log) and the
/// decision it stands by instead (its `on_error`).
#[derive(Debug, Clone)]
pub(crate) struct Failed {
    pub class: &'static str,
    pub instead: Decision,
}

/// What starting a built-in may use.
#[derive(Debug)]
pub(crate) struct Start<'a> {
    /// Its counters in `gateway status`, kept across reloads by name.
    pub stats: Arc<SubscriberStats>,
    /// Where its background tasks run (shutdown waits for them).
    pub workers: &'a TaskTracker,
    /// The gateway's registry of calls held for a person (`approval`).
    pub approvals: &'a Arc<crate::approvals::Approvals>,
}

/// The built-in a `[[subscriber]]` of `kind` configures, started; `None`
/// for a remote subscriber. Must run inside the tokio runtime.
pub(crate) fn start(
    name: &str,
    kind: &SubscriberKind,
    start: Start<'_>,
) -> Option<Arc<dyn Builtin>> {
    match kind {
        SubscriberKind::Remote { .. } => None,
        SubscriberKind::Guard { guard } => Some(Arc::new(guard::GuardRules::new(
            guard.clone(),
            &start.stats,
        ))),
        SubscriberKind::Audit {
            path,
            queue_size,
            max_bytes,
            keep,
            anchor,
        } => {
            let log = audit::LogConfig {
                path: path.clone(),
                max_bytes: *max_bytes,
                keep: *keep,
                anchor: anchor.clone(),
            };
            Some(Arc::new(audit::Audit::spawn(
                log,
                *queue_size,
                start.stats,
                start.workers,
            )))
        }
        SubscriberKind::Rego(config) => {
            Some(rego::Rego::start(name, config, start.stats, start.workers))
        }
        SubscriberKind::Memory(config) => Some(Arc::new(memory::Memory::start(
            config,
            start.stats,
            start.workers,
        ))),
        SubscriberKind::Approval(config) => Some(Arc::new(approval::Approval::new(
            name,
            config,
            Arc::clone(start.approvals),
            start.stats,
        ))),
    }
}
