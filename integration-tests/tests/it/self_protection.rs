//! Self-protection through the real binaries (issue 24, finding 4): no
//! hook call can weaken hookgate. Each kind of protected path (config,
//! decision log, HTTP token, socket, shim, gateway binary, install record,
//! agent hook configs of user and project, service units) by shell and by
//! file tool, each form of signal aimed at the gateway (by its real pid,
//! by name, by pattern, through systemd and launchd, `gateway uninstall`),
//! Claude Code's in-session `ConfigChange`, and the reload rule: a config
//! that weakens hookgate is refused, counted, warned about and named by
//! `gateway doctor` until `gateway reload --allow-weaker` applies it.

use std::path::Path;

use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::{ShimOutput, TestGateway, payloads, private_dir, run_gateway};
use serde_json::{Value, json};

use crate::support::{Dialect, EVENTUALLY, UnderTest, assert_claude_deny};

/// What every self-protection reason starts with.
const REASON: &str = "hookgate self-protection";

/// A Claude Code `PreToolUse` of `tool` with `input`.
fn claude_tool(tool: &str, input: Value) -> String {
    let mut value: Value =
        serde_json::from_str(&payloads::fixture("claude-code", "PreToolUse.json"))
            .expect("the fixture is JSON");
    value["tool_name"] = json!(tool);
    value["tool_input"] = input;
    value.to_string()
}

async fn bash(gateway: &TestGateway, command: &str) -> ShimOutput {
    let payload = Dialect::ClaudeCode.shell_payload(command);
    gateway.shim(Some("claude-code")).run(payload).await
}

async fn assert_denied(gateway: &TestGateway, command: &str) {
    let out = bash(gateway, command).await;
    assert_claude_deny(&out, "PreToolUse", REASON);
}

/// Passes self-protection: no reply of its own (the embedded guard may
/// still have an opinion, which these commands do not trigger).
async fn assert_passes(gateway: &TestGateway, command: &str) {
    let out = bash(gateway, command).await;
    assert_eq!(out.code, Some(0), "{command}: {out}");
    assert!(
        !out.stdout_str().contains(REASON),
        "{command}: self-protection answered: {out}"
    );
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_hookgate_path_is_denied_to_shell_and_file_tools() {
    let gateway = TestGateway::start_embedded().await;
    let home = gateway.home();
    let dir = gateway.dir().to_path_buf();
    let log = gateway.audit_log();
    let state = log.parent().expect("the log's directory").to_path_buf();
    let bins = binaries();
    let writes = [
        // The user config directory the gateway reads ($XDG_CONFIG_HOME).
        format!(
            "printf '[server]\\n' > {}",
            shown(&dir.join("hookgate/gateway.toml"))
        ),
        // The default one under HOME, and the directory itself.
        "sed -i '/guard/d' ~/.config/hookgate/gateway.toml".to_owned(),
        "mv ~/.config/hookgate ~/.config/hookgate.off".to_owned(),
        // The decision log, its rotations and head; the state directory.
        format!("truncate -s 0 {}", shown(&log)),
        format!("rm -f {}.1 {}.head", shown(&log), shown(&log)),
        format!("rm -rf {}", shown(&state)),
        format!("rm {}", shown(&state.join("installed"))),
        // The socket and its admin sibling.
        format!("rm -f {}", shown(gateway.socket())),
        format!("rm -f {}.admin", shown(gateway.socket())),
        // The shim: installed by default, and next to the running gateway.
        "chmod 000 ~/.local/bin/gateway-shim".to_owned(),
        format!("ln -sf /bin/true {}", shown(&bins.shim)),
        // The gateway binary that runs.
        format!("cp /bin/true {}", shown(&bins.gateway)),
        // Agent hook configs: user and project scope, several agents.
        "echo '{}' > ~/.claude/settings.json".to_owned(),
        r#"echo '{"disableAllHooks": true}' > .claude/settings.json"#.to_owned(),
        "sed -i '/gateway-shim/d' .claude/settings.local.json".to_owned(),
        "rm -f ~/.cursor/hooks.json ~/.qwen/settings.json".to_owned(),
        "sed -i 's/hooks = true/hooks = false/' ~/.codex/config.toml".to_owned(),
        "rm -rf ~/Documents/Cline/Hooks".to_owned(),
        "rm .github/hooks/hookgate.json".to_owned(),
        "sed -i '/hookgate/d' ~/.hermes/config.yaml".to_owned(),
        "echo '{}' > ~/.hermes/shell-hooks-allowlist.json".to_owned(),
        "rm ~/.config/opencode/plugin/hookgate.js".to_owned(),
        // OpenCode loads `plugins/` as it loads `plugin/`: a plugin there
        // runs after hookgate's and could rewrite what it let through.
        "echo 'export const P = async () => ({})' > .opencode/plugins/p.js".to_owned(),
        "cp p.js ~/.config/opencode/plugins/".to_owned(),
        // The service that starts the gateway.
        "rm ~/.config/systemd/user/sockets.target.wants/hookgate.socket".to_owned(),
    ];
    for command in &writes {
        assert_denied(&gateway, command).await;
    }
    // Reading the secrets: the token and the decision log.
    for command in [
        format!("cat {}", shown(&dir.join("http.token"))),
        format!("cat {}", shown(&state.join("http.token"))),
        // The console's login token: with it an agent could approve its
        // own held calls.
        format!("cat {}", shown(&dir.join("ui.token"))),
        format!("tail -n 5 {}", shown(&log)),
        format!("grep -r Bearer {}", shown(&state)),
    ] {
        assert_denied(&gateway, &command).await;
    }
    // File tools: the same paths through Write, Edit and Read.
    let home_settings = shown(&home.join(".claude/settings.json"));
    for (tool, input) in [
        (
            "Write",
            json!({"file_path": home_settings, "content": "{}"}),
        ),
        (
            "Edit",
            json!({"file_path": "/home/dev/acme-api/.gemini/settings.json",
                   "old_string": "hooks", "new_string": "x"}),
        ),
        ("Read", json!({"file_path": shown(&log)})),
        (
            "Write",
            json!({"file_path": shown(&dir.join("hookgate/gateway.toml")), "content": ""}),
        ),
    ] {
        let out = gateway
            .shim(Some("claude-code"))
            .run(claude_tool(tool, input.clone()))
            .await;
        assert_claude_deny(&out, "PreToolUse", REASON);
    }
    // Ordinary work on and near the same files passes.
    for command in [
        "cat ~/.claude/settings.json",
        "jq .hooks .claude/settings.json",
        "ls -la ~/.config/hookgate",
        "echo x > .claude/commands/review.md",
        "gateway status",
    ] {
        assert_passes(&gateway, command).await;
    }
    // It says who it is, counts in `gateway status`, and is first in the
    // decision log's list of subscribers asked.
    let out = bash(&gateway, "rm -rf ~/.config/hookgate").await;
    assert!(
        out.stdout_str().contains("hookgate's config directory"),
        "{out}"
    );
    let doc = gateway.status_json().await;
    let protection = doc["subscribers"]
        .as_array()
        .and_then(|subs| subs.iter().find(|s| s["name"] == "self-protection"))
        .unwrap_or_else(|| panic!("no self-protection in status: {doc}"))
        .clone();
    let denied = protection["deny"].as_u64().unwrap_or_default();
    assert!(denied >= 25, "{protection}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signals_and_commands_aimed_at_the_gateway_are_denied() {
    let mut gateway = TestGateway::start_embedded().await;
    let pid = gateway.pid();
    let exe = shown(&binaries().gateway);
    let denied = [
        format!("kill -STOP {pid}"),
        format!("kill -9 {pid}"),
        format!("kill -s TERM {pid}"),
        format!("kill -- -{pid}"),
        "kill -9 -1".to_owned(),
        "pkill gateway".to_owned(),
        "pkill -STOP -f 'gateway serve'".to_owned(),
        "killall -9 gateway".to_owned(),
        "killall gateway-shim".to_owned(),
        "kill $(pgrep -f 'gateway serve')".to_owned(),
        "pidof gateway | xargs kill".to_owned(),
        "systemctl --user stop hookgate.service hookgate.socket".to_owned(),
        "systemctl --user disable --now hookgate.socket".to_owned(),
        "systemctl --user kill -s STOP hookgate".to_owned(),
        "launchctl bootout gui/$(id -u)/dev.hookgate.gateway".to_owned(),
        "gateway uninstall --all".to_owned(),
        format!("{exe} install --agent claude-code --socket /tmp/elsewhere.sock"),
        "gateway audit".to_owned(),
        "gateway reload --allow-weaker".to_owned(),
    ];
    for command in &denied {
        assert_denied(&gateway, command).await;
    }
    for command in [
        "kill 1234567",
        "pkill -f 'vite dev'",
        "systemctl --user status hookgate",
        "gateway status",
        "gateway reload",
    ] {
        assert_passes(&gateway, command).await;
    }
    assert!(gateway.is_running(), "{}", gateway.stderr());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_code_config_change_is_refused() {
    let gateway = TestGateway::start_embedded().await;
    let payload = payloads::fixture("claude-code", "ConfigChange.json");
    let out = gateway.shim(Some("claude-code")).run(payload).await;
    assert_eq!(out.code, Some(0), "{out}");
    let json = out.json();
    assert_eq!(json["decision"], "block", "{out}");
    assert!(
        json["reason"].as_str().is_some_and(|r| r.contains(REASON)),
        "{out}"
    );
}

/// The guard of a user's config.
const GUARD: &str = "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\
    [[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"no rm here\"\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_that_weakens_hookgate_waits_for_allow_weaker() {
    let dir = private_dir();
    let log = dir.path().join("audit.jsonl");
    let guarded = format!(
        "{GUARD}[[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = \"{}\"\n",
        shown(&log)
    );
    let gateway = TestGateway::start_in(dir, &guarded, &[]).await;
    // As written (`write_config` adds the standalone header each time).
    let config = guarded.clone();
    let rm = "rm notes.txt";
    assert_claude_deny(&bash(&gateway, rm).await, "PreToolUse", "no rm here");

    // An empty config, by `gateway reload`: refused, the guard stays.
    gateway.write_config("");
    let (code, _, stderr) = gateway.reload().await;
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("weakens hookgate"), "{stderr}");
    assert!(stderr.contains("--allow-weaker"), "{stderr}");
    assert_claude_deny(&bash(&gateway, rm).await, "PreToolUse", "no rm here");
    let doc = gateway.status_json().await;
    assert_eq!(doc["reload"]["last_result"], "weaker", "{}", doc["reload"]);
    // (The file watch may have refused it too.)
    assert!(
        doc["reload"]["weaker"].as_u64() >= Some(1),
        "{}",
        doc["reload"]
    );
    assert_eq!(doc["reload"]["generation"], 1, "{}", doc["reload"]);
    assert!(
        gateway
            .wait_for_stderr(EVENTUALLY, |s| s
                .contains("config reload refused: it weakens hookgate"))
            .await,
        "no WARN: {}",
        gateway.stderr()
    );
    // `gateway doctor` names it.
    let socket = shown(gateway.socket());
    let (_, doctor, _) = run_gateway(&["doctor", "--socket", &socket]).await;
    assert!(
        doctor.contains("PROBLEM  the config on disk weakens hookgate"),
        "{doctor}"
    );
    assert!(doctor.contains("ok       self-protection on"), "{doctor}");

    // A guard that checks fewer events, by the file watch: refused too.
    gateway.write_config(&config.replace(
        "builtin = \"guard\"\n",
        "builtin = \"guard\"\nevents = [\"file_read\"]\n",
    ));
    let watched = async {
        loop {
            let doc = gateway.status_json().await;
            let error = doc["reload"]["last_error"].as_str().unwrap_or_default();
            if error.contains("covers fewer events") {
                return doc;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    };
    let doc = match tokio::time::timeout(EVENTUALLY, watched).await {
        Ok(doc) => doc,
        Err(_) => panic!(
            "the file watch refuses the narrower guard: {:#}\n{}",
            gateway.status_json().await["reload"],
            gateway.stderr()
        ),
    };
    assert_eq!(doc["reload"]["last_trigger"], "watch", "{}", doc["reload"]);
    assert_claude_deny(&bash(&gateway, rm).await, "PreToolUse", "no rm here");

    // The user, from a terminal: applied, and the guard is gone.
    gateway.write_config("");
    let (code, stdout, stderr) =
        run_gateway(&["reload", "--socket", &socket, "--allow-weaker"]).await;
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("config applied: generation 2"), "{stdout}");
    let out = bash(&gateway, rm).await;
    assert_eq!(out.code, Some(0), "{out}");
    assert!(out.stdout.is_empty(), "no guard any more: {out}");
    // Self-protection stays whatever the config says.
    assert_denied(&gateway, "pkill gateway").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_config_cannot_turn_self_protection_off() {
    let gateway = TestGateway::start(GUARD).await;
    gateway.write_config(&format!("[server]\nself_protection = false\n{GUARD}"));
    let (code, _, stderr) = gateway.reload().await;
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("only the system config"), "{stderr}");
    assert_denied(&gateway, "pkill gateway").await;
    // The system config can.
    let managed = TestGateway::start_managed("[server]\nself_protection = false\n", GUARD).await;
    assert_passes(&managed, "pkill gateway").await;
    assert!(
        managed.stderr().contains("self-protection is off"),
        "{}",
        managed.stderr()
    );
}
