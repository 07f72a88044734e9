//! What the decision log says about each call, through the real binaries
//! (issue #25, items 3 and 6): `gateway audit` never prints the
//! model's text raw to the terminal.

use std::path::Path;

use hookgate_integration_tests::{TestGateway, payloads, run_gateway};
use serde_json::{Value, json};

use crate::support::EVENTUALLY;

/// A guard that denies `rm` and the audit log at `audit`.
fn config(audit: &Path) -> String {
    format!(
        "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\
         [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"no rm here\"\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n",
        Value::String(audit.display().to_string())
    )
}

/// The record's entry for the decide subscriber `name` (the built-in
/// self-protection comes first), or `null`.
pub(crate) fn subscriber<'a>(line: &'a Value, name: &str) -> &'a Value {
    line["subscribers"]
        .as_array()
        .and_then(|all| all.iter().find(|s| s["name"] == name))
        .unwrap_or(&Value::Null)
}

/// Waits until the audit log has `n` lines, and returns them.
pub(crate) async fn logged(audit: &Path, n: usize) -> Vec<Value> {
    logged_within(audit, n, EVENTUALLY).await
}

/// [`logged`], waiting at most `limit` (a large payload takes the writer
/// a while to mask on a loaded machine).
pub(crate) async fn logged_within(
    audit: &Path,
    n: usize,
    limit: std::time::Duration,
) -> Vec<Value> {
    let until = tokio::time::Instant::now() + limit;
    loop {
        let mut text = std::fs::read_to_string(audit).unwrap_or_default();
        // Only whole lines: a record of megabytes is read while written.
        text.truncate(text.rfind('\n').map_or(0, |end| end + 1));
        if text.lines().count() >= n {
            return text
                .lines()
                .map(|l| serde_json::from_str(l).expect("a JSON line"))
                .collect();
        }
        assert!(
            tokio::time::Instant::now() < until,
            "{} of {n} lines logged",
            text.lines().count()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Bytes a terminal acts on: ESC, BEL, CSI (C1), DEL, the RTL override.
fn has_terminal_controls(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{1b}' | '\u{7}' | '\u{9b}' | '\u{7f}' | '\u{202e}'))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_audit_never_prints_terminal_escapes() {
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start(&config(&audit)).await;
    let nasty = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{7f}\u{202e}";
    let tool = format!("Bash{nasty}");
    let mut payload: Value =
        serde_json::from_str(&payloads::claude_bash(&format!("rm -rf build # {nasty}")))
            .expect("JSON");
    payload["tool_name"] = json!(tool);
    let denied = payloads::claude_bash(&format!("rm notes{nasty}"));
    for payload in [payload.to_string(), denied] {
        gateway.shim(Some("claude-code")).run(&payload).await;
    }
    let lines = logged(&audit, 2).await;
    assert_eq!(lines[0]["tool"]["name"], json!(tool), "stored as sent");

    let path = audit.display().to_string();
    let (code, table, stderr) = run_gateway(&["audit", "--path", &path]).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(table.lines().count(), 2, "{table}");
    assert!(!has_terminal_controls(&table), "{table:?}");
    assert!(table.contains("Bash\\x1b]0;pwned\\x07"), "{table}");

    let (code, json_lines, stderr) = run_gateway(&["audit", "--path", &path, "--json"]).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!has_terminal_controls(&json_lines), "{json_lines:?}");
    let shown: Vec<Value> = json_lines
        .lines()
        .map(|l| serde_json::from_str(l).expect("still JSON"))
        .collect();
    assert_eq!(shown, lines, "the same records");
}

/// A subscriber slower than the shim's deadline is cut short of it: the
/// gateway answers in time (the subscriber's `on_error`), the shim never
/// falls back, and the log says the call was cut at the shim's deadline,
/// how long the shim had, and that the reply was delivered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fan_out_is_cut_at_the_shims_deadline_and_the_log_says_so() {
    let slow = hookgate_integration_tests::TestSubscriber::hanging().await;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let config = format!(
        "{}\n[[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n",
        hookgate_integration_tests::config_toml(&[
            hookgate_integration_tests::SubscriberEntry::decide("slow", &slow.endpoint())
                .timeout_ms(30_000)
                .on_error(hookgate_integration_tests::OnError::Deny)
        ]),
        Value::String(audit.display().to_string())
    );
    let gateway = TestGateway::start(&config).await;
    let started = std::time::Instant::now();
    let out = gateway
        .shim(Some("claude-code"))
        .env("HOOKGATE_TIMEOUT_MS", "1500")
        .run(payloads::claude_bash("make deploy"))
        .await;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(25),
        "not the subscriber's 30 s"
    );
    let fell_back = crate::support::total_fallbacks(&gateway.status_json().await);
    assert_eq!(fell_back, 0, "the gateway answered in time, not the shim");
    assert!(
        out.stdout_str().contains("\"deny\"") && out.stdout_str().contains("slow"),
        "on_error = deny, said in time: {out}"
    );
    let line = &logged(&audit, 1).await[0];
    assert_eq!(line["delivery"], "delivered", "{line}");
    assert_eq!(line["decision"]["permission"], "deny", "{line}");
    let left = line["deadline_left_ms"]
        .as_u64()
        .expect("the shim's deadline");
    assert!(left > 0 && left <= 1500, "{left}");
    assert_eq!(
        subscriber(line, "slow")["failed"],
        "no answer before the shim's deadline",
        "{line}"
    );
    let doc = gateway.status_json().await;
    let slow_stats = doc["subscribers"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == "slow"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(slow_stats["deadline_cuts"], 1, "{slow_stats}");
}

/// The agent kills the shim (its own hook timeout, shorter than the
/// shim's deadline) while a subscriber deliberates: the deny never reaches
/// the agent, and the log says so; `gateway audit --decision deny` marks
/// it, `--delivered` leaves it out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_to_a_killed_shim_is_logged_as_not_delivered() {
    // What the guard denies, decided once a subscriber that takes 3 s
    // has answered too.
    let slow = hookgate_integration_tests::TestSubscriber::start(std::sync::Arc::new(|_| {
        Box::pin(async {
            tokio::time::sleep(std::time::Duration::from_secs(3)).await;
            Ok(hookgate_proto::v1::Decision::default())
        })
    }))
    .await;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let config = format!(
        "{}
{}",
        config(&audit),
        hookgate_integration_tests::config_toml(&[
            hookgate_integration_tests::SubscriberEntry::decide("slow", &slow.endpoint())
                .timeout_ms(10_000)
        ])
    );
    let gateway = TestGateway::start(&config).await;
    let killed = gateway
        .shim(Some("claude-code"))
        .wrapped(&["timeout", "-s", "KILL", "0.5"])
        .run(payloads::claude_bash("rm -rf notes"))
        .await;
    assert_eq!(killed.code, None, "killed by a signal: {killed}");
    let delivered = gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("rm -rf other"))
        .await;
    assert!(delivered.stdout_str().contains("\"deny\""), "{delivered}");
    let lines = logged(&audit, 2).await;
    let by_command = |needle: &str| {
        lines
            .iter()
            .find(|l| l["payload"].to_string().contains(needle))
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(by_command("notes")["delivery"], "gone");
    assert_eq!(by_command("other")["delivery"], "delivered");

    let path = audit.display().to_string();
    let (_, table, _) = run_gateway(&["audit", "--path", &path, "--decision", "deny"]).await;
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert_eq!(
        rows.iter().filter(|r| r.contains("NOT DELIVERED")).count(),
        1,
        "{table}"
    );
    let (_, refused, _) = run_gateway(&[
        "audit",
        "--path",
        &path,
        "--decision",
        "deny",
        "--delivered",
        "--json",
    ])
    .await;
    let refused: Vec<Value> = refused
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(refused.len(), 1, "only the call the agent refused");
    assert_eq!(refused[0]["delivery"], "delivered");
}
