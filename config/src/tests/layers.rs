//! The managed layer: what a user config can and cannot do to the system's.

use hookgate_adapters::{Dialect, EventKind, Permission};

use super::*;
use crate::testing::{event, shell_tool};

const SYSTEM: &str = r#"
[server]
on_unparsed = "closed"
queue_wait_ms = 300

[[subscriber]]
name = "policy"
endpoint = "http://127.0.0.1:9"
on_error = "deny"
locked = true

[[subscriber]]
name = "team"
endpoint = "http://127.0.0.1:10"

[[subscriber]]
name = "guard"
builtin = "guard"
events = ["pre_tool_use"]
priority = 50

[[subscriber.rules]]
command = ["terraform"]
subcommand = ["destroy"]
reason = "org: no terraform destroy"
locked = true

[[subscriber.rules]]
command = ["make"]
reason = "team: no make"
"#;

/// `text` as a source of `layer`.
pub(super) fn source(layer: Layer, origin: &str, text: &str) -> Source {
    Source {
        layer,
        origin: origin.to_owned(),
        text: text.to_owned(),
    }
}

/// The system layer above (on no default) and `user` over it.
fn merged(user: &str) -> Config {
    let sources = [
        source(Layer::System, "f.toml", SYSTEM),
        source(Layer::User, "u.toml", user),
    ];
    Config::from_layers(&sources, &env()).unwrap()
}

fn names_and_layers(config: &Config) -> Vec<(&str, &str, bool)> {
    config
        .subscribers
        .iter()
        .map(|s| (s.name.as_str(), s.layer.as_str(), s.locked))
        .collect()
}

fn on_error(config: &Config, name: &str) -> Option<OnError> {
    config.subscribers.iter().find_map(|s| match &s.kind {
        SubscriberKind::Remote { on_error, .. } if s.name == name => Some(*on_error),
        _ => None,
    })
}

pub(super) fn guard_says(config: &Config, name: &str, command: &str) -> Option<Permission> {
    let mut e = event(Dialect::ClaudeCode, EventKind::PreToolUse);
    e.capabilities.deny = true;
    e.tool = Some(shell_tool("Bash", command));
    config.subscribers.iter().find_map(|s| match &s.kind {
        SubscriberKind::Guard { guard, .. } if s.name == name => Some(guard.decide(&e).permission),
        _ => None,
    })
}

#[test]
fn a_locked_subscriber_cannot_be_replaced_weakened_or_disabled() {
    let weakened = merged(
        r#"
[[subscriber]]
name = "policy"
endpoint = "http://127.0.0.1:11"
on_error = "allow"
"#,
    );
    assert_eq!(on_error(&weakened, "policy"), Some(OnError::Deny));
    assert_eq!(
        weakened.refused,
        vec![Refusal {
            what: "policy".into(),
            attempt: "extend"
        }]
    );
    let replaced = merged(
        "[[subscriber]]\nname = \"policy\"\nreplace = true\nendpoint = \"http://127.0.0.1:11\"\n",
    );
    assert_eq!(on_error(&replaced, "policy"), Some(OnError::Deny));
    assert_eq!(replaced.refused[0].attempt, "replace");
    let disabled = merged("[[subscriber]]\nname = \"policy\"\nenabled = false\n");
    assert_eq!(on_error(&disabled, "policy"), Some(OnError::Deny));
    assert_eq!(disabled.refused[0].attempt, "disable");
    // Adding to it is refused too: a table without `endpoint` extends.
    let extended = merged("[[subscriber]]\nname = \"policy\"\non_error = \"allow\"\n");
    assert_eq!(on_error(&extended, "policy"), Some(OnError::Deny));
    assert_eq!(extended.refused[0].attempt, "extend");
}

#[test]
fn unlocked_subscribers_are_the_users_to_replace_or_remove() {
    let config = merged(
        r#"
[[subscriber]]
name = "team"
enabled = false

[[subscriber]]
name = "mine"
endpoint = "http://127.0.0.1:12"
"#,
    );
    assert_eq!(
        names_and_layers(&config),
        vec![
            ("policy", "system", true),
            ("guard", "system", false),
            ("mine", "user", false)
        ]
    );
    assert!(config.refused.is_empty());
    assert_eq!(config.system_origin.as_deref(), Some("f.toml"));
    assert_eq!(config.origin, "u.toml");
}

#[test]
fn a_replaced_guard_keeps_the_systems_locked_rules() {
    for user in [
        // Replaced by a guard without the rules, on other events.
        "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\nreplace = true\nevents = [\"stop\"]\n",
        // Removed.
        "[[subscriber]]\nname = \"guard\"\nenabled = false\n",
        // Refiltered: the locked rules keep the system's filter.
        "[[subscriber]]\nname = \"guard\"\nevents = [\"stop\"]\n",
    ] {
        let config = merged(user);
        let locked = config
            .subscribers
            .iter()
            .find(|s| s.name == "guard.locked")
            .unwrap();
        assert_eq!(
            (locked.layer, locked.locked, locked.priority),
            (Layer::System, true, 50)
        );
        assert_eq!(
            guard_says(&config, "guard.locked", "terraform destroy -auto-approve"),
            Some(Permission::Deny),
            "{user}"
        );
        // The unlocked rule went with the user's change.
        assert_ne!(
            guard_says(&config, "guard.locked", "make all"),
            Some(Permission::Deny)
        );
        assert!(config.refused.is_empty(), "{user}: {:?}", config.refused);
    }
    // Left alone, the system guard is whole and there is no split.
    let config = merged("");
    assert_eq!(
        guard_says(&config, "guard", "make all"),
        Some(Permission::Deny)
    );
    assert!(config.subscribers.iter().all(|s| s.name != "guard.locked"));
}

#[test]
fn a_user_cannot_take_the_name_of_the_locked_rules() {
    let config = merged(
        "[[subscriber]]\nname = \"guard\"\nenabled = false\n\n\
         [[subscriber]]\nname = \"guard.locked\"\nbuiltin = \"guard\"\n",
    );
    assert_eq!(
        guard_says(&config, "guard.locked", "terraform destroy"),
        Some(Permission::Deny)
    );
    assert_eq!(config.refused.len(), 1);
}

#[test]
fn a_locked_rule_cannot_be_replaced_or_removed_by_id() {
    let ids: Vec<String> = merged("")
        .subscribers
        .iter()
        .find(|s| s.name == "guard")
        .map(|s| match &s.kind {
            SubscriberKind::Guard { guard } => guard.rules().iter().map(|r| r.id.clone()).collect(),
            _ => Vec::new(),
        })
        .unwrap();
    let (terraform, make) = (&ids[0], &ids[1]);
    let config = merged(&format!(
        "[[subscriber]]\nname = \"guard\"\n\
         [[subscriber.rules]]\nid = \"{terraform}\"\nenabled = false\n\
         [[subscriber.rules]]\nid = \"{make}\"\nenabled = false\n"
    ));
    assert_eq!(
        guard_says(&config, "guard", "terraform destroy"),
        Some(Permission::Deny)
    );
    assert_ne!(
        guard_says(&config, "guard", "make all"),
        Some(Permission::Deny)
    );
    assert_eq!(
        config.refused,
        vec![Refusal {
            what: format!("guard rule {terraform}"),
            attempt: "disable"
        }]
    );
}

#[test]
fn server_keys_merge_one_by_one_with_the_user_on_top() {
    let config = merged("[server]\nqueue_wait_ms = 100\n");
    assert_eq!(
        config.server.on_unparsed,
        hookgate_adapters::FailMode::Closed
    );
    assert_eq!(
        config.server.queue_wait,
        std::time::Duration::from_millis(100)
    );
}

#[test]
fn only_the_system_layer_locks() {
    let err = Config::parse(
        "user.toml",
        "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n\n[[subscriber.rules]]\ncommand = [\"rm\"]\nreason = \"r\"\nlocked = true\n",
        &env(),
    )
    .unwrap_err();
    assert_eq!(err.key.as_deref(), Some("subscriber[0].rules[0].locked"));
    let err = Config::parse(
        "user.toml",
        "[[subscriber]]\nname = \"p\"\nendpoint = \"http://127.0.0.1:1\"\nlocked = true\n",
        &env(),
    )
    .unwrap_err();
    assert_eq!(
        (err.key.as_deref(), err.line),
        (Some("subscriber[0].locked"), 4)
    );
}

#[test]
fn the_system_config_is_found_per_platform_or_where_the_override_says() {
    let found = env_of(&[("ProgramData", r"C:\ProgramData")]).system_config;
    let expected = per_os(
        PathBuf::from("/etc/hookgate/gateway.toml"),
        PathBuf::from(r"C:\ProgramData")
            .join("hookgate")
            .join("gateway.toml"),
    );
    assert_eq!(found, Some(expected));
    let overridden = env_of(&[(SYSTEM_CONFIG_VAR, "/opt/org/hookgate.toml")]).system_config;
    assert_eq!(overridden, Some(PathBuf::from("/opt/org/hookgate.toml")));
}

/// Self-protection is on unless the system config turns it off; a user
/// config (which the hook path could reach) cannot say anything about it,
/// and no subscriber may take the built-in's name.
#[test]
fn only_the_system_config_holds_the_self_protection_switch() {
    let layers = |sources: &[Source]| Config::from_layers(sources, &env());
    let user = |text: &str| source(Layer::User, "u.toml", text);
    let off = "[server]\nself_protection = false\n";
    assert!(layers(&[user("")]).unwrap().server.self_protection);
    let system = source(Layer::System, "f.toml", off);
    assert!(
        !layers(std::slice::from_ref(&system))
            .unwrap()
            .server
            .self_protection
    );
    assert!(!layers(&[system, user("")]).unwrap().server.self_protection);
    for text in [off, "[server]\nself_protection = true\n"] {
        let err = layers(&[user(text)]).unwrap_err().to_string();
        assert!(err.contains("server.self_protection"), "{err}");
        assert!(err.contains("only the system config"), "{err}");
    }
    let named = "[[subscriber]]\nname = \"self-protection\"\nbuiltin = \"guard\"\n";
    let err = layers(&[user(named)]).unwrap_err().to_string();
    assert!(err.contains("built-in self-protection"), "{err}");
}
