//! Secret masking through the real shim and gateway: every shape of the
//! mask corpus, sent in a Claude Code call (a command line, or a JSON tool
//! input whose keys and values carry it), reaches neither the audit log
//! file nor the OTLP payload attribute (`[otel] payloads = true`), while
//! both record every call, masked.

use std::path::Path;

use hookgate_integration_tests::collector::{Collector, attributes};
use hookgate_integration_tests::{TestGateway, payloads};
use serde_json::Value;

use crate::support::EVENTUALLY;

const SECRETS: &str = include_str!("../../../mask/src/corpus/secrets.tsv");

/// `(family, secret, text)` rows of the corpus (`\n` in a field is a
/// newline).
fn corpus() -> Vec<(String, String, String)> {
    SECRETS
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let fields: Vec<String> = l.split('\t').map(|f| f.replace("\\n", "\n")).collect();
            match fields.as_slice() {
                [family, secret, text] => (family.clone(), secret.clone(), text.clone()),
                _ => panic!("malformed corpus row: {l:?}"),
            }
        })
        .collect()
}

/// A corpus row as a hook payload: JSON documents as an MCP tool's input
/// (so a secret may be a key), anything else as a shell command.
fn payload(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(doc) if doc.is_object() => payloads::claude_tool("mcp__vault__put", doc),
        _ => payloads::claude_bash(text),
    }
}

fn config(audit: &Path, collector: &str) -> String {
    format!(
        "[otel]\nendpoint = \"{collector}\"\nservice_name = \"hookgate-test\"\npayloads = true\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n",
        Value::String(audit.display().to_string())
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn audit_log_and_otlp_payloads_hold_no_secret_of_the_corpus() {
    let rows = corpus();
    assert!(rows.len() >= 100, "{} shapes", rows.len());
    let collector = Collector::start().await;
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start(&config(&audit, &collector.endpoint())).await;
    for (family, _, text) in &rows {
        let out = gateway.shim(Some("claude-code")).run(payload(text)).await;
        assert_eq!(out.code, Some(0), "{family}: {out}");
    }

    let payload_attributes = |c: &Collector| -> Vec<String> {
        c.spans()
            .iter()
            .filter_map(|s| attributes(s).remove("hookgate.payload"))
            .collect()
    };
    assert!(
        collector
            .wait_until(EVENTUALLY, |c| payload_attributes(c).len() >= rows.len())
            .await,
        "{} of {} payload attributes\nstderr:\n{}",
        payload_attributes(&collector).len(),
        rows.len(),
        gateway.stderr()
    );
    let until = tokio::time::Instant::now() + EVENTUALLY;
    let log = loop {
        let text = std::fs::read_to_string(&audit).unwrap_or_default();
        if text.lines().count() >= rows.len() {
            break text;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "audit lines: {}",
            text.lines().count()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };

    let exported = payload_attributes(&collector).join("\n");
    let leaks: Vec<String> = rows
        .iter()
        .flat_map(|(family, secret, _)| {
            [("audit log", &log), ("OTLP payload", &exported)]
                .into_iter()
                .filter(|(_, text)| text.contains(secret.as_str()))
                .map(move |(place, _)| format!("{family} in the {place}"))
        })
        .collect();
    assert!(leaks.is_empty(), "{} leaks: {leaks:#?}", leaks.len());
    // Both kept every call, masked (not dropped): each one's payload is
    // there, with the mask where its secret was.
    let lines: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).expect("every audit line is JSON"))
        .collect();
    assert_eq!(lines.len(), rows.len());
    for line in &lines {
        assert_eq!(line["payload"]["hook_event_name"], "PreToolUse", "{line}");
        assert!(line["payload"].to_string().contains("[REDACTED]"), "{line}");
    }
    for attribute in payload_attributes(&collector) {
        assert!(attribute.contains("[REDACTED]"), "{attribute}");
    }
}
