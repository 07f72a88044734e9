//! Self-protection over a set of parts like the gateway resolves them for
//! a user whose HOME is `/home/dev`, with the gateway as pid 4242.

use hookgate_adapters::{Dialect, EventKind, HookEvent, ToolClass};

use super::*;
use crate::tests::{event, file_tool, shell, with_tool};

fn part(pattern: Pattern, secret: bool, what: &str) -> Protected {
    Protected {
        pattern,
        secret,
        what: what.to_owned(),
    }
}

fn protection() -> Protection {
    use Pattern::{Anywhere, Prefix, Tree};
    let mut parts = vec![
        part(
            Tree("~/.config/hookgate".into()),
            false,
            "hookgate's config",
        ),
        part(
            Tree("/home/dev/.local/state/hookgate".into()),
            false,
            "hookgate's state",
        ),
        part(
            Prefix("~/.local/state/hookgate/audit.jsonl".into()),
            true,
            "hookgate's decision log",
        ),
        part(
            Tree("~/.local/state/hookgate/http.token".into()),
            true,
            "hookgate's HTTP token",
        ),
        part(
            Prefix("/run/user/1000/hookgate/gateway.sock".into()),
            false,
            "hookgate's socket",
        ),
        part(
            Tree("~/.local/bin/gateway-shim".into()),
            false,
            "hookgate's shim",
        ),
        part(
            Tree("/usr/local/bin/gateway".into()),
            false,
            "hookgate's gateway",
        ),
    ];
    for config in [
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".gemini/settings.json",
        ".codex/hooks.json",
        ".codex/config.toml",
        "Documents/Cline/Hooks",
        ".clinerules/hooks",
        ".qwen/settings.json",
        ".factory/hooks.json",
        ".cursor/hooks.json",
    ] {
        parts.push(part(
            Anywhere(config.into()),
            false,
            "an agent's hook config",
        ));
    }
    let processes = Processes {
        pids: vec![4242],
        names: vec![
            "gateway".into(),
            "gateway-shim".into(),
            "/usr/local/bin/gateway serve".into(),
        ],
        units: vec![
            "hookgate.service".into(),
            "hookgate.socket".into(),
            "hookgate-http.socket".into(),
        ],
        labels: vec!["dev.hookgate.gateway".into()],
        programs: vec!["gateway".into()],
    };
    Protection::new(parts, processes, Some("/home/dev".into()))
}

fn verdict(event: &HookEvent) -> Option<Action> {
    protection().check(event).map(|hit| hit.action)
}

/// Lines that would weaken hookgate, for certain.
const DENIED: &[&str] = &[
    "rm -rf ~/.config/hookgate",
    ": > ~/.config/hookgate/gateway.toml",
    r#"sed -i '/builtin = "guard"/d' ~/.config/hookgate/gateway.toml"#,
    r"printf '[server]\n' > ~/.config/hookgate/gateway.toml",
    "mv ~/.config/hookgate ~/.config/hookgate.off",
    "cp evil.toml ~/.config/hookgate/",
    "rm -rf ~/.config",
    "jq 'del(.hooks)' ~/.claude/settings.json > /tmp/s.json && mv /tmp/s.json ~/.claude/settings.json",
    "echo '{}' > ~/.claude/settings.json",
    r#"echo '{"disableAllHooks": true}' > .claude/settings.json"#,
    "sed -i '/gateway-shim/d' .claude/settings.local.json",
    "rm .claude/settings.json",
    "rm -rf .claude",
    "mv ~/.claude/settings.json{,.bak}",
    "vim .claude/settings.json",
    "rm -f ~/.cursor/hooks.json",
    "rm -rf ~/Documents/Cline/Hooks",
    "sed -i 's/hooks = true/hooks = false/' ~/.codex/config.toml",
    "jq '.hooks = {}' ~/.qwen/settings.json | sponge ~/.qwen/settings.json",
    "chmod -x ~/.local/bin/gateway-shim",
    "chmod 000 /home/dev/.local/bin/gateway-shim",
    "ln -sf /bin/true ~/.local/bin/gateway-shim",
    "cp /bin/true /usr/local/bin/gateway",
    "rm -rf ~/.local/state/hookgate",
    "truncate -s 0 ~/.local/state/hookgate/audit.jsonl",
    "rm ~/.local/state/hookgate/audit.jsonl.2",
    "cat ~/.local/state/hookgate/http.token",
    "base64 < ~/.local/state/hookgate/audit.jsonl",
    "grep -r Bearer ~/.local/state",
    "cd ~/.local/state/hookgate && tail audit.jsonl.head",
    "pkill gateway",
    "pkill -STOP -f 'gateway serve'",
    "killall -9 gateway",
    "killall gateway-shim",
    "kill $(pgrep -f 'gateway serve')",
    "pidof gateway | xargs kill -STOP",
    "kill -STOP 4242",
    "kill -9 -1",
    "kill -- -4242",
    "kill -s TERM 4242",
    "systemctl --user stop hookgate.service hookgate.socket",
    "systemctl --user disable --now hookgate.socket",
    "systemctl --user kill -s STOP hookgate",
    "systemctl --user mask 'hook*'",
    "launchctl bootout gui/$(id -u)/dev.hookgate.gateway",
    "gateway uninstall --all",
    "/usr/local/bin/gateway install --agent claude-code --socket /tmp/x.sock",
    "gateway audit --since 1h",
    "gateway reload --allow-weaker",
    "gateway approvals approve 3 --scope session",
    "(sleep 5; gateway approvals approve 1) &",
    "gateway approvals $ACTION 2",
    "gateway ui",
    "gateway ui --open --socket /tmp/x.sock",
    "gateway $SUB",
    // An option's value before the subcommand is not the subcommand.
    "gateway --log-level warn uninstall --all",
    "gateway --log-level=warn ui",
    // What hookgate cannot read may be `--allow-weaker`.
    "gateway reload \"$FLAGS\"",
    "sudo rm -f /home/dev/acme/.claude/settings.local.json",
    "bash -c 'rm ~/.gemini/settings.json'",
];

/// Lines that may weaken hookgate: what they touch is unknown.
const ASKED: &[&str] = &[
    r#"rm -f "$XDG_RUNTIME_DIR/hookgate/gateway.sock""#,
    r#"rm "$(command -v gateway-shim)""#,
    r#"python3 -c "import pathlib;p=pathlib.Path.home()/'.claude/settings.json';p.write_text('{}')""#,
    r#"cd "$d" && rm settings.json"#,
    r#"cp x "$dir/settings.json""#,
    "kill $(cat /tmp/pid) # the gateway",
    "node -e \"require('fs').rmSync(process.env.HOME+'/.config/hookgate',{recursive:true})\"",
    // Patterns pkill's POSIX regexes take and hookgate's engine does not
    // (a back-reference, a repeat past the size limit): could be anything.
    r"pkill -f 'gatewa(y)\1* serve'",
    "pkill -f 'x{30000}|node'",
];

/// Ordinary work on and near hookgate.
const ALLOWED: &[&str] = &[
    "cat ~/.claude/settings.json",
    "jq .hooks .claude/settings.json",
    "cp ~/.claude/settings.json /tmp/backup.json",
    "git diff .claude/settings.json",
    "ls -la ~/.config/hookgate",
    "cat ~/.config/hookgate/gateway.toml",
    "cat ~/.local/state/hookgate/gateway.log",
    "gateway status",
    "gateway approvals list --json",
    "gateway doctor",
    "gateway reload",
    "gateway reload --socket \"$HOOKGATE_SOCKET\"",
    "gateway --log-level debug status",
    "echo hookgate",
    "grep -r TODO src",
    "rm -rf target",
    "rm -rf ~/.cache/pip",
    "touch ~/.config/other.conf",
    "mkdir -p .claude/commands",
    "echo x > .claude/commands/review.md",
    "kill 1234",
    "kill %1",
    "pkill node",
    "pkill -f 'vite dev'",
    "pkill -f '^node .*server\\.js$'",
    "killall node",
    "systemctl --user status hookgate",
    "systemctl --user restart postgresql",
    "rm -f \"$tmpfile\"",
    "python3 manage.py migrate",
    "cp settings.json build/settings.json",
    "grep -r x ~",
];

#[test]
fn writes_to_hookgate_and_signals_to_the_gateway_are_denied() {
    for line in DENIED {
        assert_eq!(verdict(&shell(line)), Some(Action::Deny), "{line}");
    }
}

#[test]
fn what_hookgate_cannot_resolve_is_asked_about() {
    for line in ASKED {
        assert_eq!(verdict(&shell(line)), Some(Action::Ask), "{line}");
    }
}

#[test]
fn ordinary_work_on_and_near_hookgate_passes() {
    for line in ALLOWED {
        assert_eq!(verdict(&shell(line)), None, "{line}");
    }
}

#[test]
fn file_tools_are_held_to_the_same_paths() {
    let write = |path: &str| with_tool(file_tool("Write", ToolClass::FileWrite, path));
    let read = |path: &str| with_tool(file_tool("Read", ToolClass::FileRead, path));
    let search = |path: &str| with_tool(file_tool("Grep", ToolClass::Search, path));
    assert_eq!(
        verdict(&write("/home/dev/.claude/settings.json")),
        Some(Action::Deny)
    );
    assert_eq!(
        verdict(&write(".claude/settings.local.json")),
        Some(Action::Deny)
    );
    assert_eq!(
        verdict(&write("/home/dev/.config/hookgate/gateway.toml")),
        Some(Action::Deny)
    );
    assert_eq!(
        verdict(&read("/home/dev/.local/state/hookgate/http.token")),
        Some(Action::Deny)
    );
    assert_eq!(
        verdict(&search("/home/dev/.local/state/hookgate")),
        Some(Action::Deny)
    );
    assert_eq!(verdict(&read("/home/dev/.claude/settings.json")), None);
    assert_eq!(
        verdict(&read("/home/dev/.config/hookgate/gateway.toml")),
        None
    );
    assert_eq!(verdict(&write("/home/dev/acme/src/main.rs")), None);
}

#[test]
fn an_in_session_config_reload_is_refused_and_reasons_say_who() {
    let mut change = event(Dialect::ClaudeCode, EventKind::ConfigChange);
    change.capabilities.deny = true;
    assert_eq!(verdict(&change), Some(Action::Deny));
    let decision = protection().decide(&shell("pkill gateway"));
    let reason = decision.reason.unwrap_or_default();
    assert!(reason.starts_with(REASON_PREFIX), "{reason}");
    assert!(reason.contains("gateway"), "{reason}");
    let decision = protection().decide(&shell("rm ~/.config/hookgate/gateway.toml"));
    let reason = decision.reason.unwrap_or_default();
    assert!(reason.contains("hookgate's config"), "{reason}");
    // An event the agent cannot block gets no opinion.
    let mut late = shell("pkill gateway");
    late.capabilities.deny = false;
    assert!(protection().decide(&late).is_neutral());
}

/// `relation` for a path anywhere compares in place; it must say what the
/// plain text search it replaced says, overlapping matches included.
#[test]
fn a_path_anywhere_relates_as_the_text_search_says() {
    use super::targets::Relation;
    fn by_text(tail: &str, path: &str) -> Option<Relation> {
        if path == tail
            || path.ends_with(&format!("/{tail}"))
            || path.starts_with(&format!("{tail}/"))
            || path.contains(&format!("/{tail}/"))
        {
            return Some(Relation::Inside);
        }
        let parts: Vec<&str> = tail.split('/').collect();
        (1..parts.len())
            .map(|n| parts[..n].join("/"))
            .any(|a| path == a || path.ends_with(&format!("/{a}")))
            .then_some(Relation::Ancestor)
    }
    let tails = [".claude/settings.json", "a/a", "a", ".qwen", "x/y/z"];
    let paths = [
        "",
        "/",
        "a",
        "a/",
        "/a",
        "/a/a",
        "/a/a/a/",
        "a/a/b",
        "b/a/a/c",
        "/x/a/ab",
        ".claude",
        "/p/.claude",
        "/p/.claude/settings.json",
        "/p/.claude/settings.json/x",
        ".claude/settings.json",
        "/p/.claude/settings.jsonx",
        "/p/x.claude",
        "x/y",
        "/q/x/y",
        "/q/x/y/z/w",
        "x/y/zz",
        "/é/x/y",
        "/é/a/é",
    ];
    for tail in tails {
        let protected = Protected {
            pattern: Pattern::Anywhere(tail.to_owned()),
            secret: false,
            what: String::new(),
        };
        for path in paths {
            assert_eq!(
                protected.relation(path),
                by_text(tail, path),
                "{tail} vs {path}"
            );
        }
    }
}

#[test]
fn a_small_attempt_answers_as_the_full_check_or_gives_up() {
    let protection = protection();
    for line in DENIED.iter().chain(ASKED).chain(ALLOWED) {
        let event = shell(line);
        let first = protection.try_decide(&event, crate::INLINE_WORK, None);
        assert_eq!(first, Some(protection.decide(&event)), "{line}");
    }
    // Past the small budget: no answer inline; in full, still too complex
    // (so denied), or checked.
    let mut doubling = String::from("v0=xxxxxxxx; ");
    for i in 1..40 {
        doubling.push_str(&format!("v{i}=\"$v{}$v{}\"; ", i - 1, i - 1));
    }
    doubling.push_str("( ( ( eval \"rm $v39 ~/.config/hookgate\" ) ) )");
    let pad = "x".repeat(usize::try_from(crate::INLINE_WORK).unwrap_or(0));
    let comment = format!("rm ~/.config/hookgate/gateway.toml # {pad}");
    for line in [&doubling, &comment] {
        let event = shell(line);
        assert_eq!(
            protection.try_decide(&event, crate::INLINE_WORK, None),
            None,
            "{line:.60}"
        );
        let full = protection.decide(&event);
        assert_eq!(full.permission, Permission::Deny, "{line:.60}");
    }
    let reason = protection
        .decide(&shell(&doubling))
        .reason
        .unwrap_or_default();
    assert!(reason.contains("too complex"), "{reason}");
    // With the whole budget every answer is final.
    assert!(
        protection
            .try_decide(&shell(&doubling), crate::MAX_WORK, None)
            .is_some()
    );
}

/// The paths a line names are compared with every part of hookgate, and
/// that work is drawn from the budget as the parse is: an attempt with
/// just the parse's units gives up instead of comparing on past them.
#[test]
fn comparing_the_paths_a_line_names_draws_from_the_budget() {
    let protection = protection();
    let line = format!("rm {}", "~/.config/hook*/a ".repeat(10));
    let event = shell(&line);
    let mut parse_only = Budget::unlimited();
    let place = crate::shell::Place {
        cwd: event.cwd.as_deref(),
        home: protection.home.as_deref(),
        fold: false,
    };
    crate::shell::parse(&line, place, &mut parse_only);
    let parse_units = u64::MAX - parse_only.left();
    assert_eq!(protection.try_decide(&event, parse_units + 1, None), None);
    let full = protection.try_decide(&event, crate::INLINE_WORK, None);
    assert_eq!(full, Some(protection.decide(&event)));
}
