//! `gateway config init`'s starter file and `gateway config show
//! --effective`'s output.

use super::layers::source;
use super::*;

fn over_default(user: &str) -> Config {
    let sources = [Source::embedded(), source(Layer::User, "user.toml", user)];
    Config::from_layers(&sources, &env()).unwrap()
}

/// Each subscriber's name, kind and rule ids.
fn shape(config: &Config) -> Vec<(String, Vec<String>)> {
    config
        .subscribers
        .iter()
        .map(|s| {
            let ids = match &s.kind {
                SubscriberKind::Guard { guard } => {
                    guard.rules().iter().map(|r| r.id.clone()).collect()
                }
                SubscriberKind::Audit { path, .. } => vec![path.display().to_string()],
                SubscriberKind::Remote { .. } => vec!["remote".to_owned()],
                SubscriberKind::Rego(_) => vec!["rego".to_owned()],
                SubscriberKind::Memory(_) => vec!["memory".to_owned()],
                SubscriberKind::Approval(approval) => approval
                    .guard
                    .rules()
                    .iter()
                    .map(|r| r.id.clone())
                    .collect(),
            };
            (s.name.clone(), ids)
        })
        .collect()
}

#[test]
fn the_starter_file_changes_nothing_until_edited() {
    let started = over_default(STARTER_TOML);
    let embedded = Config::from_layers(&[Source::embedded()], &env()).unwrap();
    assert_eq!(shape(&started), shape(&embedded));
    assert!(started.warnings.is_empty(), "{:?}", started.warnings);
    // Its examples, uncommented, are valid and do what they say.
    let uncommented: String = STARTER_TOML
        .lines()
        .filter(|l| !l.contains("embedded = false") && !l.starts_with("# [defaults]"))
        .map(|l| {
            l.strip_prefix("# ")
                .filter(|rest| looks_like_toml(rest))
                .unwrap_or(l)
        })
        .collect::<Vec<_>>()
        .join("\n");
    let edited = over_default(&uncommented);
    let names: Vec<String> = shape(&edited).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["guard", "audit", "policy"]);
    let guard = &shape(&edited)[0].1;
    assert!(guard.contains(&"terraform-destroy".to_owned()));
    assert!(!guard.contains(&"private-key-read".to_owned()));
    assert_eq!(
        edited.server.metrics_addr,
        Some("127.0.0.1:9464".parse().unwrap())
    );
}

/// A commented line that is TOML, not prose.
fn looks_like_toml(line: &str) -> bool {
    line.starts_with('[')
        || line
            .split_once(" = ")
            .is_some_and(|(k, _)| !k.contains(' '))
}

#[test]
fn the_effective_config_names_each_layer_and_parses_back() {
    let config = over_default(
        "[server]\nqueue_wait_ms = 100\n\n[[subscriber]]\nname = \"guard\"\n\n\
         [[subscriber.rules]]\ncommand = [\"terraform\"]\nreason = \"no terraform\"\n",
    );
    let shown = effective(&config);
    assert!(
        shown.contains("#   default  <embedded default config>"),
        "{shown}"
    );
    assert!(shown.contains("#   user     user.toml"), "{shown}");
    let line = |prefix: &str| {
        shown
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` in\n{shown}"))
            .to_owned()
    };
    assert!(line("queue_wait_ms = 100").ends_with("# user"));
    assert!(line("max_connections = 256").ends_with("# default"));
    assert!(line("memory_budget_mib = 256").ends_with("# built-in value"));
    assert!(line("priority = 100").ends_with("# default"));
    assert!(line("id = \"env-read\"").starts_with("id"));
    let rules: Vec<&str> = shown
        .lines()
        .filter(|l| l.starts_with("[[subscriber.rules]]"))
        .collect();
    assert_eq!(
        rules.last().map(|l| l.ends_with("# user")),
        Some(true),
        "{shown}"
    );
    assert!(rules[0].ends_with("# default"));
    // Valid TOML that builds the same subscribers.
    let again = Config::parse(
        "shown.toml",
        &format!("{shown}\n[defaults]\nembedded = false\n"),
        &env(),
    )
    .unwrap_or_else(|err| panic!("{err}\n{shown}"));
    assert_eq!(shape(&again), shape(&config));
    assert_eq!(again.server, config.server);
}
