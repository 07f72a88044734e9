//! `gateway install --service`: the systemd user units, written for the
//! pinned socket, idempotently, and removed by uninstall — and never a
//! unit of the user's own. (Socket activation itself is proven in
//! `socket_activation.rs`; no systemd runs here to enable them.)

use super::*;

const UNITS: &str = ".config/systemd/user";

/// `gateway install --agent claude-code` plus `more`, with `env`.
fn install_claude(user: &User, more: &[&str], env: &[(&str, &Path)]) -> Output {
    let shim = binaries().shim.display().to_string();
    let mut args = vec!["install", "--agent", "claude-code", "--shim", &shim];
    args.extend(more);
    user.gateway(&args, env)
}

#[test]
fn service_units_follow_the_pinned_socket_and_uninstall_removes_them() {
    let user = User::new();
    let runtime = user.home().join("run");
    let env = [("XDG_RUNTIME_DIR", runtime.as_path())];
    let out = install_claude(&user, &["--service"], &env);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = user.home().join(UNITS);
    let socket_unit = std::fs::read_to_string(dir.join("hookgate.socket")).unwrap();
    assert!(
        socket_unit.contains(&format!("ListenStream={}\n", user.socket().display())),
        "{socket_unit}"
    );
    let service = std::fs::read_to_string(dir.join("hookgate.service")).unwrap();
    let gateway = binaries().gateway.canonicalize().unwrap();
    assert!(
        service.contains(&format!(
            "ExecStart=\"{}\" serve --socket",
            gateway.display()
        )),
        "{service}"
    );
    // No user manager runs here: said, and the hooks still autostart.
    assert!(
        text(&out.stdout).contains("no user service manager is running"),
        "{}",
        text(&out.stdout)
    );

    let once = user.files();
    let out = install_claude(&user, &["--service"], &env);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(user.files(), once, "a second install changed files");

    let out = user.gateway(&["uninstall", "--all"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!dir.join("hookgate.socket").exists());
    assert!(!dir.join("hookgate.service").exists());
}

#[test]
fn a_running_manager_is_asked_and_a_failure_is_only_a_warning() {
    let user = User::new();
    // What marks a running user manager; systemctl cannot talk to a file.
    user.write("run/systemd/private", "");
    let runtime = user.home().join("run");
    let out = install_claude(&user, &[], &[("XDG_RUNTIME_DIR", runtime.as_path())]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(user.home().join(UNITS).join("hookgate.socket").exists());
    assert!(
        text(&out.stderr).contains("`systemctl --user daemon-reload` failed"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_unit_of_the_users_own_is_never_overwritten_or_removed() {
    let user = User::new();
    let mine = "[Socket]\nListenStream=/tmp/mine.sock\n";
    user.write(&format!("{UNITS}/hookgate.socket"), mine);
    let out = install_claude(&user, &["--service"], &[]);
    assert!(!out.status.success());
    // The hooks are installed all the same; the summary names the unit.
    assert!(
        text(&out.stdout).contains("  skipped  service: ")
            && text(&out.stdout).contains("was not written by `gateway install`"),
        "{}",
        text(&out.stdout)
    );
    assert!(user.home().join(".claude/settings.json").exists());
    let out = user.gateway(&["uninstall", "--service"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = user.home().join(UNITS).join("hookgate.socket");
    assert_eq!(std::fs::read_to_string(path).unwrap(), mine);
}

#[test]
fn with_http_hooks_the_service_manager_holds_the_port_too() {
    let user = User::new();
    user.write(
        ".config/hookgate/gateway.toml",
        "[http]\nlisten = \"127.0.0.1:48787\"\n",
    );
    let runtime = user.home().join("run");
    let env = [("XDG_RUNTIME_DIR", runtime.as_path())];
    let out = install_claude(&user, &["--transport", "http", "--service"], &env);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = user.home().join(UNITS);
    let http = std::fs::read_to_string(dir.join("hookgate-http.socket")).unwrap();
    for line in [
        "ListenStream=127.0.0.1:48787",
        "FileDescriptorName=hookgate-http",
        "Service=hookgate.service",
    ] {
        assert!(http.lines().any(|l| l == line), "{line}\n{http}");
    }
    let service = std::fs::read_to_string(dir.join("hookgate.service")).unwrap();
    assert!(
        service
            .lines()
            .any(|l| l == "Sockets=hookgate.socket hookgate-http.socket"),
        "{service}"
    );

    let out = user.gateway(&["uninstall", "--all"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for unit in [
        "hookgate.socket",
        "hookgate.service",
        "hookgate-http.socket",
    ] {
        assert!(!dir.join(unit).exists(), "{unit} left behind");
    }
}
