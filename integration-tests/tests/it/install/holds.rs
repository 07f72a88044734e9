//! Holds in what `gateway install` writes: with an `approval` in the
//! config, the events it can hold run a shim that takes holds
//! (`--hold-max-ms`) under a longer agent timeout, so a call installed
//! that way really waits for a person past the shim's normal deadline;
//! `gateway doctor` flags hooks that would cut a hold short.

use super::*;

/// How long approval `ask` holds.
const HOLD_MS: u64 = 60_000;

/// A config with an approval holding `make deploy`, a guard denying
/// `cat` (doctor's dangerous probe) and the audit log.
fn config(user: &User) -> String {
    let audit = user.home().join("audit.jsonl");
    format!(
        "[[subscriber]]\nname = \"ask\"\nbuiltin = \"approval\"\nhold_ms = {HOLD_MS}\n\
         [[subscriber.rules]]\nid = \"deploy\"\nshell = \"^make deploy\"\nreason = \"deploys need a person\"\n\n\
         [[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\
         [[subscriber.rules]]\ncommand = [\"cat\"]\nreason = \"no cat here\"\n\n\
         [[subscriber]]\nname = \"audit\"\nbuiltin = \"audit\"\npath = {:?}\n",
        audit.display().to_string()
    )
}

/// The installed handler of `event` in a settings file of Claude Code's
/// shape.
fn handler(user: &User, file: &str, event: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(user.home().join(file)).expect("read the settings");
    let settings: serde_json::Value = serde_json::from_str(&text).expect("JSON settings");
    settings["hooks"][event][0]["hooks"][0].clone()
}

#[test]
fn install_writes_holds_only_where_an_approval_can_hold() {
    let user = User::new();
    user.install(&["claude-code", "gemini-cli", "cline"]);
    let before = handler(&user, ".claude/settings.json", "PreToolUse");
    assert!(!before.to_string().contains("--hold-max-ms"), "{before}");
    assert_eq!(before["timeout"], 30, "{before}");

    user.write(".config/hookgate/gateway.toml", &config(&user));
    user.install(&["claude-code", "gemini-cli", "cline"]);
    // The shim waits the hold plus its own deadline; the agent 10 s more.
    for (file, event, timeout) in [
        (".claude/settings.json", "PreToolUse", 75),
        (".claude/settings.json", "PermissionRequest", 75),
        (".gemini/settings.json", "BeforeTool", 75_000),
    ] {
        let held = handler(&user, file, event);
        let command = held["command"].as_str().expect("a command");
        assert!(command.ends_with(" --hold-max-ms=65000"), "{command}");
        assert_eq!(held["timeout"], timeout, "{held}");
    }
    for (file, event, timeout) in [
        (".claude/settings.json", "Stop", 30),
        (".gemini/settings.json", "AfterTool", 30_000),
    ] {
        let other = handler(&user, file, event);
        assert!(!other.to_string().contains("--hold-max-ms"), "{other}");
        assert_eq!(other["timeout"], timeout, "{other}");
    }
    let hooks = user.home().join("Documents/Cline/Hooks");
    let pre = std::fs::read_to_string(hooks.join("PreToolUse")).expect("Cline's PreToolUse");
    assert!(pre.contains(" --hold-max-ms=65000\n"), "{pre}");
    let post = std::fs::read_to_string(hooks.join("PostToolUse")).expect("Cline's PostToolUse");
    assert!(!post.contains("--hold-max-ms"), "{post}");
}

/// The installed PreToolUse command, run as Claude Code runs it, is held
/// past the shim's 5 s deadline and gets the person's answer.
#[test]
fn an_installed_hook_waits_for_the_person_past_the_shims_deadline() {
    let mut user = User::new();
    user.write(".config/hookgate/gateway.toml", &config(&user));
    user.install(&["claude-code"]);
    user.serve();
    let command = user.claude_pre_tool_command();
    let payload = hookgate_integration_tests::payloads::claude_bash("make deploy");
    let mut hook = Command::new("sh")
        .args(["-c", &command])
        .env_clear()
        .env("HOME", user.home())
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the installed hook");
    {
        use std::io::Write as _;
        let mut stdin = hook.stdin.take().expect("the hook's stdin");
        stdin
            .write_all(payload.as_bytes())
            .expect("write the payload");
    }
    let socket = user.socket().display().to_string();
    let started = Instant::now();
    let held = loop {
        let out = user.gateway(&["approvals", "list", "--json", "--socket", &socket], &[]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let held: Vec<serde_json::Value> =
            serde_json::from_slice(&out.stdout).expect("a JSON array");
        if let Some(first) = held.into_iter().next() {
            break first;
        }
        assert!(started.elapsed() < STARTUP, "the call was never held");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(held["agent"], "claude-code", "{held}");
    // Past the shim's normal deadline (5 s from before the hold).
    std::thread::sleep(Duration::from_millis(6000));
    let id = held["id"].to_string();
    let out = user.gateway(
        &[
            "approvals",
            "approve",
            &id,
            "--as",
            "ada",
            "--socket",
            &socket,
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = hook.wait_with_output().expect("the hook ends");
    assert_eq!(out.status.code(), Some(0));
    let reply: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON reply");
    let specific = &reply["hookSpecificOutput"];
    assert_eq!(specific["permissionDecision"], "allow", "{reply}");
    assert!(
        specific["permissionDecisionReason"]
            .as_str()
            .is_some_and(|r| r.contains("approved by ada")),
        "{reply}"
    );
}

/// Hooks installed before the approval was configured cut its holds
/// short: doctor says where and why, and a new install fixes it.
#[test]
fn doctor_flags_hooks_that_cut_a_hold_short() {
    let mut user = User::new();
    user.install(&["claude-code", "gemini-cli"]);
    user.write(".config/hookgate/gateway.toml", &config(&user));
    user.serve();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    for expected in [
        "PROBLEM  claude-code: approval `ask` holds calls up to 60000 ms, but hookgate's PreToolUse (0 ms), PreSkillShellCommand (0 ms), PermissionRequest (0 ms) hook in",
        "PROBLEM  claude-code: approval `ask` holds calls up to 60000 ms, but claude-code kills hookgate's PreToolUse (30000 ms), PreSkillShellCommand (30000 ms), PermissionRequest (30000 ms) hook in",
        "PROBLEM  gemini-cli: approval `ask` holds calls up to 60000 ms, but hookgate's BeforeTool (0 ms) hook in",
        "PROBLEM  gemini-cli: approval `ask` holds calls up to 60000 ms, but gemini-cli kills hookgate's BeforeTool (30000 ms) hook in",
        "fix: gateway install --agent gemini-cli (it writes both for the config's holds)",
    ] {
        assert!(out.contains(expected), "{expected}\n{out}");
    }

    user.install(&["claude-code", "gemini-cli"]);
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(0), "{out}");
    for agent in ["claude-code", "gemini-cli"] {
        assert!(
            out.contains(&format!("ok       {agent}: the held events in "))
                && out.contains("wait longer than approval `ask`'s 60000 ms"),
            "{agent}\n{out}"
        );
    }
}
