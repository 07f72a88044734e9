//! What a user sees of their agents' activity without restarting
//! anything, through the real binaries: Prometheus from the config's
//! `[server] metrics_addr`, the guard rule that decided in the decision log
//! and in per-rule counters, `gateway doctor`'s probes counted apart from
//! traffic, and counts that survive a restart.

use hookgate_integration_tests::{TestGateway, payloads, private_dir};
use serde_json::Value;

use crate::status::{sample, scrape};
use crate::support::{EVENTUALLY, assert_claude_deny};

/// A guard with an id'd rule and one without (its id derived), and the
/// audit log in the gateway's directory; metrics on a free loopback port
/// from the config.
fn config(audit: &std::path::Path) -> String {
    format!(
        "[server]\nmetrics_addr = \"127.0.0.1:0\"\n\n\
         [[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\n\
         [[subscriber.rules]]\nid = \"no-terraform\"\ncommand = [\"terraform\"]\nreason = \"OBS: no terraform\"\n\n\
         [[subscriber.rules]]\ncommand = [\"shred\"]\nreason = \"OBS: no shred\"\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n",
        Value::String(audit.display().to_string())
    )
}

fn rules(doc: &Value) -> Vec<(String, String, u64)> {
    doc["subscribers"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| {
            let name = s["name"].as_str().unwrap_or_default().to_owned();
            s["rules"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(move |r| {
                    (
                        format!("{name}/{}", r["id"].as_str().unwrap_or_default()),
                        r["action"].as_str().unwrap_or_default().to_owned(),
                        r["hits"].as_u64().unwrap_or_default(),
                    )
                })
        })
        .collect()
}

/// The audit log's lines once it has `n`.
async fn audit_lines(path: &std::path::Path, n: usize) -> Vec<Value> {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let lines: Vec<Value> = std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if lines.len() >= n {
            return lines;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "{} of {n} audit lines",
            lines.len()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rule_that_decided_is_logged_counted_and_exported() {
    let dir = private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start_in(dir, &config(&audit), &[]).await;
    let shim = || gateway.shim(Some("claude-code"));
    for command in [
        "terraform destroy",
        "terraform apply",
        "shred key.pem",
        "ls",
    ] {
        shim().run(payloads::claude_bash(command)).await;
    }
    let out = shim().run(payloads::claude_bash("shred x")).await;
    assert_claude_deny(&out, "PreToolUse", "OBS: no shred");

    let lines = audit_lines(&audit, 5).await;
    let decided: Vec<(&str, Option<&str>, Option<&str>)> = lines
        .iter()
        .map(|l| {
            (
                l["tool"]["command"].as_str().unwrap_or_default(),
                l["decision"]["rule"].as_str(),
                l["subscribers"]
                    .as_array()
                    .and_then(|subs| subs.iter().find(|s| s["name"] == "guard"))
                    .and_then(|guard| guard["rule"].as_str()),
            )
        })
        .collect();
    let shred = decided[2].1.expect("a rule decided the shred call");
    assert!(shred.starts_with("guard/auto-"), "{shred}");
    assert_eq!(
        decided,
        [
            (
                "terraform destroy",
                Some("guard/no-terraform"),
                Some("no-terraform")
            ),
            (
                "terraform apply",
                Some("guard/no-terraform"),
                Some("no-terraform")
            ),
            ("shred key.pem", Some(shred), shred.strip_prefix("guard/")),
            ("ls", None, None),
            ("shred x", Some(shred), shred.strip_prefix("guard/")),
        ]
    );

    let doc = gateway.status_json().await;
    assert_eq!(
        rules(&doc),
        [
            (shred.to_owned(), "deny".to_owned(), 2),
            ("guard/no-terraform".to_owned(), "deny".to_owned(), 2),
        ]
    );
    let addr = doc["metrics_addr"]
        .as_str()
        .expect("metrics served from the config");
    let text = scrape(addr).await;
    let series = "hookgate_guard_rule_hits_total{subscriber=\"guard\",rule=\"no-terraform\",action=\"deny\"}";
    assert_eq!(sample(&text, series), 2.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_probes_are_counted_apart_from_traffic() {
    let dir = private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start_in(dir, &config(&audit), &[]).await;
    let probe = hookgate_adapters::probe_payload(hookgate_adapters::Agent::ClaudeCode)
        .expect("Claude Code has a probe");
    for _ in 0..3 {
        let out = gateway
            .shim(Some("claude-code"))
            .run(probe.to_owned())
            .await;
        assert_eq!(out.code, Some(0), "{out}");
    }
    gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("ls"))
        .await;

    let doc = gateway.status_json().await;
    let events: u64 = doc["events"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["count"].as_u64().unwrap_or_default())
        .sum();
    assert_eq!(events, 1, "only the real call is traffic: {doc:#}");
    assert_eq!(doc["probes"]["claude-code"], 3, "{doc:#}");
    let lines = audit_lines(&audit, 4).await;
    let probes = lines.iter().filter(|l| l["probe"] == true).count();
    assert_eq!(probes, 3);
    let socket = gateway.socket().display().to_string();
    let (code, table, _) =
        hookgate_integration_tests::run_gateway(&["status", "--socket", &socket]).await;
    assert_eq!(code, Some(0));
    assert!(
        table.contains("probes            3 (not counted above: claude-code 3)"),
        "{table}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_survive_a_restart() {
    let dir = private_dir();
    let audit = dir.path().join("audit.jsonl");
    let config = config(&audit);
    let gateway = TestGateway::start_in(dir, &config, &[]).await;
    for command in ["terraform destroy", "ls", "ls"] {
        gateway
            .shim(Some("claude-code"))
            .run(payloads::claude_bash(command))
            .await;
    }
    let before = gateway.status_json().await;
    assert_eq!(before["counts"]["starts"], 1, "{before:#}");
    let dir = gateway.stop_keeping_dir().await;
    assert!(
        dir.path().join("counts.json").is_file(),
        "saved at shutdown"
    );

    let gateway = TestGateway::start_in(dir, &config, &[]).await;
    gateway
        .shim(Some("claude-code"))
        .run(payloads::claude_bash("terraform plan"))
        .await;
    let after = gateway.status_json().await;
    assert_eq!(after["counts"]["starts"], 2, "{after:#}");
    assert_eq!(after["counts"]["since_ms"], before["counts"]["since_ms"]);
    let event = &after["events"][0];
    assert_eq!(
        (event["agent"].as_str(), event["count"].as_u64()),
        (Some("claude-code"), Some(4))
    );
    assert_eq!(event["outcomes"]["deny"], 2, "{after:#}");
    assert_eq!(
        rules(&after)[0],
        ("guard/no-terraform".to_owned(), "deny".to_owned(), 2)
    );
    let guard = after["subscribers"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["name"] == "guard"))
        .expect("the guard's counters");
    assert_eq!(guard["calls"], 4, "{guard:#}");
}
