//! `gateway install`, `uninstall` and `doctor` through the real binaries,
//! each test with a fresh HOME: install twice writes the same bytes,
//! uninstall gives back the original files byte for byte, and doctor exits
//! 64 naming the problem when the user is not protected, 0 when healthy.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use hookgate_adapters::Agent;
use hookgate_integration_tests::binaries::binaries;
use hookgate_integration_tests::{Autostarted, autostarted};

/// `gateway doctor` for the users these tests install for.
mod doctor;
/// Holds: what install writes with an `approval`, what doctor flags.
mod holds;
/// Install over what users really have: a corrupt file, comments, links,
/// the agents' program names.
mod robust;
/// `--service`: the systemd user units.
#[cfg(target_os = "linux")]
mod service;

/// How long a gateway may take to come up on a loaded machine.
const STARTUP: Duration = Duration::from_secs(30);

/// A user with a fresh HOME; stops the gateway it started on drop.
struct User {
    dir: tempfile::TempDir,
    gateway: Option<Child>,
}

impl User {
    fn new() -> User {
        let dir = tempfile::Builder::new()
            .prefix("hg-install-")
            .tempdir_in("/tmp")
            .expect("set up the test HOME");
        std::fs::create_dir(dir.path().join("home")).expect("set up the test HOME");
        User { dir, gateway: None }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// The socket every hook pins when installed with XDG_RUNTIME_DIR set.
    fn socket(&self) -> PathBuf {
        self.home().join("run/hookgate/gateway.sock")
    }

    /// `gateway <args>` as this user: only HOME and a minimal PATH, plus
    /// `env`.
    fn gateway(&self, args: &[&str], env: &[(&str, &Path)]) -> Output {
        self.command(args, env).output().expect("run gateway")
    }

    fn command(&self, args: &[&str], env: &[(&str, &Path)]) -> Command {
        let mut command = Command::new(&binaries().gateway);
        command
            .args(args)
            .env_clear()
            .env("HOME", self.home())
            .env("PATH", "/usr/bin:/bin")
            .envs(env.iter().map(|(k, v)| (*k, *v)))
            .current_dir(self.dir.path());
        command
    }

    /// `gateway install`, with XDG_RUNTIME_DIR (so the socket is pinned
    /// there, not where an agent without it would look).
    fn install(&self, agents: &[&str]) -> Output {
        let shim = binaries().shim.display().to_string();
        let mut args = vec!["install", "--shim", &shim];
        for agent in agents {
            args.extend(["--agent", agent]);
        }
        let out = self.gateway(&args, &[("XDG_RUNTIME_DIR", &self.home().join("run"))]);
        assert!(
            out.status.success(),
            "install failed: {}",
            text(&out.stderr)
        );
        out
    }

    /// `gateway serve` on the pinned socket, waited for.
    fn serve(&mut self) {
        let runtime = self.home().join("run");
        std::fs::create_dir_all(&runtime).expect("set up the test HOME");
        let child = self
            .command(
                &["serve", "--socket", &self.socket().display().to_string()],
                &[("XDG_RUNTIME_DIR", &runtime)],
            )
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start gateway serve");
        self.gateway = Some(child);
        let started = Instant::now();
        let socket = self.socket().display().to_string();
        while !self
            .gateway(&["status", "--socket", &socket], &[])
            .status
            .success()
        {
            assert!(started.elapsed() < STARTUP, "the gateway did not come up");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `gateway doctor` as an agent's environment would have it: no
    /// XDG_RUNTIME_DIR. Returns (exit code, stdout).
    fn doctor(&self, env: &[(&str, &Path)]) -> (Option<i32>, String) {
        let out = self.gateway(&["doctor"], env);
        (out.status.code(), text(&out.stdout))
    }

    /// Every file under HOME (backups included), with its bytes.
    fn files(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        let mut dirs = vec![self.home()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("set up the test HOME") {
                let path = entry.expect("set up the test HOME").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if !path.starts_with(self.home().join(".local")) {
                    files.insert(
                        path.clone(),
                        std::fs::read(&path).expect("set up the test HOME"),
                    );
                }
            }
        }
        files
    }

    fn write(&self, path: &str, text: &str) {
        let path = self.home().join(path);
        std::fs::create_dir_all(path.parent().expect("set up the test HOME"))
            .expect("set up the test HOME");
        std::fs::write(path, text).expect("set up the test HOME");
    }
}

impl User {
    /// The pids of the gateways serving this user's socket (started by the
    /// test or by a shim's autostart).
    fn gateway_pids(&self) -> Vec<String> {
        autostarted::serving(&self.socket())
    }

    /// The command the installed Claude Code hooks run on PreToolUse.
    fn claude_pre_tool_command(&self) -> String {
        let settings = std::fs::read_to_string(self.home().join(".claude/settings.json"))
            .expect("read the installed settings");
        let settings: serde_json::Value =
            serde_json::from_str(&settings).expect("the installed settings are JSON");
        settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .expect("a PreToolUse command")
            .to_owned()
    }
}

impl Drop for User {
    fn drop(&mut self) {
        if let Some(mut child) = self.gateway.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        drop(Autostarted::on(&self.socket()));
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every agent, by the name `--agent` takes.
fn every_agent() -> Vec<&'static str> {
    Agent::ALL.iter().map(|agent| agent.as_str()).collect()
}
/// Hand-written configs: their own layout, key order and hooks.
fn write_originals(user: &User) {
    user.write(
        ".claude/settings.json",
        "{\n    \"model\": \"opus\",\n    \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"my-lint\"}]}]},\n    \"env\": {\"A\": \"1\"}\n}",
    );
    user.write(
        ".cursor/hooks.json",
        "{\"version\":1,\"hooks\":{\"stop\":[{\"command\":\"./mine.sh\"}]}}\n",
    );
    user.write(
        "Documents/Cline/Hooks/PreToolUse",
        "#!/bin/bash\necho '{}'\n",
    );
    user.write(
        ".qwen/settings.json",
        "{\"telemetry\": {\"enabled\": false}, \"hooks\": {}}",
    );
    user.write(
        ".gemini/settings.json",
        "{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}}\n",
    );
    // Codex: comments and order to keep, no `hooks` feature yet.
    user.write(
        ".codex/config.toml",
        "# my codex\nmodel = \"o3\"  # pinned\n\n[features]\nplugins = false\n\n[tui]\ntheme = \"dark\"\n",
    );
    // Copilot: a hook file of the user's own, next to hookgate's.
    user.write(
        ".copilot/hooks/mine.json",
        "{\"version\":1,\"hooks\":{\"sessionEnd\":[{\"bash\":\"./bye.sh\"}]}}",
    );
    // Hermes: YAML with comments, `hermes setup`'s empty hooks, and an
    // approval of the user's own in its consent file.
    user.write(
        ".hermes/config.yaml",
        "model:\n  provider: custom  # mine\n  default: m\nhooks: {}\nhooks_auto_accept: false\n",
    );
    user.write(
        ".hermes/shell-hooks-allowlist.json",
        "{\"approvals\": [{\"event\": \"on_session_end\", \"command\": \"/home/u/bye.sh\"}]}",
    );
}

#[test]
fn install_twice_changes_nothing_and_uninstall_restores_every_file() {
    let user = User::new();
    write_originals(&user);
    let original = user.files();

    let out = user.install(&every_agent());
    let once = user.files();
    assert_ne!(once, original, "{}", text(&out.stdout));
    user.install(&every_agent());
    assert_eq!(user.files(), once, "a second install changed files");

    // Every config runs the copied shim by its absolute path, with the
    // socket pinned.
    let shim = user.home().join(".local/bin/gateway-shim");
    let pinned = format!("HOOKGATE_SOCKET='{}'", user.socket().display());
    // One config per agent, where each agent reads it.
    let configs = [
        (Agent::ClaudeCode, ".claude/settings.json"),
        (Agent::Cursor, ".cursor/hooks.json"),
        (Agent::QwenCode, ".qwen/settings.json"),
        (Agent::Droid, ".factory/hooks.json"),
        (Agent::Cline, "Documents/Cline/Hooks/PostToolUse"),
        (Agent::GeminiCli, ".gemini/settings.json"),
        (Agent::Codex, ".codex/hooks.json"),
        (Agent::Copilot, ".copilot/hooks/hookgate.json"),
        (Agent::Hermes, ".hermes/config.yaml"),
        (Agent::OpenCode, ".config/opencode/plugin/hookgate.js"),
    ];
    for agent in Agent::ALL {
        assert!(
            configs.iter().any(|(a, _)| *a == agent),
            "{agent:?} has no config file in this test"
        );
    }
    for (_, path) in configs {
        let config = std::fs::read_to_string(user.home().join(path)).unwrap();
        assert!(
            config.contains(&format!("'{}'", shim.display())),
            "{path}: {config}"
        );
        assert!(config.contains(&pinned), "{path}: {config}");
    }
    assert!(once.contains_key(&user.home().join(".claude/settings.json.hookgate-backup")));
    let codex = std::fs::read_to_string(user.home().join(".codex/config.toml")).unwrap();
    assert!(
        codex.contains("plugins = false\nhooks = true\n") && codex.starts_with("# my codex\n"),
        "{codex}"
    );
    let copilot =
        std::fs::read_to_string(user.home().join(".copilot/hooks/hookgate.json")).unwrap();
    assert!(copilot.contains("copilot preToolUse"), "{copilot}");
    let hermes = std::fs::read_to_string(user.home().join(".hermes/config.yaml")).unwrap();
    assert!(
        hermes.starts_with("model:\n  provider: custom  # mine\n")
            && hermes.contains("- command: \"/usr/bin/env HOOKGATE_SOCKET=")
            && hermes.ends_with("# hookgate: end\nhooks_auto_accept: false\n"),
        "{hermes}"
    );
    let consent =
        std::fs::read_to_string(user.home().join(".hermes/shell-hooks-allowlist.json")).unwrap();
    assert!(
        consent.contains("/home/u/bye.sh") && consent.contains("gateway-shim' hermes"),
        "{consent}"
    );
    let claude = std::fs::read_to_string(user.home().join(".claude/settings.json")).unwrap();
    assert!(
        claude.contains("my-lint") && claude.find("model") < claude.find("env"),
        "{claude}"
    );
    // The user's own Cline hook is left alone (and reported).
    assert_eq!(
        std::fs::read(user.home().join("Documents/Cline/Hooks/PreToolUse")).unwrap(),
        b"#!/bin/bash\necho '{}'\n"
    );
    assert!(
        text(&out.stdout).contains("not hookgate's"),
        "{}",
        text(&out.stdout)
    );

    let out = user.gateway(&["uninstall", "--all"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        user.files(),
        original,
        "uninstall did not restore the originals"
    );
}

#[test]
fn dry_run_shows_the_diff_and_writes_nothing() {
    let user = User::new();
    write_originals(&user);
    let original = user.files();
    let shim = binaries().shim.display().to_string();
    let out = user.gateway(
        &[
            "install",
            "--agent",
            "qwen-code",
            "--shim",
            &shim,
            "--dry-run",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let diff = text(&out.stdout);
    assert!(
        diff.contains("+++ ") && diff.contains("+    \"PreToolUse\": ["),
        "{diff}"
    );
    assert_eq!(user.files(), original);
    assert!(!user.home().join(".local/bin/gateway-shim").exists());
}

/// Four hook calls at once, no gateway: one shim starts it (the others
/// find the lock taken and wait), and every call gets the guard's answer.
#[test]
fn concurrent_first_calls_start_one_gateway_and_all_get_its_answer() {
    let user = User::new();
    user.install(&["claude-code"]);
    let command = user.claude_pre_tool_command();
    let payload = r#"{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/","tool_name":"Bash","tool_input":{"command":"cat .env > copy"},"tool_use_id":"t"}"#;
    let shims: Vec<Child> = (0..4)
        .map(|_| {
            let mut child = Command::new("/bin/sh")
                .arg("-c")
                .arg(&command)
                .env_clear()
                .env("HOME", user.home())
                .env("PATH", "/usr/bin:/bin")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("run the installed hook command");
            use std::io::Write as _;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(payload.as_bytes())
                .expect("write the payload");
            child
        })
        .collect();
    for shim in shims {
        let out = shim.wait_with_output().expect("wait for the shim");
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains("\"permissionDecision\":\"deny\"")
                && stdout.contains("reading a secrets file"),
            "a call was not answered by the gateway: {stdout}"
        );
    }
    assert_eq!(user.gateway_pids().len(), 1, "{:?}", user.gateway_pids());
}

#[test]
fn completions_and_the_man_page_cover_every_subcommand() {
    let user = User::new();
    let bash = user.gateway(&["completions", "bash"], &[]);
    let man = user.gateway(&["man"], &[]);
    assert!(bash.status.success() && man.status.success());
    let (bash, man) = (text(&bash.stdout), text(&man.stdout));
    assert!(
        man.starts_with(".ie") && man.contains(".TH gateway 1"),
        "{man}"
    );
    for sub in ["serve", "status", "install", "uninstall", "doctor"] {
        assert!(
            bash.contains(&format!("gateway__subcmd__{sub}")),
            "bash lacks {sub}"
        );
        assert!(man.contains(sub), "the man page lacks {sub}");
    }
}

/// A config that is a symlink (a dotfiles manager's) stays one: install
/// and uninstall edit the file it points to.
#[test]
fn a_symlinked_config_is_edited_through_the_link() {
    let user = User::new();
    user.write("dotfiles/claude.json", "{\"model\": \"opus\"}\n");
    std::fs::create_dir_all(user.home().join(".claude")).unwrap();
    let link = user.home().join(".claude/settings.json");
    std::os::unix::fs::symlink(user.home().join("dotfiles/claude.json"), &link).unwrap();
    user.install(&["claude-code"]);
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    let target = std::fs::read_to_string(user.home().join("dotfiles/claude.json")).unwrap();
    assert!(target.contains("gateway-shim"), "{target}");
    let out = user.gateway(&["uninstall", "--agent", "claude-code"], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(
        std::fs::read_to_string(user.home().join("dotfiles/claude.json")).unwrap(),
        "{\"model\": \"opus\"}\n"
    );
}
