//! Tests of the audit subscriber: a record's line (masked, a denied file
//! call's contents kept out), the writer's private file, its failure
//! reports and a full queue's drops.

use super::*;
use crate::testing::{event, shell_tool};
use hookgate_adapters::EventKind;

fn log(path: &std::path::Path) -> LogConfig {
    LogConfig {
        path: path.to_path_buf(),
        max_bytes: 1 << 20,
        keep: 2,
        anchor: None,
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
                held: None,
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
    let payload =
        r#"{"hook_event_name":"PreToolUse","tool_input":{"command":"API_KEY=abc123 ./deploy"}}"#;
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

#[tokio::test]
async fn an_anchor_that_cannot_be_written_is_counted_and_loses_no_record() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("file");
    std::fs::write(&not_a_dir, "").unwrap();
    let mut config = log(&dir.path().join("a.jsonl"));
    config.anchor = Some(not_a_dir.join("anchor.json"));
    let tracker = TaskTracker::new();
    let stats = Arc::new(SubscriberStats::default());
    assert!(stats.audit.snapshot().is_none(), "not a decision log yet");
    let audit = Audit::spawn(config, 8, stats.clone(), &tracker);
    audit.record(record("{}", Decision::default()));
    drop(audit);
    tracker.close();
    tracker.wait().await;
    assert_eq!(
        stats.ok.load(Ordering::Relaxed),
        1,
        "the record was written"
    );
    let counted = stats.audit.snapshot().expect("a decision log's counters");
    assert_eq!((counted.anchor_errors, counted.reopened), (1, 0));
}
