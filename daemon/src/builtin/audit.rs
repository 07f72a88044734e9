//! The built-in `audit` subscriber: one JSON line per event and its merged
//! decision, secrets masked.
//!
//! Writing happens off the hook path: the pipeline `try_send`s a record into
//! a bounded queue (a full queue is a counted drop, never a wait) and one
//! worker task serializes, masks and appends (`auditlog`: hash chain,
//! rotation). The file is created 0600 in a 0700 directory (on Unix;
//! Windows has no modes: the file inherits its directory's ACL, and the
//! default state directory is the user's own): it holds prompts and
//! commands.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hookgate_adapters::{Decision, Dialect, FailMode, HookEvent, Loss, Permission};
use hookgate_mask::mask_json;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio_util::task::TaskTracker;

pub use super::auditlog::LogConfig;
use super::auditlog::{Appended, SharedLog};
use super::{Builtin, Role};
use crate::budget::Payload;
use crate::delivery::Delivery;
use crate::metrics::SubscriberStats;

/// Version of a line's schema (docs/decision-log.md): fields are only
/// added; anything else bumps it.
pub const SCHEMA: u32 = 1;

/// One line of the audit log, before serialization.
#[derive(Debug, Clone)]
pub struct AuditRecord {
    pub id: String,
    pub at: SystemTime,
    /// `None` when the payload could not be parsed.
    pub event: Option<Arc<HookEvent>>,
    /// The payload as received.
    pub payload: Arc<Payload>,
    pub decision: Decision,
    /// What each decider said, and what the agent could not be told.
    pub verdicts: Verdicts,
    /// Why the payload was not parsed (never payload content).
    pub error: Option<String>,
    pub latency: Duration,
    /// What became of the reply: known only once it was written (and, from
    /// a shim that sends one, acknowledged).
    pub delivery: Delivery,
    /// The hook call's fail mode: what the shim answered by itself if the
    /// reply did not reach it in time.
    pub fail_mode: FailMode,
    /// What the shim had left of its deadline when its request was read,
    /// when it said (shims since the `HOOKGATE_DEADLINE_UNIX_MS` variable).
    pub deadline_left: Option<Duration>,
}

/// Each decide subscriber's outcome and the merged decision's losses.
#[derive(Debug, Clone, Default)]
pub struct Verdicts {
    pub subscribers: Vec<SubscriberOutcome>,
    pub losses: Vec<Loss>,
    /// The follow-up was left out: the session had `[server]
    /// max_followups` in a row (logged as the loss `followup_capped`).
    pub followup_capped: bool,
}

/// One decide subscriber's answer (its `on_error` one when it failed).
#[derive(Debug, Clone)]
pub struct SubscriberOutcome {
    pub name: String,
    pub permission: Permission,
    pub latency: Duration,
    /// The policy revision that decided (`rego` subscribers): the bundle's
    /// revision or the policy files' digest.
    pub revision: Option<Arc<String>>,
    /// Why the call failed (its `on_error` answered), in a few words.
    pub failed: Option<&'static str>,
    /// The guard rule that decided, by id.
    pub rule: Option<String>,
    /// How a call held for a person ended (`approval`).
    pub held: Option<Arc<super::approval::HeldNote>>,
}

/// The hook path's handle: cheap to clone, never blocks.
#[derive(Debug, Clone)]
pub struct Audit {
    tx: mpsc::Sender<AuditRecord>,
    stats: Arc<SubscriberStats>,
}

impl Audit {
    /// Starts the writer task on `tracker`; it ends when every handle is
    /// dropped and the queue is drained.
    pub fn spawn(
        log: LogConfig,
        queue_size: usize,
        stats: Arc<SubscriberStats>,
        tracker: &TaskTracker,
    ) -> Audit {
        let (tx, rx) = mpsc::channel(queue_size.max(1));
        tracker.spawn(writer(log, rx, stats.clone()));
        Audit { tx, stats }
    }

    /// Queues a record; a full queue counts a drop.
    pub fn record(&self, record: AuditRecord) {
        if self.tx.try_send(record).is_err() {
            self.stats.drops.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Builtin for Audit {
    fn role(&self) -> Role {
        Role::RECORDS
    }

    fn record(&self, record: AuditRecord) {
        Audit::record(self, record);
    }
}

/// Whether the log is currently failing, so a broken log warns once when it
/// breaks and says so once when it works again, not on every batch.
#[derive(Debug, Default)]
struct Failing(bool);

impl Failing {
    /// Records a failure; true when the log was working until now.
    fn failed(&mut self) -> bool {
        !std::mem::replace(&mut self.0, true)
    }

    /// Records a success; true when the log was failing until now.
    fn recovered(&mut self) -> bool {
        std::mem::replace(&mut self.0, false)
    }
}

async fn writer(
    config: LogConfig,
    mut rx: mpsc::Receiver<AuditRecord>,
    stats: Arc<SubscriberStats>,
) {
    let path = config.path.clone();
    let log = SharedLog::for_path(&path);
    stats.audit.active.store(true, Ordering::Relaxed);
    let mut failing = Failing::default();
    let mut anchor_failing = Failing::default();
    // Masking's set of patterns, compiled before the first record arrives
    // rather than when it does (a rule's own regex waits for its first
    // match).
    let _ = tokio::task::spawn_blocking(hookgate_mask::prepare).await;
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while let Ok(more) = rx.try_recv() {
            batch.push(more);
        }
        let count = batch.len() as u64;
        // Serialized and masked here, off the blocking pool's threads.
        let lines: Vec<Value> = batch.iter().map(line).collect();
        drop(batch);
        let (log, settings) = (log.clone(), config.clone());
        // File I/O (open, chain recovery, rotation) on the blocking pool.
        let written = tokio::task::spawn_blocking(move || log.append(&settings, lines))
            .await
            .unwrap_or_else(|err| Err(std::io::Error::other(err)));
        match written {
            Ok(appended) => {
                stats.ok.fetch_add(count, Ordering::Relaxed);
                besides(&appended, &config, &stats, &mut anchor_failing);
                if failing.recovered() {
                    tracing::info!(path = %path.display(), "audit log writable again");
                }
            }
            Err(err) => {
                if failing.failed() {
                    tracing::warn!(path = %path.display(), error = %err, "audit log write failed; records dropped until it works, reopening");
                } else {
                    tracing::debug!(path = %path.display(), error = %err, "audit log write failed again");
                }
                stats.errors.fetch_add(count, Ordering::Relaxed);
            }
        }
    }
}

/// Counts and reports what an append did besides writing: a reopen (a
/// WARN each time: each is a log moved or deleted under the gateway) and
/// the anchor's failures (a WARN when it breaks, an INFO when it works
/// again). Paths and errors only, never a record.
fn besides(appended: &Appended, config: &LogConfig, stats: &SubscriberStats, anchor: &mut Failing) {
    if appended.reopened {
        stats.audit.reopened.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(path = %config.path.display(), "audit log moved or deleted while open: reopened at its path; the chain goes on from the last line written");
    }
    let Some(anchor_path) = &config.anchor else {
        return;
    };
    match &appended.anchor_error {
        Some(err) => {
            stats.audit.anchor_errors.fetch_add(1, Ordering::Relaxed);
            if anchor.failed() {
                tracing::warn!(anchor = %anchor_path.display(), error = %err, "audit anchor not written; `gateway audit verify --anchor` will report a mismatch until it is");
            }
        }
        None => {
            if anchor.recovered() {
                tracing::info!(anchor = %anchor_path.display(), "audit anchor written again");
            }
        }
    }
}

/// A stable name for each dialect in the log.
pub fn dialect_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::ClaudeCode => "claude-code",
        Dialect::Cursor => "cursor",
        Dialect::ClineSdk => "cline-sdk",
        Dialect::ClineLegacy => "cline-legacy",
        Dialect::QwenCode => "qwen-code",
        Dialect::Droid => "droid",
        Dialect::GeminiCli => "gemini-cli",
        Dialect::Codex => "codex",
        Dialect::CopilotPascal => "copilot-pascal",
        Dialect::CopilotCamel => "copilot-camel",
        Dialect::Hermes => "hermes",
        Dialect::OpenCode => "opencode",
    }
}

/// The name audit lines and `gateway eval`/`replay` use for `permission`.
pub fn permission_name(permission: Permission) -> &'static str {
    match permission {
        Permission::Unspecified => "none",
        Permission::Allow => "allow",
        Permission::Ask => "ask",
        Permission::Deny => "deny",
    }
}

/// A merged decision as the audit line and `gateway eval --json` show it.
pub fn decision_json(d: &Decision) -> Value {
    json!({
        "permission": permission_name(d.permission),
        "reason": d.reason,
        "agent_message": d.agent_message,
        "additional_context": d.additional_context,
        "updated_input": d.updated_input,
        "halt": d.halt,
        "followup_message": d.followup_message,
    })
}

/// The rule behind the merged decision, as `subscriber/rule`: the first
/// subscriber (in config order) that answered the merged permission with a
/// rule.
fn deciding_rule(record: &AuditRecord) -> Option<String> {
    let permission = record.decision.permission;
    if permission == Permission::Unspecified {
        return None;
    }
    record
        .verdicts
        .subscribers
        .iter()
        .filter(|s| s.permission == permission)
        .find_map(|s| Some(format!("{}/{}", s.name, s.rule.as_ref()?)))
}

/// Is `record` a denied call that names files (whose payload is kept out)?
fn withheld(record: &AuditRecord) -> bool {
    record.decision.permission == Permission::Deny
        && record
            .event
            .as_ref()
            .and_then(|e| e.tool.as_ref())
            .is_some_and(|t| t.file_path.is_some() || !t.paths.is_empty())
}

/// The JSON line for `record`, every string masked.
pub fn line(record: &AuditRecord) -> Value {
    let ts_ms = record
        .at
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let mut out = json!({
        "v": SCHEMA,
        "ts_ms": ts_ms,
        "id": record.id,
        "latency_us": u64::try_from(record.latency.as_micros()).unwrap_or(u64::MAX),
        "delivery": record.delivery.as_str(),
        "fail_mode": record.fail_mode.as_str(),
    });
    if let Some(left) = record.deadline_left {
        out["deadline_left_ms"] = json!(u64::try_from(left.as_millis()).unwrap_or(u64::MAX));
    }
    if let Some(error) = &record.error {
        out["error"] = json!(error);
        out["payload_bytes"] = json!(record.payload.len());
    }
    if let Some(event) = &record.event {
        out["agent"] = json!(event.dialect.agent().as_str());
        out["dialect"] = json!(dialect_name(event.dialect));
        out["event"] = json!(event.native_event);
        out["kind"] = json!(event.kind.as_str());
        out["session_id"] = json!(event.session_id);
        if event
            .session_id
            .as_deref()
            .is_some_and(hookgate_adapters::is_probe_session)
        {
            out["probe"] = json!(true);
        }
        out["cwd"] = json!(event.cwd);
        if let Some(tool) = &event.tool {
            out["tool"] = json!({ "name": tool.name, "class": tool.class.as_str() });
            if let Some(command) = &tool.command {
                out["tool"]["command"] = json!(command);
            }
            if !tool.paths.is_empty() {
                out["tool"]["paths"] = json!(tool.paths);
            }
        }
        out["payload"] = if withheld(record) {
            // A denied file call's payload may hold the very contents the
            // deny kept from the agent (Cursor's beforeReadFile sends them;
            // a Write sends what it would write): not stored at all.
            out["payload_bytes"] = json!(record.payload.len());
            json!({ "withheld": "the call was denied and names files; its payload is not stored" })
        } else {
            serde_json::from_slice(&record.payload).unwrap_or_else(|_| {
                Value::String(String::from_utf8_lossy(&record.payload).into_owned())
            })
        };
    }
    if !record.verdicts.subscribers.is_empty() {
        out["subscribers"] = record
            .verdicts
            .subscribers
            .iter()
            .map(|s| {
                let mut entry = json!({
                    "name": s.name,
                    "permission": permission_name(s.permission),
                    "latency_us": u64::try_from(s.latency.as_micros()).unwrap_or(u64::MAX),
                });
                if let Some(revision) = &s.revision {
                    entry["revision"] = json!(revision.as_str());
                }
                if let Some(failed) = s.failed {
                    entry["failed"] = json!(failed);
                }
                if let Some(rule) = &s.rule {
                    entry["rule"] = json!(rule);
                }
                if let Some(held) = &s.held {
                    entry["approval"] = json!({
                        "outcome": held.outcome,
                        "approver": held.approver,
                        "channel": held.channel,
                        "scope": held.scope,
                        "wait_ms": u64::try_from(held.wait.as_millis()).unwrap_or(u64::MAX),
                    });
                }
                entry
            })
            .collect();
    }
    let capped = record.verdicts.followup_capped.then_some("followup_capped");
    let losses: Vec<&str> = (record.verdicts.losses.iter().map(|l| l.as_str()))
        .chain(capped)
        .collect();
    if !losses.is_empty() {
        out["losses"] = json!(losses);
    }
    let d = &record.decision;
    out["decision"] = decision_json(d);
    if let Some(rule) = deciding_rule(record) {
        out["decision"]["rule"] = json!(rule);
    }
    mask_json(&mut out);
    out
}

#[cfg(test)]
mod tests;
