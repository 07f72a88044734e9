//! What valid config files mean: the embedded default, a full remote
//! subscriber, path expansion, where the environment puts files on each
//! platform, and the deadline check against the shim.

use std::path::PathBuf;
use std::time::Duration;

use super::*;

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
                SubscriberKind::Rego(_) => "rego",
                SubscriberKind::Memory(_) => "memory",
                SubscriberKind::Approval(_) => "approval",
            };
            (s.name.as_str(), kind)
        })
        .collect();
    assert_eq!(kinds, [("guard", "guard"), ("audit", "audit")]);
    let audit = config.subscribers.iter().find_map(|s| match &s.kind {
        SubscriberKind::Audit { path, .. } => Some(path.clone()),
        _ => None,
    });
    let expected = per_os(
        "/home/dev/.local/state/hookgate/audit.jsonl",
        r"C:\Users\dev\AppData\Local\hookgate\audit.jsonl",
    );
    assert_eq!(audit, Some(PathBuf::from(expected)));
}

/// The same file on both platforms but for what only one can use: the
/// socket (a path, or a pipe name) and the observer's endpoint (`unix://`
/// is Unix-only, see `errors::platform_values_name_file_line_and_key`).
#[test]
fn a_full_remote_subscriber() {
    let (socket, logger) = per_os(
        ("/run/user/1/hg.sock", "unix:///run/user/1/logger.sock"),
        (r"\\.\pipe\hookgate-dev\gateway", "http://localhost:50052"),
    );
    let config = parse(&format!(
        r#"
[server]
socket = '{socket}'
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
endpoint = "{logger}"
mode = "observe"
queue_size = 16
"#,
    ))
    .unwrap();
    assert_eq!(config.server.socket, Some(PathBuf::from(socket)));
    assert_eq!(config.server.max_connections, 8);
    let policy = &config.subscribers[0];
    assert_eq!(policy.priority, -3);
    match &policy.kind {
        SubscriberKind::Remote {
            connection,
            mode,
            timeout,
            on_error,
            ..
        } => {
            assert_eq!(connection.endpoints, ["http://127.0.0.1:50051"]);
            assert_eq!((&connection.tls, &connection.token), (&None, &None));
            assert_eq!(*mode, Mode::Decide);
            assert_eq!(*timeout, Duration::from_millis(150));
            assert_eq!(*on_error, OnError::Deny);
        }
        other => panic!("{other:?}"),
    }
    match &config.subscribers[1].kind {
        SubscriberKind::Remote {
            connection,
            mode,
            timeout,
            on_error,
            queue_size,
            ..
        } => {
            assert_eq!(connection.endpoints, [logger]);
            assert_eq!(*mode, Mode::Observe);
            assert_eq!(*timeout, Duration::from_millis(200), "default timeout");
            assert_eq!(*on_error, OnError::Allow, "default on_error");
            assert_eq!(*queue_size, 16);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn tilde_audit_paths_expand_to_home() {
    let config =
        parse("[[subscriber]]\nname = \"a\"\nbuiltin = \"audit\"\npath = \"~/logs/a.jsonl\"\n")
            .unwrap();
    match &config.subscribers[0].kind {
        SubscriberKind::Audit { path, .. } => assert_eq!(
            path,
            &PathBuf::from(per_os(
                "/home/dev/logs/a.jsonl",
                r"C:\Users\dev\logs\a.jsonl"
            ))
        ),
        other => panic!("{other:?}"),
    }
}

/// Set variables win everywhere (an empty one counts as unset); Windows
/// fills the rest from the user's folders, which Unix ignores.
#[test]
fn env_falls_back_to_the_windows_folders_on_windows_only() {
    let env = env_of(&WINDOWS_FOLDERS);
    let folder = |v: &str| per_os(None, Some(PathBuf::from(v)));
    assert_eq!(env.home, folder(r"C:\Users\dev"));
    assert_eq!(env.xdg_config_home, folder(r"C:\Users\dev\AppData\Roaming"));
    assert_eq!(env.xdg_state_home, folder(r"C:\Users\dev\AppData\Local"));
    assert_eq!(
        env.user_config_path(),
        folder(r"C:\Users\dev\AppData\Roaming\hookgate\gateway.toml")
    );

    let set = [
        ("HOME", "/h"),
        ("XDG_CONFIG_HOME", "/cfg"),
        ("XDG_STATE_HOME", ""),
    ];
    let env = env_of(&[&set[..], &WINDOWS_FOLDERS[..]].concat());
    assert_eq!(env.home, Some(PathBuf::from("/h")));
    assert_eq!(env.xdg_config_home, Some(PathBuf::from("/cfg")));
    assert_eq!(env.xdg_state_home, folder(r"C:\Users\dev\AppData\Local"));
}

#[test]
fn env_paths_follow_xdg() {
    let env = Env {
        home: Some(PathBuf::from("/h")),
        xdg_config_home: Some(PathBuf::from("/cfg")),
        xdg_state_home: None,
        system_config: None,
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

#[test]
fn breakers_default_to_five_failures_and_five_seconds() {
    let breaker = |extra: &str| {
        let text = format!("[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\n{extra}");
        match parse(&text).unwrap().subscribers.remove(0).kind {
            SubscriberKind::Remote { breaker, .. } => breaker,
            other => panic!("{other:?}"),
        }
    };
    let cases = [
        ("", 5, 5000),
        ("breaker_failures = 0\n", 0, 5000),
        ("breaker_failures = 2\nbreaker_cooldown_ms = 750\n", 2, 750),
    ];
    for (extra, failures, cooldown_ms) in cases {
        let got = breaker(extra);
        assert_eq!(got.failures, failures, "{extra}");
        assert_eq!(got.cooldown, Duration::from_millis(cooldown_ms), "{extra}");
    }
}

#[test]
fn shadow_is_a_remote_mode_only() {
    let remote = "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nmode = \"shadow\"\n";
    match parse(remote).unwrap().subscribers.remove(0).kind {
        SubscriberKind::Remote { mode, .. } => assert_eq!(mode, Mode::Shadow),
        other => panic!("{other:?}"),
    }
    let guard = "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\nmode = \"shadow\"\n";
    let err = parse(guard).unwrap_err();
    assert_eq!(err.key.as_deref(), Some("subscriber[0].mode"), "{err}");
}

#[test]
fn metrics_addr_is_an_address_or_a_port_on_loopback() {
    let addr = |text: &str| {
        parse(&format!("[server]\nmetrics_addr = {text}\n")).map(|c| c.server.metrics_addr)
    };
    assert_eq!(
        addr("9464").unwrap(),
        Some("127.0.0.1:9464".parse().unwrap())
    );
    assert_eq!(
        addr("\"[::1]:9\"").unwrap(),
        Some("[::1]:9".parse().unwrap())
    );
    assert_eq!(parse("").unwrap().server.metrics_addr, None);
    for bad in ["70000", "\"localhost:9464\"", "\"9464\""] {
        let err = addr(bad).unwrap_err();
        assert_eq!(
            (err.line, err.key.as_deref()),
            (2, Some("server.metrics_addr")),
            "{bad}: {err}"
        );
    }
}
