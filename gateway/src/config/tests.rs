//! Config parsing: the embedded default works, and every kind of mistake is
//! reported at the right line and key.

use std::path::PathBuf;
use std::time::Duration;

use super::*;

fn env() -> Env {
    Env {
        home: Some(PathBuf::from("/home/dev")),
        xdg_config_home: None,
        xdg_state_home: None,
    }
}

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse("gw.toml", text, &env())
}

#[test]
fn embedded_default_is_valid_and_runs_guard_and_audit() {
    let config = parse(DEFAULT_TOML).unwrap();
    assert_eq!(config.server, ServerConfig::default());
    let kinds: Vec<(&str, &str)> = config
        .subscribers
        .iter()
        .map(|s| {
            let kind = match &s.kind {
                SubscriberKind::Guard { .. } => "guard",
                SubscriberKind::Audit { .. } => "audit",
                SubscriberKind::Remote { .. } => "remote",
            };
            (s.name.as_str(), kind)
        })
        .collect();
    assert_eq!(kinds, [("guard", "guard"), ("audit", "audit")]);
    let audit = config.subscribers.iter().find_map(|s| match &s.kind {
        SubscriberKind::Audit { path, .. } => Some(path.clone()),
        _ => None,
    });
    assert_eq!(
        audit,
        Some(PathBuf::from("/home/dev/.local/state/hookgate/audit.jsonl"))
    );
}

#[test]
fn a_full_remote_subscriber() {
    let config = parse(
        r#"
[server]
socket = "/run/user/1/hg.sock"
max_connections = 8

[[subscriber]]
name = "policy"
endpoint = "http://127.0.0.1:50051"
mode = "decide"
timeout_ms = 150
on_error = "deny"
priority = -3
agents = ["claude-code", "cursor"]
events = ["pre_tool_use"]
tools = ["shell", "mcp__*"]

[[subscriber]]
name = "logger"
endpoint = "unix:///run/user/1/logger.sock"
mode = "observe"
queue_size = 16
"#,
    )
    .unwrap();
    assert_eq!(
        config.server.socket,
        Some(PathBuf::from("/run/user/1/hg.sock"))
    );
    assert_eq!(config.server.max_connections, 8);
    let policy = &config.subscribers[0];
    assert_eq!(policy.priority, -3);
    match &policy.kind {
        SubscriberKind::Remote {
            endpoint,
            mode,
            timeout,
            on_error,
            ..
        } => {
            assert_eq!(endpoint, "http://127.0.0.1:50051");
            assert_eq!(*mode, Mode::Decide);
            assert_eq!(*timeout, Duration::from_millis(150));
            assert_eq!(*on_error, OnError::Deny);
        }
        other => panic!("{other:?}"),
    }
    match &config.subscribers[1].kind {
        SubscriberKind::Remote {
            mode,
            timeout,
            on_error,
            queue_size,
            ..
        } => {
            assert_eq!(*mode, Mode::Observe);
            assert_eq!(*timeout, Duration::from_millis(200), "default timeout");
            assert_eq!(*on_error, OnError::Allow, "default on_error");
            assert_eq!(*queue_size, 16);
        }
        other => panic!("{other:?}"),
    }
}

/// (what, config text, expected line, expected key, a fragment of the message)
type Case = (
    &'static str,
    &'static str,
    usize,
    Option<&'static str>,
    &'static str,
);

#[test]
fn errors_name_file_line_and_key() {
    let cases: &[Case] = &[
        ("syntax", "[server\n", 1, Some("server"), "unclosed table"),
        (
            "unknown top key",
            "\nsocket = \"/x\"\n",
            2,
            Some("socket"),
            "unknown field",
        ),
        (
            "unknown server key",
            "[server]\nmax_conns = 3\n",
            2,
            Some("max_conns"),
            "unknown field",
        ),
        (
            "wrong type",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntimeout_ms = \"fast\"\n",
            4,
            Some("timeout_ms"),
            "invalid type",
        ),
        (
            "unknown subscriber key",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntimeout = 3\n",
            4,
            Some("timeout"),
            "unknown field",
        ),
        (
            "bad mode",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nmode = \"maybe\"\n",
            4,
            Some("mode"),
            "decide",
        ),
        (
            "bad on_error",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\non_error = \"explode\"\n",
            4,
            Some("on_error"),
            "allow",
        ),
        (
            "missing name",
            "[[subscriber]]\nendpoint = \"http://a:1\"\n",
            1,
            Some("subscriber"),
            "name",
        ),
        (
            "no endpoint",
            "[[subscriber]]\nname = \"p\"\n",
            2,
            Some("subscriber[0].endpoint"),
            "needs an `endpoint`",
        ),
        (
            "bad endpoint scheme",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"https://a:1\"\n",
            3,
            Some("subscriber[0].endpoint"),
            "TLS is not supported",
        ),
        (
            "relative unix endpoint",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"unix://run/x.sock\"\n",
            3,
            Some("subscriber[0].endpoint"),
            "absolute",
        ),
        (
            "duplicate name",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\n[[subscriber]]\nname = \"p\"\nendpoint = \"http://b:1\"\n",
            5,
            Some("subscriber[1].name"),
            "duplicate",
        ),
        (
            "timeout out of range",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntimeout_ms = 0\n",
            4,
            Some("subscriber[0].timeout_ms"),
            "out of range",
        ),
        (
            "unknown agent",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nagents = [\"cursor\",\n  \"vim\"]\n",
            5,
            Some("subscriber[0].agents[1]"),
            "`vim`",
        ),
        (
            "unknown event",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nevents = [\"PreToolUse\"]\n",
            4,
            Some("subscriber[0].events[0]"),
            "unknown event kind",
        ),
        (
            "bad glob",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntools = [\"a[b\"]\n",
            4,
            Some("subscriber[0].tools[0]"),
            "glob",
        ),
        (
            "empty filter",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntools = []\n",
            2,
            Some("subscriber[0].tools"),
            "matches nothing",
        ),
        (
            "builtin with endpoint",
            "[[subscriber]]\nname = \"p\"\nbuiltin = \"guard\"\nendpoint = \"http://a:1\"\n",
            4,
            Some("subscriber[0].endpoint"),
            "no endpoint",
        ),
        (
            "unknown builtin",
            "[[subscriber]]\nname = \"p\"\nbuiltin = \"firewall\"\n",
            3,
            Some("builtin"),
            "audit",
        ),
        (
            "rules on a remote",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nrules = []\n",
            4,
            Some("subscriber[0].rules"),
            "only the built-in `guard`",
        ),
        (
            "observing guard",
            "[[subscriber]]\nname = \"p\"\nbuiltin = \"guard\"\nmode = \"observe\"\n",
            4,
            Some("subscriber[0].mode"),
            "only decides",
        ),
        (
            "bad regex",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[[subscriber.rules]]\nshell = 'rm (-rf'\nreason = \"x\"\n",
            5,
            Some("subscriber[0].rules[0].shell"),
            "bad regex",
        ),
        (
            "rule without target",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\nrules = [{ reason = \"x\" }]\n",
            4,
            Some("subscriber[0].rules[0]"),
            "needs one of",
        ),
        (
            "rule with two targets",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\nrules = [\n  { shell = \"a\", file_path = \"b\", reason = \"x\" },\n]\n",
            5,
            Some("subscriber[0].rules[0].file_path"),
            "exactly one target",
        ),
        (
            "unknown rule key",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\nrules = [{ shel = \"a\", reason = \"x\" }]\n",
            4,
            Some("shel"),
            "unknown field",
        ),
        (
            "relative audit path",
            "[[subscriber]]\nname = \"a\"\nbuiltin = \"audit\"\npath = \"audit.jsonl\"\n",
            4,
            Some("subscriber[0].path"),
            "absolute",
        ),
        (
            "relative socket",
            "[server]\nsocket = \"gw.sock\"\n",
            2,
            Some("server.socket"),
            "absolute",
        ),
        (
            "bad name",
            "[[subscriber]]\nname = \"my policy\"\nendpoint = \"http://a:1\"\n",
            2,
            Some("subscriber[0].name"),
            "characters",
        ),
    ];
    for (what, text, line, key, fragment) in cases {
        let err = match parse(text) {
            Ok(_) => panic!("{what}: accepted"),
            Err(err) => err,
        };
        assert_eq!(err.file, "gw.toml", "{what}");
        assert_eq!(err.line, *line, "{what}: {err}");
        assert_eq!(err.key.as_deref(), *key, "{what}: {err}");
        assert!(err.message.contains(fragment), "{what}: {err}");
        let shown = err.to_string();
        assert!(
            shown.starts_with(&format!("gw.toml:{line}:")),
            "{what}: {shown}"
        );
    }
}

#[test]
fn tilde_audit_paths_expand_to_home() {
    let config =
        parse("[[subscriber]]\nname = \"a\"\nbuiltin = \"audit\"\npath = \"~/logs/a.jsonl\"\n")
            .unwrap();
    match &config.subscribers[0].kind {
        SubscriberKind::Audit { path, .. } => {
            assert_eq!(path, &PathBuf::from("/home/dev/logs/a.jsonl"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn load_reads_the_file_or_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gw.toml");
    std::fs::write(&path, "[server]\nbogus = 1\n").unwrap();
    let err = Config::load(Some(&path)).unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.starts_with(&format!("{}:2:", path.display())),
        "{shown}"
    );
    assert!(shown.contains("`bogus`"), "{shown}");

    let missing = dir.path().join("nope.toml");
    assert!(matches!(
        Config::load(Some(&missing)),
        Err(LoadError::Read { .. })
    ));
}

#[test]
fn env_paths_follow_xdg() {
    let env = Env {
        home: Some(PathBuf::from("/h")),
        xdg_config_home: Some(PathBuf::from("/cfg")),
        xdg_state_home: None,
    };
    assert_eq!(
        env.user_config_path(),
        Some(PathBuf::from("/cfg/hookgate/gateway.toml"))
    );
    assert_eq!(
        env.default_audit_path(),
        Some(PathBuf::from("/h/.local/state/hookgate/audit.jsonl"))
    );
}

#[test]
fn deadlines_the_shim_would_not_wait_for_are_found() {
    let sub = |name: &str, extra: &str| {
        format!("[[subscriber]]\nname = \"{name}\"\nendpoint = \"http://127.0.0.1:1\"\n{extra}\n")
    };
    let text = [
        "[server]\nqueue_wait_ms = 500\n".to_owned(),
        sub("fits", "timeout_ms = 4499"),
        sub("reaches", "timeout_ms = 4500"),
        sub("watcher", "timeout_ms = 60000\nmode = \"observe\""),
    ]
    .concat();
    let config = parse(&text).unwrap();
    assert_eq!(
        config.outlasting_the_shim(),
        [("reaches", Duration::from_millis(5000))]
    );
    assert!(parse("").unwrap().outlasting_the_shim().is_empty());
}
