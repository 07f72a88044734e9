//! `gateway eval` asked the question a user has, through the real binary:
//! `--tool/--input` and `--prompt` build the agent's payload, whose reply
//! is the one a real shim call with the same call (built here from the
//! agents' sample payloads, not by eval's builder) gets; `--socket` asks
//! a running gateway's live config and is logged and counted as a probe;
//! usage errors exit 1, never the 2 that means "blocked".

use std::path::{Path, PathBuf};
use std::time::Duration;

use hookgate_integration_tests::payloads::fixture;
use hookgate_integration_tests::{TestGateway, private_dir, run_gateway};
use serde_json::{Value, json};

use crate::support::EVENTUALLY;

const POLICY: &str = r#"package hookgate

decision := {"permission": "deny", "reason": "no writes under /etc"} if {
    input.tool.class == "file_write"
    some path in input.tool.paths
    startswith(path, "/etc/")
}

decision := {"permission": "deny", "reason": "not the repo"} if {
    contains(input.prompt, "delete the repo")
}

decision := {"permission": "deny", "reason": "live config says no"} if {
    contains(input.tool.command, "forbidden-by-live-config")
}
"#;

/// A gateway whose only decider is [`POLICY`], logging to `audit.jsonl`
/// in its directory; the config file's path.
async fn gateway() -> (TestGateway, PathBuf) {
    let dir = private_dir();
    std::fs::write(dir.path().join("p.rego"), POLICY).expect("write policy");
    let audit = dir.path().join("audit.jsonl");
    let config = format!(
        "[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\npolicy = [\"p.rego\"]\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {audit:?}\n"
    );
    let config_path = dir.path().join("gateway.toml");
    (TestGateway::start_in(dir, &config, &[]).await, config_path)
}

/// A sample payload of `agent_dir` with `change` applied.
fn sample(agent_dir: &str, file: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut value: Value = serde_json::from_str(&fixture(agent_dir, file)).expect("JSON");
    change(&mut value);
    value.to_string()
}

/// `gateway eval ARGS --json`: exit code and document.
async fn eval_json(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["eval", "--json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run_gateway(&all).await;
    let doc = serde_json::from_str(&stdout)
        .unwrap_or_else(|err| panic!("{args:?}: {err}: {stdout} {stderr}"));
    (code, doc)
}

/// Eval's reply and exit code equal the shim's for `payload`.
async fn assert_same_reply(
    gateway: &TestGateway,
    agent: &str,
    payload: &str,
    eval: (Option<i32>, Value),
) {
    let (code, doc) = eval;
    let shim = gateway.shim(Some(agent)).run(payload).await;
    let reply = &doc["reply"];
    assert_eq!(
        reply["exit_code"].as_i64(),
        shim.code.map(i64::from),
        "{agent}: {doc:#} {shim}"
    );
    assert_eq!(reply["stdout"], shim.stdout_str(), "{agent}");
    assert_eq!(reply["stderr"], shim.stderr_str(), "{agent}");
    let blocked = doc["decision"]["permission"] == "deny";
    assert_eq!(code, Some(if blocked { 2 } else { 0 }), "{agent}: {doc:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_call_gets_the_reply_a_real_shim_call_gets() {
    let (gateway, config) = gateway().await;
    let config = config.to_str().expect("utf-8");
    let patch = "*** Begin Patch\n*** Add File: /etc/x\n+y\n*** End Patch\n";
    // (agent, tool, input, the same call from the agent's sample payload)
    let cases = [
        (
            "claude-code",
            "Write",
            json!({"file_path": "/etc/x", "content": "y"}),
            sample("claude-code", "PreToolUse.json", |v| {
                v["tool_name"] = json!("Write");
                v["tool_input"] = json!({"file_path": "/etc/x", "content": "y"});
            }),
        ),
        (
            "codex",
            "apply_patch",
            json!({"command": patch}),
            sample("codex", "PreToolUse.apply_patch.json", |v| {
                v["tool_input"] = json!({"command": patch});
            }),
        ),
        (
            "cline",
            "editor",
            json!({"command": "create", "path": "/etc/x", "file_text": "y"}),
            sample("cline", "tool_call.json", |v| {
                v["tool_call"]["name"] = json!("editor");
                v["tool_call"]["input"] =
                    json!({"command": "create", "path": "/etc/x", "file_text": "y"});
                v.as_object_mut().expect("object").remove("preToolUse");
            }),
        ),
    ];
    for (agent, tool, input, payload) in cases {
        let input = input.to_string();
        let args = [
            "--config", config, "--agent", agent, "--tool", tool, "--input", &input,
        ];
        let (code, doc) = eval_json(&args).await;
        assert_eq!(code, Some(2), "{agent}: /etc is denied: {doc:#}");
        assert_eq!(doc["decision"]["reason"], "no writes under /etc", "{agent}");
        assert_eq!(doc["event"]["tool"]["name"], tool, "{agent}");
        assert_eq!(doc["event"]["session_id"], "hookgate-eval", "{agent}");
        assert_same_reply(&gateway, agent, &payload, (code, doc)).await;
        // And a write elsewhere is allowed, with the same reply too.
        let elsewhere = input.replace("/etc/x", "/tmp/x");
        let args = [
            "--config", config, "--agent", agent, "--tool", tool, "--input", &elsewhere,
        ];
        let (code, doc) = eval_json(&args).await;
        assert_eq!(code, Some(0), "{agent}: {doc:#}");
        assert_same_reply(
            &gateway,
            agent,
            &payload.replace("/etc/x", "/tmp/x"),
            (code, doc),
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_gets_the_reply_a_real_shim_call_gets() {
    let (gateway, config) = gateway().await;
    let config = config.to_str().expect("utf-8");
    for (agent, dir, file) in [
        ("claude-code", "claude-code", "UserPromptSubmit.json"),
        ("codex", "codex", "UserPromptSubmit.json"),
    ] {
        let args = [
            "--config",
            config,
            "--agent",
            agent,
            "--prompt",
            "please delete the repo",
        ];
        let (code, doc) = eval_json(&args).await;
        assert_eq!(doc["event"]["event"], "prompt_submit", "{agent}: {doc:#}");
        assert_eq!(doc["decision"]["reason"], "not the repo", "{agent}");
        let payload = sample(dir, file, |v| v["prompt"] = json!("please delete the repo"));
        assert_same_reply(&gateway, agent, &payload, (code, doc)).await;
    }
    let (code, text, _) = run_gateway(&[
        "eval",
        "--config",
        config,
        "--agent",
        "cline",
        "--prompt",
        "delete the repo",
    ])
    .await;
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("merged: deny (not the repo)"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_asks_the_live_config_and_is_logged_as_a_probe() {
    let (gateway, _config) = gateway().await;
    let socket = gateway.socket().to_str().expect("utf-8").to_owned();
    // The embedded default (and any config on disk) allows this `ls`; only
    // the live config denies it.
    let command = "ls forbidden-by-live-config";
    let (code, doc) = eval_json(&[
        "--socket",
        &socket,
        "--agent",
        "claude-code",
        "--command",
        command,
    ])
    .await;
    assert_eq!(code, Some(2), "{doc:#}");
    assert_eq!(doc["decision"]["reason"], "live config says no", "{doc:#}");
    let names: Vec<&str> = doc["subscribers"]
        .as_array()
        .expect("subscribers")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert!(names.contains(&"policy"), "{doc:#}");
    let same = sample("claude-code", "PreToolUse.json", |v| {
        v["tool_input"] = json!({"command": command});
    });
    assert_same_reply(&gateway, "claude-code", &same, (code, doc)).await;
    // A payload file through the live gateway: its session is marked too.
    let file = gateway.dir().join("payload.json");
    std::fs::write(&file, &same).expect("write payload");
    let (code, text, _) = run_gateway(&[
        "eval",
        "--socket",
        &socket,
        "--agent",
        "claude-code",
        file.to_str().expect("utf-8"),
    ])
    .await;
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("merged: deny (live config says no)"),
        "{text}"
    );

    // Three calls: the shim's (traffic) and eval's two (probes).
    let lines = audit_lines(&gateway.dir().join("audit.jsonl"), 3).await;
    let evals: Vec<&Value> = lines.iter().filter(|l| l["probe"] == true).collect();
    assert_eq!(evals.len(), 2, "{lines:#?}");
    assert!(
        evals.iter().all(|l| l["session_id"] == "hookgate-eval"),
        "{evals:#?}"
    );
    let status = gateway.status_json().await;
    assert_eq!(status["probes"]["claude-code"], 2, "{status:#}");
    let events: u64 = status["events"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["count"].as_u64().unwrap_or_default())
        .sum();
    assert_eq!(events, 1, "only the shim's call is traffic: {status:#}");
    // `gateway audit` leaves them out unless asked.
    let log = gateway.dir().join("audit.jsonl");
    let log = log.to_str().expect("utf-8");
    for (probes, expected) in [(false, 1), (true, 3)] {
        let mut args = vec!["audit", "--path", log, "--json"];
        if probes {
            args.push("--probes");
        }
        let (code, stdout, stderr) = run_gateway(&args).await;
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(
            stdout.lines().count(),
            expected,
            "--probes {probes}: {stdout}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_questions_exit_1_with_the_reason() {
    let dir = private_dir();
    let config = dir.path().join("gateway.toml");
    std::fs::write(&config, "").expect("write config");
    let config = config.to_str().expect("utf-8");
    fn with<'a>(config: &'a str, args: &[&'a str]) -> Vec<&'a str> {
        [&["eval", "--config", config][..], args].concat()
    }
    let with_config = |args: &[&'static str]| with(config, args);
    let write = |name: &'static str, input: &'static str| {
        with_config(&["--agent", "claude-code", "--tool", name, "--input", input])
    };
    let nowhere = [
        "--socket",
        "/nonexistent/gateway.sock",
        "--agent",
        "codex",
        "--prompt",
        "hi",
    ];
    let cases: [(Vec<&str>, &str); 10] = [
        (
            write("Write", "{\"file_path\":"),
            "--input is not valid JSON",
        ),
        (write("Write", "[]"), "--input must be a JSON object"),
        (
            write("Wrte", "{}"),
            "hookgate does not know `Wrte` as a claude-code tool",
        ),
        (
            with_config(&["--agent", "nope", "--command", "ls"]),
            "unknown agent `nope`",
        ),
        (
            with_config(&["--agent", "nope", "--prompt", "hi"]),
            "unknown agent `nope`",
        ),
        (with_config(&["--tool", "Write"]), "--tool needs --agent"),
        (with_config(&["--prompt", "hi"]), "--prompt needs --agent"),
        // clap's usage errors: 1 here, since 2 would read as "blocked".
        (
            with_config(&["--agent", "codex", "--prompt", "hi", "--command", "ls"]),
            "cannot be used with",
        ),
        (with_config(&nowhere), "cannot be used with"),
        // Without --config: the socket is asked, and nothing answers.
        ([&["eval"][..], &nowhere].concat(), "not running"),
    ];
    for (args, message) in cases {
        let (code, stdout, stderr) = run_gateway(&args).await;
        assert_eq!(code, Some(1), "{args:?}: {stdout} {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// The decision log's lines, once it has at least `lines`.
async fn audit_lines(path: &Path, lines: usize) -> Vec<Value> {
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let parsed: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect();
        if parsed.len() >= lines {
            return parsed;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the log has {} of {lines} lines",
            parsed.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
