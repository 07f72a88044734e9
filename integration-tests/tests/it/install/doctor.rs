//! `gateway doctor` after `gateway install`: exit 64 naming the problem
//! for each way the user is left unprotected, 0 when the chain is whole.

use super::*;

#[test]
fn doctor_passes_when_the_chain_is_whole() {
    let mut user = User::new();
    let agents = ["claude-code", "cline", "gemini-cli", "codex", "copilot"];
    user.install(&agents);
    user.serve();
    // No XDG_RUNTIME_DIR here: the hooks' pinned socket still reaches it.
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(0), "{out}");
    for agent in agents {
        assert!(
            out.contains(&format!("{agent}: a test event went through the shim")),
            "{agent}\n{out}"
        );
    }
}

#[test]
fn doctor_fails_when_codex_hooks_are_switched_off() {
    let mut user = User::new();
    user.install(&["codex"]);
    user.serve();
    // The user turns the feature off again: Codex then reads no hooks.
    let config = user.home().join(".codex/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("hooks = true", "hooks = false")).unwrap();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(
        out.contains("`[features] hooks = true` is missing"),
        "{out}"
    );
}

#[test]
fn doctor_fails_when_no_gateway_runs() {
    let user = User::new();
    user.install(&["claude-code"]);
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(out.contains("PROBLEM  no gateway answers on"), "{out}");
    assert!(out.contains("gateway serve --socket"), "{out}");
}

#[test]
fn doctor_fails_when_the_shim_is_not_where_the_hooks_run_it() {
    let mut user = User::new();
    user.install(&["claude-code"]);
    std::fs::remove_file(user.home().join(".local/bin/gateway-shim")).unwrap();
    user.serve();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(out.contains("which is not an executable file"), "{out}");
    assert!(out.contains("never reached the gateway"), "{out}");
}

#[test]
fn doctor_fails_on_a_hand_written_config_without_guard() {
    let mut user = User::new();
    user.install(&["claude-code"]);
    user.write(".config/hookgate/gateway.toml", "");
    user.serve();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(out.contains("has no guard subscriber"), "{out}");
    assert!(out.contains("has no audit subscriber"), "{out}");
}

#[test]
fn doctor_fails_when_no_agent_is_installed() {
    let user = User::new();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(out.contains("gateway install --all"), "{out}");
}

#[test]
fn doctor_fails_when_the_agent_switches_every_hook_off() {
    let mut user = User::new();
    user.install(&["gemini-cli"]);
    user.serve();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(0), "{out}");
    // The user turns Gemini's hooks off: the entries are all still there.
    let settings = user.home().join(".gemini/settings.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    let off = text.replacen('{', "{\"hooksConfig\": {\"enabled\": false},", 1);
    std::fs::write(&settings, off).unwrap();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(
        out.contains("`hooksConfig.enabled: false`") && out.contains("turns every hook off"),
        "{out}"
    );
}
