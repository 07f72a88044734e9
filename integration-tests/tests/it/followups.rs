//! The follow-up cap through the real binaries (issue #25, item 1): a
//! subscriber that answers every stop with a follow-up gets it rendered
//! `[server] max_followups` times in a row per session; the next one is
//! left out (the agent's neutral reply: it stops), counted as the loss
//! `followup_capped` in `gateway status` and logged as such.

use std::path::Path;

use hookgate_integration_tests::{SubscriberEntry, TestGateway, TestSubscriber, config_toml};
use hookgate_proto::v1 as pb;
use serde_json::Value;

use crate::support::EVENTUALLY;

/// Codex's captured Stop payload in session `session`.
fn codex_stop(session: &str) -> String {
    let mut stop: Value = serde_json::from_str(&hookgate_integration_tests::payloads::fixture(
        "codex",
        "Stop.json",
    ))
    .expect("JSON");
    stop["session_id"] = Value::from(session);
    stop.to_string()
}

fn config(policy: &str, audit: &Path) -> String {
    format!(
        "[server]\nmax_followups = 2\n\n{}\n[[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n",
        config_toml(&[SubscriberEntry::decide("policy", policy)]),
        Value::String(audit.display().to_string())
    )
}

/// Whether Codex's reply to a Stop continues the loop.
fn continues(out: &hookgate_integration_tests::ShimOutput) -> bool {
    assert_eq!(out.code, Some(0), "{out}");
    out.stdout_str().contains("\"block\"")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn follow_ups_in_a_row_are_capped_per_session_and_counted() {
    let policy = TestSubscriber::fixed(pb::Decision {
        followup_message: "Run the tests again.".into(),
        ..pb::Decision::default()
    })
    .await;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start(&config(&policy.endpoint(), &audit)).await;
    let stop = |session: &str| {
        let shim = gateway.shim(Some("codex"));
        let payload = codex_stop(session);
        async move { shim.run(payload).await }
    };

    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(continues(&stop("s1").await));
    }
    // Another session has a count of its own.
    seen.push(continues(&stop("s2").await));
    // After the capped stop, a new run of follow-ups starts.
    seen.push(continues(&stop("s1").await));
    assert_eq!(seen, [true, true, false, true, true]);

    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let doc = gateway.status_json().await;
        let capped = doc["merge"]
            .as_array()
            .and_then(|m| m.iter().find(|m| m["agent"] == "codex"))
            .map(|m| m["losses"]["followup_capped"].clone());
        let logged = std::fs::read_to_string(&audit)
            .unwrap_or_default()
            .lines()
            .count();
        if capped == Some(Value::from(1)) && logged == 5 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "followup_capped {capped:?}, {logged} lines logged"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let lines: Vec<Value> = std::fs::read_to_string(&audit)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let capped: Vec<bool> = lines
        .iter()
        .map(|l| {
            l["losses"]
                .as_array()
                .is_some_and(|ls| ls.contains(&Value::from("followup_capped")))
        })
        .collect();
    assert_eq!(capped, [false, false, true, false, false]);
    assert_eq!(
        lines[2]["decision"]["followup_message"],
        Value::Null,
        "the log says what the agent got: no follow-up"
    );
}
