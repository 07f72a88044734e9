//! hookgate's parts, resolved: the paths self-protection holds against
//! every tool call, and the gateway as a process and a service.
//!
//! Both where this gateway keeps them (its environment, its config, its
//! socket, its own executable) and where they are by default (a shell in
//! the agent may see another `XDG_*` than a gateway the service manager
//! started), so a difference in environment is no way around it.

use std::path::Path;

use hookgate_guard::protect::{Pattern, Processes, Protected};

use super::{Site, manifest};
use hookgate_config::{Config, Env, SubscriberKind};

/// The hook configs `gateway install` writes or reads, and the files that
/// can turn an agent's hooks off, relative to a home or project directory
/// (matched in any directory): Claude Code (user, project, local and the
/// managed file), Gemini CLI (and its system file), Codex (hooks and the
/// `hooks` feature switch), Copilot CLI (user and repository hook
/// directories), Cline (user, project and the CLI's data directory), Qwen
/// Code, Factory Droid, Cursor, Hermes Agent (its config and the consent
/// allowlist, which can drop hookgate's approvals), OpenCode (the user and
/// project plugin directories, `plugin/` where hookgate's plugin is written
/// and `plugins/`, which OpenCode loads alike: a plugin there runs after
/// hookgate's and could rewrite a call it let through). `gateway install`'s
/// table is checked to be covered (its tests).
pub const AGENT_CONFIGS: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    "claude-code/managed-settings.json",
    "ClaudeCode/managed-settings.json",
    ".gemini/settings.json",
    "gemini-cli/settings.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".copilot/hooks",
    ".github/hooks",
    "Documents/Cline/Hooks",
    ".clinerules/hooks",
    ".cline/hooks",
    ".qwen/settings.json",
    ".factory/hooks.json",
    ".factory/settings.json",
    ".cursor/hooks.json",
    ".hermes/config.yaml",
    ".hermes/shell-hooks-allowlist.json",
    ".config/opencode/plugin",
    ".config/opencode/plugins",
    ".opencode/plugin",
    ".opencode/plugins",
];

/// The units and agent `gateway install` writes to start the gateway
/// (`install/service`; its tests check the names), and where.
const SERVICE_FILES: &[&str] = &[
    "systemd/user/hookgate.service",
    "systemd/user/hookgate.socket",
    "systemd/user/hookgate-http.socket",
    "systemd/user/sockets.target.wants/hookgate.socket",
    "systemd/user/sockets.target.wants/hookgate-http.socket",
    "systemd/user/default.target.wants/hookgate.service",
    "Library/LaunchAgents/dev.hookgate.gateway.plist",
];
/// hookgate's own files in a `hookgate` directory anywhere, for the
/// runtime directory a shell names by a variable hookgate cannot know
/// (`$XDG_RUNTIME_DIR/hookgate/gateway.sock`); the bool: kept secret.
const OWN_FILES: &[(&str, bool)] = &[
    ("hookgate/gateway.sock", false),
    ("hookgate/gateway.sock.admin", false),
    ("hookgate/gateway.sock.fallbacks", false),
    ("hookgate/gateway.toml", false),
    ("hookgate/http.token", true),
    ("hookgate/ui.token", true),
    ("hookgate/audit.jsonl", true),
];
/// The systemd units, for `systemctl`.
pub const UNITS: &[&str] = &[
    "hookgate.service",
    "hookgate.socket",
    "hookgate-http.socket",
];
/// The launchd label, for `launchctl`.
pub const LABELS: &[&str] = &["dev.hookgate.gateway"];
/// The shim's file name.
const SHIM: &str = "gateway-shim";
/// The longest process name the kernel keeps (`comm`, 15 bytes on Linux):
/// what `pkill NAME` and `killall NAME` compare with.
const COMM_LEN: usize = 15;

fn tree(path: &Path, what: &str) -> Protected {
    part(Pattern::Tree(path.display().to_string()), false, what)
}

fn part(pattern: Pattern, secret: bool, what: &str) -> Protected {
    Protected {
        pattern,
        secret,
        what: what.to_owned(),
    }
}

/// Every path of hookgate's.
pub(super) fn paths(config: &Config, site: &Site, env: &Env) -> Vec<Protected> {
    let mut out = Vec::new();
    let default_home = |rest: &str| env.home.as_ref().map(|h| h.join(rest));
    // Config: the user's directory (wherever XDG puts it, and the default),
    // `--config`, the system file.
    let user_config = env.user_config_path();
    for dir in [
        user_config
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf),
        default_home(".config/hookgate"),
    ]
    .into_iter()
    .flatten()
    {
        out.push(tree(&dir, "hookgate's config directory"));
    }
    if let Some(file) = &site.explicit {
        out.push(tree(file, "hookgate's config file"));
    }
    if let Some(system) = &env.system_config {
        out.push(tree(system, "hookgate's system config"));
    }
    // State: the directory (fallback records, the autostart lock and log,
    // the install record), the decision logs and the HTTP token, both
    // kept secret too, then the socket and its siblings.
    let state = super::state_dir(env);
    for dir in [state.clone(), default_home(".local/state/hookgate")]
        .into_iter()
        .flatten()
    {
        out.push(tree(&dir, "hookgate's state directory"));
    }
    for sub in &config.subscribers {
        // The memory database (and its `-wal`, `-shm`): what later sessions
        // are told, so no tool call may read other projects' memories from
        // it or plant some.
        if let SubscriberKind::Memory(memory) = &sub.kind {
            let db = memory.path.display().to_string();
            out.push(part(
                Pattern::Prefix(db),
                true,
                "hookgate's memory database",
            ));
        }
        if let SubscriberKind::Audit { path, anchor, .. } = &sub.kind {
            let log = path.display().to_string();
            out.push(part(Pattern::Prefix(log), true, "hookgate's decision log"));
            // Its anchor only helps while the agent cannot rewrite it too.
            if let Some(anchor) = anchor {
                let anchor = anchor.display().to_string();
                out.push(part(
                    Pattern::Prefix(anchor),
                    false,
                    "hookgate's decision log anchor",
                ));
            }
        }
    }
    let socket = &site.socket;
    if let Some(dir) = socket.parent() {
        let tokens = [
            crate::http::token::token_path(socket).ok(),
            Some(dir.join(crate::http::token::TOKEN_FILE)),
            state
                .as_ref()
                .map(|s| s.join(crate::http::token::TOKEN_FILE)),
        ];
        for token in tokens.into_iter().flatten() {
            out.push(part(
                Pattern::Tree(token.display().to_string()),
                true,
                "hookgate's HTTP token",
            ));
        }
        // The console's login token: whoever reads it can answer held
        // calls, the agent's own included.
        out.push(part(
            Pattern::Tree(
                dir.join(crate::http::token::UI_TOKEN_FILE)
                    .display()
                    .to_string(),
            ),
            true,
            "hookgate's console token",
        ));
        // The socket's own directory when it is hookgate's
        // (`$XDG_RUNTIME_DIR/hookgate`), else the socket and its siblings.
        let ours = dir
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("hookgate"));
        if ours {
            out.push(tree(dir, "hookgate's runtime directory"));
        }
    }
    out.push(part(
        Pattern::Prefix(socket.display().to_string()),
        false,
        "hookgate's socket",
    ));
    // The binaries: this gateway (as run and as resolved), the shim next
    // to it, the one install places by default and the ones it recorded.
    let exe = std::env::current_exe().ok();
    let real = exe.as_ref().and_then(|e| e.canonicalize().ok());
    for gateway in [exe.clone(), real.clone()].into_iter().flatten() {
        out.push(tree(&gateway, "hookgate's gateway binary"));
        out.push(tree(&gateway.with_file_name(SHIM), "hookgate's shim"));
    }
    if let Some(shim) = default_home(".local/bin").map(|d| d.join(SHIM)) {
        out.push(tree(&shim, "hookgate's shim"));
    }
    if let Some(record) = state.as_ref().map(|s| s.join(manifest::FILE)) {
        for entry in manifest::read(&record) {
            let what = match entry.kind {
                manifest::Kind::Shim => "hookgate's shim",
                manifest::Kind::Config => "an agent's hook config hookgate installed",
            };
            out.push(tree(&entry.path, what));
        }
    }
    // The agents' hook configs, in any home or project; the service units.
    for config in AGENT_CONFIGS {
        out.push(part(
            Pattern::Anywhere((*config).to_owned()),
            false,
            "an agent's hook config",
        ));
    }
    for (file, secret) in OWN_FILES {
        let what = if *secret {
            "a secret of hookgate's"
        } else {
            "one of hookgate's files"
        };
        out.push(part(Pattern::Anywhere((*file).to_owned()), *secret, what));
    }
    for unit in SERVICE_FILES {
        out.push(part(
            Pattern::Anywhere((*unit).to_owned()),
            false,
            "the service that starts hookgate's gateway",
        ));
    }
    out
}

/// The gateway as a process and a service: its pid, the names `pkill`
/// and `killall` see (the gateway's and the shim's, as the kernel
/// shortens them) and its command line (`pkill -f`), its units and label,
/// and the program names of its CLI.
pub(super) fn processes() -> Processes {
    let exe = std::env::current_exe().ok();
    let exe_name = exe
        .as_ref()
        .and_then(|e| e.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("gateway")
        .to_owned();
    let mut names = Vec::new();
    for name in [exe_name.as_str(), "gateway", SHIM] {
        names.push(name.to_owned());
        if let Some(comm) = name.get(..COMM_LEN) {
            names.push(comm.to_owned());
        }
    }
    let line: Vec<String> = std::env::args().collect();
    names.push(line.join(" "));
    if let Some(exe) = &exe {
        let mut full = vec![exe.display().to_string()];
        full.extend(line.iter().skip(1).cloned());
        names.push(full.join(" "));
    }
    names.sort();
    names.dedup();
    let mut programs = vec!["gateway".to_owned(), exe_name];
    programs.dedup();
    Processes {
        pids: vec![std::process::id()],
        names,
        units: UNITS.iter().map(|u| (*u).to_owned()).collect(),
        labels: LABELS.iter().map(|l| (*l).to_owned()).collect(),
        programs,
    }
}
