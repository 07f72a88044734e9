//! The guard's bounds through the real shim and gateway (issue #24,
//! findings 2 and 5): a line built to make the old walk cubic is denied as
//! too complex to check within the guard's budget, with its reason, its
//! time in the decision log and the denial counted in `gateway status`; a
//! comment padding a line past 128 KiB no longer switches the guard to a
//! weaker reading; names and paths compare without case when the config
//! says so (the default on macOS and Windows). Lines past the first,
//! inline attempt's small budget go to the blocking pool and are still
//! denied, while ordinary calls sent meanwhile pass (issue #33).

use std::time::Duration;

use hookgate_integration_tests::{TestGateway, default_config, payloads, private_dir};
use serde_json::{Value, json};

use crate::guard_corpus::blocked;
use crate::support::{Dialect, EVENTUALLY};

/// Many variables, each holding the one before twice, then subshells
/// nested inside each other, each with an `eval` of all of them: under
/// 2.5 KB, and work the old walk took minutes over.
fn cubic_line() -> String {
    let mut line = String::from("v0=xxxxxxxx; ");
    for i in 1..40 {
        line.push_str(&format!("v{i}=\"$v{}$v{}\"; ", i - 1, i - 1));
    }
    let all: String = (0..40).map(|i| format!("$v{i} ")).collect();
    for _ in 0..8 {
        line.push_str(&format!("( eval \"ls {all}\"; "));
    }
    line.push_str(&")".repeat(8));
    line
}

/// A Claude Code `Bash` call of `command` in session `session`.
fn bash(command: &str, session: &str) -> String {
    let mut value: Value =
        serde_json::from_str(&payloads::claude_bash(command)).expect("a JSON payload");
    value["session_id"] = json!(session);
    value.to_string()
}

/// The decision log's line for `session`, once written.
async fn logged(gateway: &TestGateway, session: &str) -> Value {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let text = std::fs::read_to_string(gateway.audit_log()).unwrap_or_default();
        let line = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|l| l["session_id"] == session);
        if let Some(line) = line {
            return line;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "no decision log line for {session}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cubic_line_is_denied_as_too_complex_and_counted() {
    let gateway = TestGateway::start_embedded().await;
    let line = cubic_line();
    assert!(line.len() < 2500, "{}", line.len());
    let out = gateway
        .shim(Some("claude-code"))
        .run(&bash(&line, "bounds-cubic"))
        .await;
    let reason = blocked(Dialect::ClaudeCode, &out).expect("the line is denied");
    assert!(
        reason.contains("too complex to check") && reason.contains("cannot check"),
        "{reason}"
    );
    let logged = logged(&gateway, "bounds-cubic").await;
    let guard = logged["subscribers"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["name"] == "guard"))
        .unwrap_or_else(|| panic!("no guard in {logged}"));
    assert_eq!(guard["permission"], "deny", "{logged}");
    assert!(guard["latency_us"].as_u64().is_some(), "{logged}");
    let status = gateway.status_json().await;
    let counters = status["subscribers"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["name"] == "guard"))
        .unwrap_or_else(|| panic!("no guard in {status}"))
        .clone();
    assert_eq!(counters["fail_closed"], 1, "{counters}");
    // The guard stops at its work budget, or, on a machine so loaded that
    // its thread is not run in time, at its deadline: then the call is
    // denied as unchecked and counted as a timeout. Never allowed.
    let by_budget = counters["errors_by_kind"]["too_complex"] == 1 && counters["deny"] == 1;
    let unchecked = counters["rules"].as_array().is_some_and(|rules| {
        rules
            .iter()
            .any(|r| r["id"] == "(unchecked)" && r["hits"] == 1)
    });
    let by_deadline = counters["timeouts"] == 1 && unchecked;
    assert!(by_budget ^ by_deadline, "{counters}");
}

/// The `subscribers[]` entry of `name` in a status document.
fn subscriber(status: &Value, name: &str) -> Value {
    status["subscribers"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["name"] == name))
        .unwrap_or_else(|| panic!("no {name} in {status}"))
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hard_lines_go_to_the_pool_and_ordinary_calls_still_pass() {
    // More hard lines than the pool has slots (one per core, at least 2),
    // each checked there by the guard and by self-protection.
    const HARD: usize = 6;
    const ORDINARY: usize = 5;
    let gateway = TestGateway::start_embedded().await;
    let mut hard = tokio::task::JoinSet::new();
    for i in 0..HARD {
        let shim = gateway.shim(Some("claude-code"));
        let payload = bash(&cubic_line(), &format!("bounds-hard-{i}"));
        hard.spawn(async move { shim.run(payload).await });
    }
    // The first hard line is on the pool before the ordinary calls start.
    let until = tokio::time::Instant::now() + EVENTUALLY;
    while subscriber(&gateway.status_json().await, "guard")["pooled"] == 0 {
        assert!(tokio::time::Instant::now() < until, "no check was pooled");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for i in 0..ORDINARY {
        let line = format!("cargo test -p crate-{i} -- --nocapture");
        let out = gateway
            .shim(Some("claude-code"))
            .run(&bash(&line, &format!("bounds-ordinary-{i}")))
            .await;
        assert_eq!(blocked(Dialect::ClaudeCode, &out), None, "{line}: {out}");
    }
    while let Some(out) = hard.join_next().await {
        let out = out.expect("hard call task");
        let reason = blocked(Dialect::ClaudeCode, &out).expect("a hard line is denied");
        assert!(reason.contains("cannot check"), "{reason}");
    }
    // Every hard line went to the pool, past the first attempt's work
    // units. Whether an ordinary call did depends on the attempt's 50 µs
    // on this machine now (a debug build, both cores busy with the hard
    // lines), so it is not asserted: it passed either way.
    for name in ["guard", "self-protection"] {
        let stats = subscriber(&gateway.status_json().await, name);
        let pooled = stats["pooled"].as_u64().unwrap_or_default();
        assert!(pooled >= HARD as u64, "{stats}");
        assert_eq!(stats["calls"], HARD + ORDINARY, "{stats}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_padded_comment_does_not_weaken_the_check() {
    let gateway = TestGateway::start_embedded().await;
    let pad = "x".repeat(140_000);
    for line in [
        format!("rm -rf ~ #{pad}"),
        format!(": '{pad}'; rm -rf /"),
        format!("cd / && rm -rf * # {pad}"),
        format!("x=/\n# {pad}\nrm -rf \"$x\""),
    ] {
        let out = gateway
            .shim(Some("claude-code"))
            .run(&payloads::claude_bash(&line))
            .await;
        let reason = blocked(Dialect::ClaudeCode, &out)
            .unwrap_or_else(|| panic!("{:.40}... went ahead", line));
        assert!(reason.contains("recursive delete"), "{reason}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn case_is_folded_when_the_config_says_so() {
    let dir = private_dir();
    let folded = default_config(&dir.path().join("audit.jsonl")).replacen(
        "builtin = \"guard\"\n",
        "builtin = \"guard\"\ncase_insensitive = true\n",
        1,
    );
    let gateway = TestGateway::start_in(dir, &folded, &[]).await;
    let unfolded = TestGateway::start_embedded().await;
    for line in ["CAT .ENV", "RM -rf /USR", "Rm -Rf /Etc"] {
        let payload = payloads::claude_bash(line);
        let out = gateway.shim(Some("claude-code")).run(&payload).await;
        assert!(
            blocked(Dialect::ClaudeCode, &out).is_some(),
            "{line} went ahead: {out}"
        );
        // Case-sensitive file systems: `RM` is not `rm` (the secrets rules
        // ignore case everywhere, so only the commands are compared).
        if line.starts_with("RM") || line.starts_with("Rm") {
            let out = unfolded.shim(Some("claude-code")).run(&payload).await;
            assert_eq!(blocked(Dialect::ClaudeCode, &out), None, "{line}: {out}");
        }
    }
}
