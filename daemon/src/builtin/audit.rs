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

use super::auditlog::SharedLog;
use super::{Builtin, Role};
use crate::budget::Payload;
use crate::delivery::Delivery;
use crate::metrics::SubscriberStats;

/// Version of a line's schema (README "The audit log"): fields are only
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

/// Where and how the log is written.
#[derive(Debug, Clone)]
pub struct LogConfig {
    pub path: std::path::PathBuf,
    /// Rotate before the file would pass this size.
    pub max_bytes: u64,
    /// Rotated files kept.
    pub keep: usize,
}

async fn writer(
    config: LogConfig,
    mut rx: mpsc::Receiver<AuditRecord>,
    stats: Arc<SubscriberStats>,
) {
    let path = config.path.clone();
    let log = SharedLog::for_path(&path);
    let mut failing = Failing::default();
    // Masking's patterns, compiled before the first record arrives rather
    // than when it does.
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
        let (log, config) = (log.clone(), config.clone());
        // File I/O (open, chain recovery, rotation) on the blocking pool.
        let written = tokio::task::spawn_blocking(move || {
            log.append(&config.path, config.max_bytes, config.keep, lines)
        })
        .await
        .unwrap_or_else(|err| Err(std::io::Error::other(err)));
        match written {
            Ok(()) => {
                stats.ok.fetch_add(count, Ordering::Relaxed);
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
        if event.session_id.as_deref() == Some(hookgate_adapters::PROBE_SESSION) {
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
mod tests {
    use super::*;
    use crate::testing::{event, shell_tool};
    use hookgate_adapters::EventKind;

    fn log(path: &std::path::Path) -> LogConfig {
        LogConfig {
            path: path.to_path_buf(),
            max_bytes: 1 << 20,
            keep: 2,
        }
    }

    fn record(payload: &str, decision: Decision) -> AuditRecord {
        let mut e = event(Dialect::ClaudeCode, EventKind::PreToolUse);
        e.tool = Some(shell_tool("Bash", "API_KEY=abc123 ./deploy"));
        AuditRecord {
            id: "01HX".into(),
            at: UNIX_EPOCH + Duration::from_millis(1_700_000_000_123),
            event: Some(Arc::new(e)),
            payload: Arc::new(Payload::from(payload.as_bytes().to_vec())),
            decision,
            verdicts: Verdicts {
                subscribers: vec![SubscriberOutcome {
                    name: "guard".into(),
                    permission: Permission::Deny,
                    latency: Duration::from_micros(7),
                    revision: None,
                    failed: None,
                    rule: Some("env-read".into()),
                }],
                losses: vec![Loss::Context],
                followup_capped: false,
            },
            error: None,
            latency: Duration::from_micros(42),
            delivery: Delivery::Delivered,
            fail_mode: FailMode::Open,
            deadline_left: Some(Duration::from_millis(4990)),
        }
    }

    #[test]
    fn lines_carry_event_and_decision_masked() {
        let payload = r#"{"hook_event_name":"PreToolUse","tool_input":{"command":"API_KEY=abc123 ./deploy"}}"#;
        let decision = Decision {
            permission: Permission::Deny,
            reason: Some("nope".into()),
            ..Decision::default()
        };
        let v = line(&record(payload, decision));
        assert_eq!(v["ts_ms"], 1_700_000_000_123u64);
        assert_eq!(v["agent"], "claude-code");
        assert_eq!(v["kind"], "pre_tool_use");
        assert_eq!(v["tool"]["class"], "shell");
        assert_eq!(
            v["subscribers"],
            json!([{"name": "guard", "permission": "deny", "latency_us": 7, "rule": "env-read"}])
        );
        assert_eq!(v["decision"]["rule"], "guard/env-read");
        assert_eq!(v["losses"], json!(["context"]));
        assert_eq!(
            v["payload"]["tool_input"]["command"],
            "API_KEY=[REDACTED] ./deploy"
        );
        assert_eq!(v["decision"]["permission"], "deny");
        assert_eq!(v["decision"]["reason"], "nope");
        assert_eq!(v["delivery"], "delivered");
        assert_eq!(v["fail_mode"], "open");
        assert_eq!(v["deadline_left_ms"], 4990);
        assert!(!v.to_string().contains("abc123"));
    }

    #[test]
    fn a_denied_file_call_keeps_its_contents_out() {
        let payload = r#"{"hook_event_name":"beforeReadFile","file_path":".env","content":"PLAIN=visible-secret"}"#;
        let mut record = record(payload, Decision::default());
        let mut read = hookgate_adapters::Tool::new(
            "Read",
            hookgate_adapters::ToolClass::FileRead,
            json!({"file_path": ".env", "content": "PLAIN=visible-secret"}),
        );
        read.file_path = Some(".env".into());
        let mut e = (*record.event.clone().unwrap()).clone();
        e.tool = Some(read);
        record.event = Some(Arc::new(e));
        let allowed = line(&record).to_string();
        assert!(
            allowed.contains("visible-secret"),
            "allowed: stored (masked as usual)"
        );
        record.decision.permission = Permission::Deny;
        let denied = line(&record);
        assert!(!denied.to_string().contains("visible-secret"), "{denied}");
        assert_eq!(denied["tool"]["paths"], json!([".env"]));
        assert_eq!(denied["payload_bytes"], payload.len());
    }

    #[tokio::test]
    async fn writer_appends_lines_to_a_private_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state").join("audit.jsonl");
        let tracker = TaskTracker::new();
        let stats = Arc::new(SubscriberStats::default());
        let audit = Audit::spawn(log(&path), 8, stats.clone(), &tracker);
        audit.record(record("{}", Decision::default()));
        audit.record(record("not json", Decision::default()));
        drop(audit);
        tracker.close();
        tracker.wait().await;

        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1]["payload"], "not json");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
            let dir_mode = std::fs::metadata(path.parent().unwrap())
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(dir_mode & 0o777, 0o700);
        }
        assert_eq!(stats.ok.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn failures_are_reported_on_transitions_only() {
        let mut failing = Failing::default();
        assert!(!failing.recovered(), "working to working: quiet");
        assert!(failing.failed(), "working to failing: warn");
        assert!(!failing.failed(), "still failing: quiet");
        assert!(failing.recovered(), "failing to working: info");
        assert!(!failing.recovered());
    }

    #[tokio::test]
    async fn a_full_queue_counts_drops() {
        let dir = tempfile::tempdir().unwrap();
        let stats = Arc::new(SubscriberStats::default());
        // A current-thread runtime: the writer cannot run until we await.
        let tracker = TaskTracker::new();
        let audit = Audit::spawn(log(&dir.path().join("a.jsonl")), 1, stats.clone(), &tracker);
        for _ in 0..3 {
            audit.record(record("{}", Decision::default()));
        }
        assert_eq!(stats.drops.load(Ordering::Relaxed), 2);
        drop(audit);
        tracker.close();
        tracker.wait().await;
        assert_eq!(stats.ok.load(Ordering::Relaxed), 1);
    }
}
