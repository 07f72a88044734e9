//! The decision log through the real binaries: the audit log rotates at
//! its size limit, `gateway audit` filters it, and `gateway audit verify`
//! passes on the intact log and fails once a line is edited.

use std::path::Path;

use hookgate_integration_tests::{TestGateway, run_gateway};
use serde_json::Value;

use crate::support::{Dialect, EVENTUALLY, UnderTest};

const CALLS: usize = 30;
const MAX_KIB: u64 = 4;

fn config(audit: &Path) -> String {
    format!(
        "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\
         [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"no rm here\"\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {}\n\
         max_size_kib = {MAX_KIB}\nkeep = 50\n",
        Value::String(audit.display().to_string())
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_audit_log_rotates_filters_and_verifies() {
    let dir = hookgate_integration_tests::private_dir();
    let audit = dir.path().join("audit.jsonl");
    let gateway = TestGateway::start(&config(&audit)).await;
    for i in 0..CALLS {
        let command = if i % 3 == 0 {
            "rm notes.txt"
        } else {
            "echo hi"
        };
        let payload = Dialect::ClaudeCode.shell_payload(command);
        gateway.shim(Some("claude-code")).run(payload).await;
    }
    // Written off the hook path: wait until every record is.
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let doc = gateway.status_json().await;
        let ok = doc["subscribers"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["name"] == "audit"))
            .map(|s| s["ok"].clone());
        if ok == Some(Value::from(CALLS)) {
            break;
        }
        assert!(tokio::time::Instant::now() < until, "audit ok: {ok:?}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    // Rotated at the limit: every file at most MAX_KIB, several of them.
    let rotated: Vec<_> = (1..)
        .map(|n| dir.path().join(format!("audit.jsonl.{n}")))
        .take_while(|p| p.exists())
        .collect();
    assert!(rotated.len() >= 2, "rotated {} times", rotated.len());
    for file in rotated.iter().chain([&audit]) {
        let size = std::fs::metadata(file).expect("audit file").len();
        assert!(size <= MAX_KIB * 1024, "{}: {size} bytes", file.display());
    }

    let path = audit.display().to_string();
    let (code, stdout, stderr) = run_gateway(&["audit", "verify", "--path", &path]).await;
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("intact, {CALLS} lines")),
        "{stdout}"
    );

    // Filtered, across the rotated files: the ten denies, newest last.
    let (code, stdout, stderr) = run_gateway(&[
        "audit",
        "--path",
        &path,
        "--decision",
        "deny",
        "--agent",
        "claude-code",
        "--since",
        "1h",
        "--json",
        "-n",
        "100",
    ])
    .await;
    assert_eq!(code, Some(0), "{stderr}");
    let denies: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(denies.len(), CALLS / 3, "{stdout}");
    for deny in &denies {
        assert_eq!(deny["v"], 1);
        let reason = deny["decision"]["reason"].as_str().unwrap_or_default();
        assert!(reason.contains("no rm here"), "{deny}");
        assert_eq!(deny["kind"], "pre_tool_use", "{deny}");
        assert_eq!(deny["tool"]["class"], "shell", "{deny}");
        // Self-protection is asked first, always; then the config's.
        assert_eq!(deny["subscribers"][0]["name"], "self-protection", "{deny}");
        assert_eq!(deny["subscribers"][0]["permission"], "none", "{deny}");
        assert_eq!(deny["subscribers"][1]["name"], "guard", "{deny}");
        assert_eq!(deny["subscribers"][1]["permission"], "deny", "{deny}");
        assert!(deny["subscribers"][1]["latency_us"].is_u64(), "{deny}");
    }
    let (_, table, _) = run_gateway(&["audit", "--path", &path, "-n", "3"]).await;
    assert_eq!(table.lines().count(), 3, "{table}");
    assert!(table.contains("claude-code"), "{table}");

    // One line edited in an older file: verify fails and says where.
    let older = &rotated[rotated.len() - 1];
    let text = std::fs::read_to_string(older).expect("read");
    let edited = text.replacen("\"echo hi\"", "\"echo ho\"", 1);
    assert_ne!(edited, text, "an echo to edit in {}", older.display());
    std::fs::write(older, edited).expect("edit");
    let (code, stdout, stderr) = run_gateway(&["audit", "verify", "--path", &path]).await;
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("NOT intact") && stderr.contains("chain breaks"),
        "{stderr}"
    );
}
