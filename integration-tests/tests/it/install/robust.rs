//! `gateway install` and `uninstall` over what users really have (issue
//! 27 §6, 25 §6): one agent's corrupt config does not stop the others and
//! the summary says which were skipped and why; settings with comments
//! are kept where the agent reads them and refused by name where it does
//! not; a Cline hook file that is a link to nothing leaves only its own
//! event unhooked; `--agent` takes the agents' program names.

use super::*;

/// Every agent's directory in HOME, so `--all` finds them all.
fn every_agent_home(user: &User) {
    for dir in [
        ".claude",
        ".cursor",
        ".cline",
        ".qwen",
        ".factory",
        ".gemini",
        ".codex",
        ".copilot",
        ".hermes",
        ".config/opencode",
    ] {
        std::fs::create_dir_all(user.home().join(dir)).expect("set up the test HOME");
    }
}

/// `gateway <args>` with XDG_RUNTIME_DIR, not asserting success.
fn run(user: &User, args: &[&str]) -> Output {
    let shim = binaries().shim.display().to_string();
    let mut all = args.to_vec();
    if args[0] == "install" {
        all.extend(["--shim", &shim]);
    }
    user.gateway(&all, &[("XDG_RUNTIME_DIR", &user.home().join("run"))])
}

#[test]
fn one_corrupt_config_leaves_the_others_installed_and_is_named() {
    let user = User::new();
    every_agent_home(&user);
    let broken = "{\"model\": \"opus\",, }";
    user.write(".claude/settings.json", broken);
    let out = run(&user, &["install", "--all"]);
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(
        stdout.contains(&format!(
            "summary: {} installed, 1 skipped",
            every_agent().len() - 1
        )),
        "{stdout}"
    );
    let settings = user.home().join(".claude/settings.json");
    assert!(
        stdout.contains(&format!(
            "  skipped  claude-code: {}: not valid JSON at line 1, column",
            settings.display()
        )),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).contains(&format!("1 of {} skipped", every_agent().len())),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), broken);
    for path in [
        ".gemini/settings.json",
        ".codex/hooks.json",
        ".qwen/settings.json",
    ] {
        let config = std::fs::read_to_string(user.home().join(path)).unwrap();
        assert!(config.contains("gateway-shim"), "{path}: {config}");
    }
    // Uninstall goes past it the same way, and removes the rest.
    let out = run(&user, &["uninstall", "--all"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("  skipped  claude-code: "), "{stdout}");
    assert!(!user.home().join(".codex/hooks.json").exists(), "{stdout}");
}

#[test]
fn comments_are_kept_where_the_agent_reads_them_and_refused_by_name_elsewhere() {
    let user = User::new();
    let gemini = "{\n  // API key auth\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}\n}\n";
    user.write(".gemini/settings.json", gemini);
    user.write(
        ".claude/settings.json",
        "{\n  // mine\n  \"model\": \"opus\"\n}\n",
    );
    // The program names are aliases.
    let out = run(
        &user,
        &["install", "--agent", "gemini", "--agent", "claude"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let installed = std::fs::read_to_string(user.home().join(".gemini/settings.json")).unwrap();
    assert!(
        installed.starts_with("{\n  // API key auth\n") && installed.contains("gateway-shim"),
        "{installed}"
    );
    assert!(
        stdout.contains("  skipped  claude-code: ")
            && stdout.contains("has comments, which this agent does not accept in this file"),
        "{stdout}"
    );
    let out = run(&user, &["uninstall", "--agent", "gemini"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert_eq!(
        std::fs::read_to_string(user.home().join(".gemini/settings.json")).unwrap(),
        gemini
    );
}

#[test]
fn a_cline_hook_file_linking_nowhere_leaves_only_its_event_unhooked() {
    let user = User::new();
    let hooks = user.home().join("Documents/Cline/Hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::os::unix::fs::symlink(user.home().join("gone"), hooks.join("PreToolUse")).unwrap();
    let out = run(&user, &["install", "--agent", "cline"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(
        stdout.contains("cannot be read") && stdout.contains("so `PreToolUse` is not hooked"),
        "{stdout}"
    );
    let post = std::fs::read_to_string(hooks.join("PostToolUse")).unwrap();
    assert!(post.contains("gateway-shim"), "{post}");
    assert!(
        hooks
            .join("PreToolUse")
            .symlink_metadata()
            .unwrap()
            .is_symlink()
    );
}

#[test]
fn unknown_agents_are_refused_with_the_names_and_aliases() {
    let user = User::new();
    let out = run(&user, &["install", "--agent", "vim"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("unknown agent `vim`") && stderr.contains("gemini-cli (gemini)"),
        "{stderr}"
    );
}
