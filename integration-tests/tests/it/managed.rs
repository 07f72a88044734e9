//! The managed (system) config layer through the real gateway: what the
//! system locks, the user's config cannot remove or weaken; the guard still
//! denies, `gateway status` says which layer each subscriber came from, and
//! a reload reads both layers again.

use hookgate_integration_tests::{ShimOutput, TestGateway, payloads, run_gateway};
use serde_json::{Value, json};

use crate::support::{EVENTUALLY, assert_claude_deny};

/// An org policy service (down: nothing listens on port 1) whose failures
/// deny, locked; a guard (unlocked) with one locked rule and one the team
/// may drop.
const SYSTEM: &str = r#"
[[subscriber]]
name = "org-policy"
endpoint = "http://127.0.0.1:1"
on_error = "deny"
events = ["pre_tool_use"]
tools = ["Write"]
locked = true
timeout_ms = 500

[[subscriber]]
name = "guard"
builtin = "guard"
events = ["pre_tool_use"]

[[subscriber.rules]]
command = ["terraform"]
subcommand = ["destroy"]
reason = "org rule: no terraform destroy"
locked = true

[[subscriber.rules]]
command = ["make"]
reason = "team rule: no make"
"#;

/// Everything a user might try: the policy service's failures allowed,
/// then the guard disabled; plus a guard of their own.
const USER: &str = r#"
[[subscriber]]
name = "org-policy"
endpoint = "http://127.0.0.1:1"
on_error = "allow"

[[subscriber]]
name = "guard"
enabled = false

[[subscriber]]
name = "mine"
builtin = "guard"

[[subscriber.rules]]
command = ["shred"]
reason = "my rule: no shred"
"#;

async fn bash(gateway: &TestGateway, command: &str) -> ShimOutput {
    let payload = payloads::claude_bash(command);
    gateway.shim(Some("claude-code")).run(payload).await
}

async fn write(gateway: &TestGateway) -> ShimOutput {
    let input = json!({"file_path": "/tmp/notes.txt", "content": "hi"});
    let payload = payloads::claude_tool("Write", input);
    gateway.shim(Some("claude-code")).run(payload).await
}

/// Nobody objected: Claude Code goes on.
fn assert_not_denied(out: &ShimOutput) {
    assert_eq!(out.code, Some(0), "{out}");
    assert!(!out.stdout_str().contains("deny"), "{out}");
}

fn subscriber<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["subscribers"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["name"] == name))
        .unwrap_or_else(|| panic!("no subscriber `{name}` in {doc:#}"))
}

fn layer(doc: &Value, name: &str) -> (String, bool) {
    let sub = subscriber(doc, name);
    (
        sub["layer"].as_str().unwrap_or_default().to_owned(),
        sub["locked"].as_bool().unwrap_or_default(),
    )
}

#[tokio::test]
async fn locked_system_settings_survive_the_user_config() {
    let gateway = TestGateway::start_managed(SYSTEM, USER).await;

    // The locked rule survived the user disabling its guard.
    let out = bash(&gateway, "terraform destroy -auto-approve").await;
    assert_claude_deny(&out, "PreToolUse", "org rule: no terraform destroy");
    // The unlocked team rule went with it, and the user's own rule applies.
    assert_not_denied(&bash(&gateway, "make all").await);
    let out = bash(&gateway, "shred secrets.txt").await;
    assert_claude_deny(&out, "PreToolUse", "my rule: no shred");
    // The policy service is down, and its locked on_error still denies.
    let out = write(&gateway).await;
    assert_claude_deny(&out, "PreToolUse", "org-policy");

    let doc = gateway.status_json().await;
    assert_eq!(layer(&doc, "org-policy"), ("system".into(), true));
    assert_eq!(layer(&doc, "guard.locked"), ("system".into(), true));
    assert_eq!(layer(&doc, "mine"), ("user".into(), false));
    assert_eq!(doc["config_refused"], 1, "{doc:#}");
    assert!(
        doc["system_config"]
            .as_str()
            .is_some_and(|p| p.ends_with("system.toml"))
    );
    assert!(
        gateway
            .stderr()
            .contains("`org-policy` is locked by the system config"),
        "{}",
        gateway.stderr()
    );
    let socket = gateway.socket().display().to_string();
    let (code, table, stderr) = run_gateway(&["status", "--socket", &socket]).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(table.contains("system (locked)"), "{table}");
    assert!(table.contains("over system"), "{table}");
}

/// The organisation drops its policy service and unlocks the rule.
const SYSTEM_UNLOCKED: &str = r#"
[[subscriber]]
name = "guard"
builtin = "guard"
events = ["pre_tool_use"]

[[subscriber.rules]]
command = ["terraform"]
subcommand = ["destroy"]
reason = "org rule: no terraform destroy"
"#;

#[tokio::test]
async fn a_reload_reads_the_system_layer_too() {
    let gateway = TestGateway::start_managed(SYSTEM, USER).await;
    let out = bash(&gateway, "terraform destroy").await;
    assert_claude_deny(&out, "PreToolUse", "org rule: no terraform destroy");

    gateway.write_system_config(SYSTEM_UNLOCKED);
    let (code, stdout, stderr) = gateway.reload().await;
    assert_eq!(code, Some(0), "{stdout}{stderr}");

    // Now the user's choices stand: the guard they disabled is gone, and
    // the org-policy they wrote (allow on error) is theirs.
    assert_not_denied(&bash(&gateway, "terraform destroy").await);
    assert_not_denied(&write(&gateway).await);
    let doc = gateway.status_json().await;
    assert_eq!(layer(&doc, "org-policy"), ("user".into(), false));
    assert_eq!(doc["config_refused"], 0, "{doc:#}");
}

#[tokio::test]
async fn the_system_file_is_watched() {
    let gateway = TestGateway::start_managed(SYSTEM, USER).await;
    assert_eq!(gateway.status_json().await["config_refused"], 1);
    // No signal, no `gateway reload`: the watch sees the new file.
    gateway.write_system_config(SYSTEM_UNLOCKED);
    let until = tokio::time::Instant::now() + EVENTUALLY;
    loop {
        let doc = gateway.status_json().await;
        if doc["config_refused"] == 0 && doc["reload"]["last_trigger"] == "watch" {
            assert_eq!(layer(&doc, "org-policy"), ("user".into(), false));
            break;
        }
        assert!(
            tokio::time::Instant::now() < until,
            "the system file's change was not applied: {doc:#}\n{}",
            gateway.stderr()
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_not_denied(&bash(&gateway, "terraform destroy").await);
}
