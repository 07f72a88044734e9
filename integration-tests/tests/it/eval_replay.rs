//! `gateway eval` and `gateway replay` as users run them: eval prints the
//! reply a real shim call gets for the same payload; replay re-drives a
//! decision log of 1,000 events recorded by a real gateway through a
//! candidate config that adds one rule, and reports exactly the events it
//! changes.

use std::time::Duration;

use hookgate_integration_tests::{TestGateway, private_dir, run_gateway};
use serde_json::Value;

use crate::support::{Dialect, EVENTUALLY, UnderTest};

const POLICY: &str = r#"package hookgate

decision := {"permission": "deny", "reason": "no terraform destroy"} if {
    regex.match(`terraform\s+destroy`, input.tool.command)
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_prints_the_reply_a_real_shim_call_gets() {
    let dir = private_dir();
    std::fs::write(dir.path().join("p.rego"), POLICY).expect("write policy");
    let config = "[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\npolicy = [\"p.rego\"]\n";
    let config_path = dir.path().join("gateway.toml");
    let gateway = TestGateway::start_in(dir, config, &[]).await;
    // Deleting the gateway's own config: self-protection's deny, which
    // eval must show as the gateway answers it.
    let unprotect = format!("rm -f {}", config_path.display());
    for dialect in Dialect::ALL {
        for command in ["terraform destroy -auto-approve", "ls", unprotect.as_str()] {
            let payload = dialect.shell_payload(command);
            let file = gateway.dir().join("payload.json");
            std::fs::write(&file, &payload).expect("write payload");
            let mut words = dialect.arg().split_whitespace();
            let agent = words.next().expect("agent");
            let mut args = vec![
                "eval",
                "--config",
                config_path.to_str().expect("utf-8"),
                "--agent",
                agent,
                "--json",
            ];
            if let Some(event) = words.next() {
                args.extend(["--event", event]);
            }
            args.push(file.to_str().expect("utf-8"));
            let (code, stdout, stderr) = run_gateway(&args).await;
            let doc: Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|err| panic!("{dialect:?}: {err}: {stdout} {stderr}"));
            let shim = gateway.shim(Some(dialect.arg())).run(&payload).await;
            let reply = &doc["reply"];
            assert_eq!(
                reply["exit_code"].as_i64(),
                shim.code.map(i64::from),
                "{dialect:?}"
            );
            assert_eq!(
                reply["stdout"],
                String::from_utf8_lossy(&shim.stdout).as_ref(),
                "{dialect:?}"
            );
            assert_eq!(
                reply["stderr"],
                String::from_utf8_lossy(&shim.stderr).as_ref(),
                "{dialect:?}"
            );
            let denied = command != "ls";
            assert_eq!(
                code,
                Some(if denied { 2 } else { 0 }),
                "{dialect:?} {command} {stderr}"
            );
            let verdict = |name: &str| {
                let subscribers = doc["subscribers"].as_array().expect("subscribers");
                let found = subscribers.iter().find(|s| s["name"] == name);
                found.map(|s| s["permission"].clone())
            };
            let by_self_protection = command == unprotect;
            assert_eq!(
                verdict("self-protection"),
                Some(if by_self_protection { "deny" } else { "none" }.into()),
                "{dialect:?} {command}: {stdout}"
            );
            assert!(verdict("policy").is_some(), "{stdout}");
            assert_eq!(doc["event"]["tool"]["class"], "shell", "{dialect:?}");
        }
    }
    // The question a user has, without a payload file.
    let (code, stdout, _) = run_gateway(&[
        "eval",
        "--config",
        config_path.to_str().expect("utf-8"),
        "--agent",
        "claude-code",
        "--command",
        "terraform destroy",
    ])
    .await;
    assert_eq!(code, Some(2), "{stdout}");
    assert!(
        stdout.contains("merged: deny (no terraform destroy)"),
        "{stdout}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_counts_exactly_what_a_new_rule_changes() {
    // A log of 1,000 events, decided by a gateway with no decider at all.
    let dir = private_dir();
    // Outside the gateway's directory, which goes with the gateway.
    let logs = private_dir();
    let log = logs.path().join("audit.jsonl");
    let recording =
        format!("[[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {log:?}\n");
    let gateway = TestGateway::start_in(dir, &recording, &[]).await;
    let dialects = [
        Dialect::ClaudeCode,
        Dialect::Codex,
        Dialect::GeminiCli,
        Dialect::Cursor,
    ];
    let mut expected_by_agent = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..1000 {
        let dialect = dialects[i % dialects.len()];
        let command = if i % 7 == 0 {
            format!("cd env{i} && terraform destroy -auto-approve")
        } else {
            format!("ls dir{i}")
        };
        if i % 7 == 0 {
            let agent = dialect
                .arg()
                .split_whitespace()
                .next()
                .expect("agent")
                .to_owned();
            *expected_by_agent.entry(agent).or_default() += 1;
        }
        let out = gateway
            .shim(Some(dialect.arg()))
            .run(&dialect.shell_payload(&command))
            .await;
        assert_eq!(out.code, Some(0), "{out}");
    }
    let deadline = tokio::time::Instant::now() + EVENTUALLY;
    while std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .count()
        < 1000
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the log has not got 1,000 lines"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(gateway);

    // The candidate adds one rule.
    let candidate = tempfile::tempdir().expect("tempdir");
    std::fs::write(candidate.path().join("p.rego"), POLICY).expect("write policy");
    let candidate_config = candidate.path().join("candidate.toml");
    std::fs::write(
        &candidate_config,
        "[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\npolicy = [\"p.rego\"]\n",
    )
    .expect("write candidate");
    let (code, stdout, stderr) = run_gateway(&[
        "replay",
        "--config",
        candidate_config.to_str().expect("utf-8"),
        "--log",
        log.to_str().expect("utf-8"),
        "--json",
        "--samples",
        "3",
    ])
    .await;
    assert_eq!(code, Some(0), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("JSON report");
    // 0, 7, ..., 994: 143 events.
    assert_eq!(report["events"], 1000, "{report}");
    assert_eq!(report["changed"], 143, "{report}");
    assert_eq!(report["uncertain"], 0, "{report}");
    assert_eq!(report["by_change"], serde_json::json!({"none->deny": 143}));
    assert_eq!(report["by_subscriber"], serde_json::json!({"policy": 143}));
    assert_eq!(report["by_tool_class"], serde_json::json!({"shell": 143}));
    assert_eq!(
        report["by_agent"],
        serde_json::to_value(&expected_by_agent).expect("json")
    );
    let samples = report["samples"].as_array().expect("samples");
    assert_eq!(samples.len(), 3);
    assert_eq!(samples[0]["after"]["reason"], "no terraform destroy");
}
