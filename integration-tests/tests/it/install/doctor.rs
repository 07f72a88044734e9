//! `gateway doctor` after `gateway install`: exit 64 naming the problem
//! for each way the user is left unprotected, 0 when the chain is whole.

use super::*;

/// Codex is left out: without `codex` on PATH doctor cannot confirm its
/// trust (the real-agent tests check it with the real CLI).
#[test]
fn doctor_passes_when_the_chain_is_whole() {
    let mut user = User::new();
    let agents = [
        "claude-code",
        "cline",
        "gemini-cli",
        "copilot",
        "droid",
        "qwen-code",
        "hermes",
        "opencode",
    ];
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
        assert!(
            out.contains(&format!(
                "{agent}: a dangerous test call (`cat .env`) through the installed hook was denied"
            )),
            "{agent}\n{out}"
        );
    }
}

/// Right after install, nothing runs: doctor's round trip goes through an
/// installed hook, which starts the gateway as the agent's first hook call
/// would (issue 27 §2: doctor used to say PROBLEM and exit 64 here).
#[test]
fn doctor_starts_the_gateway_through_an_installed_hook() {
    let user = User::new();
    user.install(&["claude-code"]);
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("ok       gateway started by autostart (pid "),
        "{out}"
    );
    assert_eq!(user.gateway_pids().len(), 1, "{out}");
}

/// A gateway autostart cannot start: doctor says why, from the record.
#[test]
fn doctor_names_why_autostart_cannot_start_the_gateway() {
    let user = User::new();
    user.install(&["claude-code"]);
    user.write(
        ".config/hookgate/gateway.toml",
        "[server]\nqueue_wait_ms = \"x\"\n",
    );
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(
        out.contains("and autostart could not start one (")
            && out.contains("): invalid config at ")
            && out.contains(".config/hookgate/gateway.toml:2:"),
        "{out}"
    );
}

/// Hermes skips a hook it has no approval for when it cannot ask: doctor
/// names the missing consent and the fix, and install gives it back.
#[test]
fn doctor_fails_on_hermes_hooks_without_consent() {
    let mut user = User::new();
    user.install(&["hermes"]);
    user.serve();
    let consent = user.home().join(".hermes/shell-hooks-allowlist.json");
    std::fs::remove_file(&consent).expect("install wrote the consent file");
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(
        out.contains("hermes: 10 of hookgate's hooks (on_session_start, ...) not approved in")
            && out.contains("fix: gateway install --agent hermes"),
        "{out}"
    );
    user.install(&["hermes"]);
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(0), "{out}");
}

/// Codex's hook review, judged without `codex` on PATH: hooks with no
/// trusted hash are a problem naming the fix.
#[test]
fn doctor_fails_on_codex_hooks_nobody_trusted() {
    let mut user = User::new();
    user.install(&["codex"]);
    user.serve();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    assert!(
        out.contains("of hookgate's 12 hooks have no trusted hash in")
            && out.contains("`codex exec` skips them silently")
            && out.contains("Trust all and continue"),
        "{out}"
    );
}

/// What the agent would do, not only what its file holds: a project
/// layer that switches hooks off, a matcher on hookgate's group, a timeout
/// in milliseconds below the shim's deadline.
#[test]
fn doctor_reads_every_layer_matchers_and_timeouts() {
    let mut user = User::new();
    user.install(&["claude-code", "gemini-cli"]);
    user.serve();
    // The project is the test's working directory.
    let project = user.dir.path().join(".claude/settings.json");
    std::fs::create_dir_all(project.parent().unwrap()).unwrap();
    std::fs::write(&project, "{\"disableAllHooks\": true}").unwrap();
    let claude = user.home().join(".claude/settings.json");
    let text = std::fs::read_to_string(&claude).unwrap();
    let text = text.replacen(
        "\"hooks\": [",
        "\"matcher\": \"Bash\",\n        \"hooks\": [",
        1,
    );
    std::fs::write(&claude, text).unwrap();
    let gemini = user.home().join(".gemini/settings.json");
    let text = std::fs::read_to_string(&gemini).unwrap();
    std::fs::write(
        &gemini,
        text.replacen("\"timeout\": 30000", "\"timeout\": 5", 1),
    )
    .unwrap();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    for expected in [
        format!(
            "claude-code: `disableAllHooks: true` in its project settings {} turns every hook off",
            project.display()
        ),
        "has the matcher \"Bash\": every other tool goes unchecked".to_owned(),
        "`timeout: 5` on hookgate's SessionStart hook".to_owned(),
        "is 5 ms (`timeout` is in milliseconds)".to_owned(),
    ] {
        assert!(out.contains(&expected), "{expected}\n{out}");
    }
}

/// A guard that is there but never sees the agent (a user config that
/// narrows its filters to another agent): the config check names the
/// agent left out, and the dangerous probe through the installed hook
/// comes back allowed, which doctor reports instead of `protected`.
#[test]
fn doctor_fails_when_the_guards_filters_leave_the_agent_out() {
    let mut user = User::new();
    user.install(&["claude-code"]);
    user.write(
        ".config/hookgate/gateway.toml",
        "[[subscriber]]\nname = \"guard\"\nagents = [\"cursor\"]\n",
    );
    user.serve();
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    for expected in [
        "the guard's filters (agents, events, tools) exclude the shell calls of claude-code",
        "claude-code: a test event went through the shim to the gateway",
        "PROBLEM  claude-code: a dangerous test call (`cat .env`) through the installed hook was not denied",
    ] {
        assert!(out.contains(expected), "{expected}\n{out}");
    }
    assert!(
        out.contains("ok       config ") && out.contains(": audit on"),
        "{out}"
    );
}

/// The machine-wide layers where the agent itself finds them: Gemini CLI
/// and Qwen Code read their system settings and system defaults from
/// `*_SYSTEM_SETTINGS_PATH` / `*_SYSTEM_DEFAULTS_PATH` when set.
#[test]
fn doctor_reads_the_system_layers_where_the_agent_does() {
    let mut user = User::new();
    user.install(&["gemini-cli", "qwen-code"]);
    user.serve();
    let gemini = user.dir.path().join("gemini-system.json");
    std::fs::write(&gemini, "{\"hooksConfig\": {\"enabled\": false}}").unwrap();
    let qwen = user.dir.path().join("qwen-defaults.json");
    std::fs::write(&qwen, "{\"disableAllHooks\": true}").unwrap();
    let (code, out) = user.doctor(&[
        ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", &gemini),
        ("QWEN_CODE_SYSTEM_DEFAULTS_PATH", &qwen),
    ]);
    assert_eq!(code, Some(64), "{out}");
    for expected in [
        format!(
            "gemini-cli: `hooksConfig.enabled: false` in its system settings {} turns every hook off",
            gemini.display()
        ),
        format!(
            "qwen-code: `disableAllHooks: true` in its system defaults settings {} turns every hook off",
            qwen.display()
        ),
    ] {
        assert!(out.contains(&expected), "{expected}\n{out}");
    }
    let (code, out) = user.doctor(&[]);
    assert_eq!(
        code,
        Some(0),
        "not where the agents look without them:\n{out}"
    );
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

/// Hooks installed without autostart (by hand): nothing starts the
/// gateway, and doctor says how to.
#[test]
fn doctor_fails_when_no_gateway_runs() {
    let user = User::new();
    user.install(&["claude-code"]);
    let claude = user.home().join(".claude/settings.json");
    let text = std::fs::read_to_string(&claude).unwrap();
    std::fs::write(&claude, text.replace(" HOOKGATE_AUTOSTART=1", "")).unwrap();
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
    // The embedded default's guard and audit removed on purpose (a user
    // config otherwise adds to them).
    user.write(
        ".config/hookgate/gateway.toml",
        "[defaults]\nembedded = false\n",
    );
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

/// `[http]` on: doctor names who holds the HTTP hook port. Another user
/// (`nobody`, listening first) is a problem naming it; this user is fine;
/// nobody at all is a problem too (anyone may take it). Needs root, to
/// listen as `nobody`; skipped with a printed reason otherwise.
#[test]
fn doctor_names_another_user_holding_the_http_port() {
    if let Some(reason) = crate::support::cannot_switch_users() {
        eprintln!("SKIPPED doctor_names_another_user_holding_the_http_port: {reason}");
        return;
    }
    let squatter = crate::foreign::as_nobody(|| std::net::TcpListener::bind("127.0.0.1:0"))
        .expect("nobody listens on a port");
    let addr = squatter.local_addr().unwrap();
    let user = User::new();
    user.write(
        ".config/hookgate/gateway.toml",
        &format!("[http]\nlisten = \"{addr}\"\n"),
    );
    let (code, out) = user.doctor(&[]);
    assert_eq!(code, Some(64), "{out}");
    let (nobody, _) = crate::support::nobody_ids().expect("checked above");
    assert!(
        out.contains(&format!(
            "PROBLEM  the HTTP hook port {addr} is held by another user (uid {nobody} (nobody))"
        )) && out.contains("gateway install --transport http --service"),
        "{out}"
    );

    drop(squatter);
    let (_, out) = user.doctor(&[]);
    assert!(
        out.contains(&format!(
            "PROBLEM  nothing listens on the HTTP hook port {addr}"
        )),
        "{out}"
    );
    let ours = std::net::TcpListener::bind(addr).expect("the port again, as this user");
    let (_, out) = user.doctor(&[]);
    assert!(
        out.contains(&format!(
            "ok       HTTP hook port {addr}: held by this user"
        )),
        "{out}"
    );
    drop(ours);
}
