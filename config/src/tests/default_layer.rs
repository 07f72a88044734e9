//! The user config over the embedded default: a subscriber or a rule
//! adds, removing is explicit, and old full copies of the default keep
//! working.

use hookgate_adapters::Permission;

use super::layers::{guard_says, source};
use super::*;

/// The embedded default and `user` over it.
fn over_default(user: &str) -> Config {
    try_over_default(user).unwrap()
}

fn try_over_default(user: &str) -> Result<Config, ConfigError> {
    let sources = [Source::embedded(), source(Layer::User, "user.toml", user)];
    Config::from_layers(&sources, &env())
}

fn names(config: &Config) -> Vec<&str> {
    config.subscribers.iter().map(|s| s.name.as_str()).collect()
}

fn rule_ids(config: &Config, name: &str) -> Vec<String> {
    config
        .subscribers
        .iter()
        .find(|s| s.name == name)
        .map(|s| match &s.kind {
            SubscriberKind::Guard { guard } => guard.rules().iter().map(|r| r.id.clone()).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default()
}

const ONE_RULE: &str = r#"
[[subscriber]]
name = "guard"

[[subscriber.rules]]
command = ["terraform"]
subcommand = ["destroy"]
reason = "no terraform destroy"
"#;

#[test]
fn a_one_rule_user_config_keeps_guard_and_audit() {
    let default = Config::embedded().unwrap();
    let config = over_default(ONE_RULE);
    assert_eq!(names(&config), ["guard", "audit"]);
    let ids = rule_ids(&config, "guard");
    assert_eq!(ids.len(), rule_ids(&default, "guard").len() + 1);
    assert_eq!(ids[..ids.len() - 1], rule_ids(&default, "guard")[..]);
    assert!(ids[ids.len() - 1].starts_with("auto-"), "{ids:?}");
    for command in ["terraform destroy", "rm -rf ~", "git push --force"] {
        assert_eq!(
            guard_says(&config, "guard", command),
            Some(Permission::Deny),
            "{command}"
        );
    }
    let guard = &config.subscribers[0];
    assert_eq!(guard.layer, Layer::Default);
    assert_eq!(guard.priority, 100, "the default's priority stays");
    assert_eq!(guard.provenance.rules.last(), Some(&Layer::User));
    assert_eq!(guard.provenance.rules[0], Layer::Default);
    assert!(config.warnings.is_empty(), "{:?}", config.warnings);
    assert_eq!(config.origin, "user.toml");
}

#[test]
fn a_new_subscriber_adds_and_keys_written_win() {
    let audit = per_os("/var/tmp/a.jsonl", r"C:\tmp\a.jsonl");
    let config = over_default(&format!(
        "[[subscriber]]\nname = \"policy\"\nendpoint = \"http://127.0.0.1:50051\"\n\n\
         [[subscriber]]\nname = \"audit\"\npath = '{audit}'\n"
    ));
    assert_eq!(names(&config), ["guard", "audit", "policy"]);
    let path = config.subscribers.iter().find_map(|s| match &s.kind {
        SubscriberKind::Audit { path, .. } => Some(path.clone()),
        _ => None,
    });
    assert_eq!(path, Some(PathBuf::from(audit)));
    assert_eq!(
        config.subscribers[1].provenance.keys.get("path"),
        Some(&Layer::User)
    );
    assert_eq!(
        config.subscribers[1].provenance.keys.get("builtin"),
        Some(&Layer::Default)
    );
}

#[test]
fn removing_is_explicit_by_name_rule_id_or_the_whole_default() {
    let no_guard = over_default("[[subscriber]]\nname = \"guard\"\nenabled = false\n");
    assert_eq!(names(&no_guard), ["audit"]);
    let nothing = over_default("[defaults]\nembedded = false\n");
    assert!(nothing.subscribers.is_empty());
    let mine = over_default(
        "[defaults]\nembedded = false\n\n[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n",
    );
    assert_eq!(rule_ids(&mine, "guard"), Vec::<String>::new());
    let one_less = over_default(
        "[[subscriber]]\nname = \"guard\"\n\n[[subscriber.rules]]\nid = \"private-key-read\"\nenabled = false\n",
    );
    assert!(!rule_ids(&one_less, "guard").contains(&"private-key-read".to_owned()));
    assert_eq!(
        rule_ids(&one_less, "guard").len(),
        rule_ids(&Config::embedded().unwrap(), "guard").len() - 1
    );
    let unknown = over_default(
        "[[subscriber]]\nname = \"guard\"\n\n[[subscriber.rules]]\nid = \"no-such\"\nenabled = false\n\n\
         [[subscriber]]\nname = \"ghost\"\nenabled = false\n",
    );
    assert_eq!(unknown.warnings.len(), 2, "{:?}", unknown.warnings);
    assert!(unknown.warnings[0].contains("no-such"));
    assert!(
        unknown.warnings[1].starts_with("user.toml:9:8: `ghost`"),
        "{:?}",
        unknown.warnings
    );
}

#[test]
fn a_rule_with_a_default_rules_id_replaces_it_in_place() {
    let config = over_default(
        "[[subscriber]]\nname = \"guard\"\n\n[[subscriber.rules]]\nid = \"private-key-read\"\n\
         path = '\\.(pem|key)$'\naccess = \"read\"\nreason = \"keys: never\"\n",
    );
    let ids = rule_ids(&config, "guard");
    assert_eq!(ids, rule_ids(&Config::embedded().unwrap(), "guard"));
    let index = ids.iter().position(|i| i == "private-key-read").unwrap();
    assert_eq!(config.subscribers[0].provenance.rules[index], Layer::User);
}

#[test]
fn an_old_full_copy_of_the_default_means_the_default() {
    let default = Config::embedded().unwrap();
    let copy = over_default(include_str!("fixtures/default-0.1.toml"));
    assert_eq!(names(&copy), ["guard", "audit"]);
    assert_eq!(rule_ids(&copy, "guard"), rule_ids(&default, "guard"));
    assert!(copy.warnings.is_empty(), "{:?}", copy.warnings);
    // The current default copied, ids and all: the same.
    let current = over_default(DEFAULT_TOML);
    assert_eq!(rule_ids(&current, "guard"), rule_ids(&default, "guard"));
}

#[test]
fn a_copy_leaving_rules_out_keeps_them_and_says_so_unless_it_replaces() {
    let trimmed: String = {
        // The old copy without its `.pem` ask rule (the last four lines
        // of that rule's table).
        let old = include_str!("fixtures/default-0.1.toml");
        let start = old.find("path = '\\.(pem|key|p12|pfx)$'").unwrap();
        let table = old[..start].rfind("[[subscriber.rules]]").unwrap();
        let end = start + old[start..].find("[[subscriber.rules]]").unwrap();
        format!("{}{}", &old[..table], &old[end..])
    };
    let config = over_default(&trimmed);
    assert!(rule_ids(&config, "guard").contains(&"private-key-read".to_owned()));
    assert_eq!(config.warnings.len(), 1, "{:?}", config.warnings);
    assert!(
        config.warnings[0].contains("leaves out 1 of the lower layer's rules (private-key-read)"),
        "{}",
        config.warnings[0]
    );
    let replaced = over_default(&trimmed.replacen(
        "builtin = \"guard\"",
        "builtin = \"guard\"\nreplace = true",
        1,
    ));
    assert!(!rule_ids(&replaced, "guard").contains(&"private-key-read".to_owned()));
    assert!(replaced.warnings.is_empty());
}

#[test]
fn an_extension_keeps_the_kind_and_says_where_not() {
    let err =
        try_over_default("[[subscriber]]\nname = \"guard\"\nbuiltin = \"audit\"\n").unwrap_err();
    assert_eq!(
        (err.file.as_str(), err.line, err.key.as_deref()),
        ("user.toml", 3, Some("subscriber[0].builtin"))
    );
    assert!(err.message.contains("replace = true"), "{err}");
    let err = try_over_default("[[subscriber]]\nname = \"audit\"\n\n[[subscriber.rules]]\ncommand = [\"x\"]\nreason = \"r\"\n")
        .unwrap_err();
    assert_eq!(err.key.as_deref(), Some("subscriber[0].rules"));
    let err = try_over_default(
        "[[subscriber]]\nname = \"g2\"\nbuiltin = \"guard\"\n\n[[subscriber.rules]]\nid = \"x\"\nenabled = false\n",
    )
    .unwrap_err();
    assert_eq!(
        (err.line, err.key.as_deref()),
        (7, Some("subscriber[0].rules"))
    );
    // A bad rule in an extension: its own line.
    let err = try_over_default(
        "[[subscriber]]\nname = \"guard\"\n\n[[subscriber.rules]]\ncommand = [\"rm\"]\noperand = '('\nreason = \"r\"\n",
    )
    .unwrap_err();
    assert_eq!(
        (err.line, err.key.as_deref()),
        (6, Some("subscriber[0].rules[0].operand"))
    );
}

#[test]
fn rule_ids_are_checked_unique_and_derived_ones_stable() {
    let err = parse(
        "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n\n[[subscriber.rules]]\nid = \"Bad Id\"\ncommand = [\"x\"]\nreason = \"r\"\n",
    )
    .unwrap_err();
    assert_eq!(err.key.as_deref(), Some("subscriber[0].rules[0].id"));
    let twice = "[[subscriber.rules]]\nid = \"a\"\ncommand = [\"x\"]\nreason = \"r\"\n";
    let err = parse(&format!(
        "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n\n{twice}\n{twice}"
    ))
    .unwrap_err();
    assert_eq!(
        (err.line, err.key.as_deref()),
        (11, Some("subscriber[0].rules[1].id"))
    );
    let one = || rule_ids(&over_default(ONE_RULE), "guard");
    assert_eq!(one(), one(), "derived from the content, not the run");
    let reworded = ONE_RULE.replace("no terraform destroy", "never destroy");
    assert_ne!(
        rule_ids(&over_default(&reworded), "guard").last(),
        one().last()
    );
}

/// The embedded layer is built only through the merged config: what
/// `embedded = false` drops is never compiled, and a mistake in what is
/// kept still fails the load.
#[test]
fn the_default_layer_is_built_only_where_it_is_kept() {
    let bad_default = source(
        Layer::Default,
        EMBEDDED_NAME,
        "[[subscriber]]\nname = \"guard\"\nbuiltin = \"guard\"\n\
         [[subscriber.rules]]\nshell = 'rm (-rf'\nreason = \"x\"\n",
    );
    let dropped = [
        bad_default.clone(),
        source(Layer::User, "user.toml", "[defaults]\nembedded = false\n"),
    ];
    let config = Config::from_layers(&dropped, &env()).unwrap();
    assert!(names(&config).is_empty(), "{:?}", names(&config));
    let kept = [bad_default, source(Layer::User, "user.toml", ONE_RULE)];
    let err = Config::from_layers(&kept, &env()).unwrap_err();
    assert!(err.to_string().contains("bad regex"), "{err}");
}

/// macOS and Windows run the embedded guard with case folded: every rule
/// of it compiles so (a rule that did not would refuse the config there).
#[test]
fn the_default_guard_compiles_folded_whole() {
    let folded = over_default("[[subscriber]]\nname = \"guard\"\ncase_insensitive = true\n");
    let guard = folded
        .subscribers
        .iter()
        .find_map(|s| match &s.kind {
            SubscriberKind::Guard { guard } if s.name == "guard" => Some(guard),
            _ => None,
        })
        .expect("the default guard");
    assert!(guard.uncompiled().is_empty());
    let unfolded = over_default("[[subscriber]]\nname = \"guard\"\ncase_insensitive = false\n");
    assert_eq!(rule_ids(&folded, "guard"), rule_ids(&unfolded, "guard"));
    // Folded indeed: `RM` runs `rm` there.
    let line = "RM -rf ~";
    assert_eq!(guard_says(&folded, "guard", line), Some(Permission::Deny));
    assert_eq!(
        guard_says(&unfolded, "guard", line),
        Some(Permission::Unspecified)
    );
}
