//! The built-in `rego` subscriber's keys: policy files read and compiled
//! when the config is (errors naming the policy's file and line), globs,
//! and what a bundle URL and its key must be.

use super::*;

const DENY: &str = "package hookgate\n\ndecision := {\"permission\": \"deny\", \"reason\": \"no\"} if {\n  input.tool.class == \"shell\"\n}\n";

/// A config file `gw.toml` in `dir` with `body` after a rego subscriber's
/// name, parsed with the config's own path as origin.
fn parse_in(dir: &std::path::Path, body: &str) -> Result<Config, ConfigError> {
    let text = format!("[[subscriber]]\nname = \"policy\"\nbuiltin = \"rego\"\n{body}\n");
    let origin = dir.join("gw.toml");
    Config::parse(origin.to_str().unwrap(), &text, &env())
}

fn write(dir: &std::path::Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn rego(config: &Config) -> &RegoConfig {
    match &config.subscribers[0].kind {
        SubscriberKind::Rego(rego) => rego,
        other => panic!("{other:?}"),
    }
}

#[test]
fn policy_files_are_compiled_with_data_relative_to_the_config() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "policies/a.rego", DENY);
    write(
        dir.path(),
        "policies/b.rego",
        "package hookgate.extra\nx := 1\n",
    );
    write(dir.path(), "data/lists.json", r#"{"banned": ["rm"]}"#);
    let config = parse_in(
        dir.path(),
        "policy = [\"policies/*.rego\"]\ndata = [\"data/lists.json\"]\ntimeout_ms = 20\non_error = \"deny\"",
    )
    .unwrap();
    let rego = rego(&config);
    assert_eq!(rego.modules.len(), 2);
    // By components: `\\` separates them on Windows.
    assert!(std::path::Path::new(&rego.modules[0].name).ends_with("policies/a.rego"));
    assert_eq!(rego.query, DEFAULT_QUERY);
    assert_eq!(rego.timeout, std::time::Duration::from_millis(20));
    assert_eq!(rego.on_error, OnError::Deny);
    let policy = rego.compiled.as_ref().unwrap();
    assert!(policy.revision().starts_with("sha256:"));
    assert_eq!(
        config.subscribers[0].settings["policy_revision"].as_str(),
        Some(policy.revision()),
        "an edited policy is another subscriber on reload"
    );
}

#[test]
fn a_policy_that_does_not_compile_names_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "bad.rego",
        "package hookgate\n\ndecision := {\n  \"permission\" \"deny\"\n}\n",
    );
    let err = parse_in(dir.path(), "policy = [\"bad.rego\"]").unwrap_err();
    assert_eq!(err.key.as_deref(), Some("subscriber[0].policy"));
    assert!(err.message.contains("bad.rego:4:"), "{err}");
}

#[test]
fn missing_files_and_wrong_kinds_are_config_errors() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.rego", DENY);
    for (body, expected) in [
        ("", "needs `policy` files or a `bundle`"),
        ("policy = [\"none/*.rego\"]", "none"),
        ("policy = [\"p*.json\"]", "matches no file"),
        ("policy = [\"p.rego\"]\ndata = [\"p.rego\"]", "p.rego"),
        (
            "policy = [\"p.rego\"]\nquery = \"data.other.x\"",
            "no loaded package",
        ),
        (
            "policy = [\"p.rego\"]\nmode = \"observe\"",
            "decides or shadows",
        ),
    ] {
        let err = parse_in(dir.path(), body).unwrap_err();
        assert!(err.to_string().contains(expected), "{body}: {err}");
    }
}

#[test]
fn plain_http_bundles_must_be_loopback_or_signed() {
    let dir = tempfile::tempdir().unwrap();
    let err = parse_in(
        dir.path(),
        "bundle = \"http://policies.example.com/b.tar.gz\"",
    )
    .unwrap_err();
    assert!(err.message.contains("must be signed"), "{err}");
    parse_in(dir.path(), "bundle = \"http://127.0.0.1:8181/b.tar.gz\"").unwrap();
    parse_in(
        dir.path(),
        "bundle = \"https://policies.example.com/b.tar.gz\"",
    )
    .unwrap();
    let err = parse_in(dir.path(), "bundle = \"ftp://x/b\"").unwrap_err();
    assert!(err.message.contains("https://"), "{err}");
    let err = parse_in(dir.path(), "bundle = \"https://x/b\"\nbundle_signed = true").unwrap_err();
    assert!(err.message.contains("need `bundle_key_file`"), "{err}");
}

#[test]
fn a_bundle_key_is_checked_and_makes_signatures_required() {
    let dir = tempfile::tempdir().unwrap();
    let pair = rcgen::KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).unwrap();
    write(dir.path(), "key.pem", &pair.public_key_pem());
    let config = parse_in(
        dir.path(),
        "bundle = \"http://policies.example.com/b.tar.gz\"\nbundle_key_file = \"key.pem\"\nbundle_key_alg = \"ES256\"",
    )
    .unwrap();
    let bundle = rego(&config).bundle.as_ref().unwrap();
    assert!(bundle.verification.required);
    assert_eq!(bundle.verification.keys.len(), 1);
    assert!(
        bundle.cache_dir.ends_with("hookgate/policy/policy"),
        "{:?}",
        bundle.cache_dir
    );
    let err = parse_in(
        dir.path(),
        "bundle = \"https://x/b\"\nbundle_key_file = \"key.pem\"\nbundle_key_alg = \"RS256\"",
    )
    .unwrap_err();
    assert_eq!(
        err.key.as_deref(),
        Some("subscriber[0].bundle_key_file"),
        "{err}"
    );
    let err = parse_in(
        dir.path(),
        "bundle = \"https://x/b\"\nbundle_key_alg = \"HS256\"",
    )
    .unwrap_err();
    assert!(err.message.contains("without `bundle_key_file`"), "{err}");
}
