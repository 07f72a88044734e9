//! Remote subscribers' connection settings (endpoint lists, TLS, tokens)
//! and `[identity]`: what valid ones mean, and every mistake located.

#[cfg(unix)]
use std::path::PathBuf;

#[cfg(unix)]
use super::errors::{Case, check};
use super::*;

#[cfg(unix)]
const SUB: &str = "[[subscriber]]\nname = \"p\"\n";

#[cfg(unix)]
fn connection(text: &str) -> Connection {
    let config = parse(&format!("{SUB}{text}")).unwrap();
    match &config.subscribers[0].kind {
        SubscriberKind::Remote { connection, .. } => connection.clone(),
        other => panic!("{other:?}"),
    }
}

#[cfg(unix)]
#[test]
fn tls_files_tokens_and_endpoint_lists_are_read() {
    let c = connection(
        "endpoint = [\"https://a.corp:8443\", \"https://b.corp:8443\"]\n\
         tls_ca_file = \"~/ca.pem\"\ntls_cert_file = \"/etc/hg/c.pem\"\n\
         tls_key_file = \"/etc/hg/c.key\"\ntls_server_name = \"policy.corp\"\n\
         token_file = \"~/.config/hookgate/token\"\n",
    );
    assert_eq!(c.endpoints, ["https://a.corp:8443", "https://b.corp:8443"]);
    let tls = c.tls.unwrap();
    assert_eq!(tls.ca_file, Some(PathBuf::from("/home/dev/ca.pem")));
    assert_eq!(tls.cert_file, Some(PathBuf::from("/etc/hg/c.pem")));
    assert_eq!(tls.key_file, Some(PathBuf::from("/etc/hg/c.key")));
    assert_eq!(tls.server_name.as_deref(), Some("policy.corp"));
    assert_eq!(
        c.token,
        Some(TokenSource::File("/home/dev/.config/hookgate/token".into()))
    );

    // https:// alone: system roots, no client certificate.
    let plain = connection("endpoint = \"https://a.corp\"\ntoken_env = \"POLICY_TOKEN\"\n");
    assert_eq!(plain.tls, Some(TlsFiles::default()));
    assert_eq!(plain.token, Some(TokenSource::Env("POLICY_TOKEN".into())));
    // A token may go to a Unix socket (its server's uid is checked).
    let local = connection("endpoint = \"unix:///run/policy.sock\"\ntoken_env = \"T\"\n");
    assert_eq!(
        (local.tls, local.token),
        (None, Some(TokenSource::Env("T".into())))
    );
}

// The cases' file paths are Unix paths (absolute there, not on Windows).
#[cfg(unix)]
#[test]
fn connection_mistakes_name_line_and_key() {
    let cases: &[Case] = &[
        (
            "tls key on http",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntls_ca_file = \"/ca.pem\"\n",
            4,
            Some("subscriber[0].tls_ca_file"),
            "only `https://` endpoints",
        ),
        (
            "certificate without key",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"https://a:1\"\ntls_cert_file = \"/c.pem\"\n",
            4,
            Some("subscriber[0].tls_cert_file"),
            "needs `tls_key_file`",
        ),
        (
            "two token sources",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"https://a:1\"\ntoken_file = \"/t\"\ntoken_env = \"T\"\n",
            5,
            Some("subscriber[0].token_env"),
            "not both",
        ),
        (
            "a token in the variable name",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"https://a:1\"\ntoken_env = \"s3cr3t-t0ken!\"\n",
            4,
            Some("subscriber[0].token_env"),
            "not the token",
        ),
        (
            "token over plaintext to another machine",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://policy.corp:1\"\ntoken_env = \"T\"\n",
            4,
            Some("subscriber[0].token_env"),
            "Use `https://` (TLS) or `unix://`",
        ),
        (
            "token over plaintext to loopback",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://127.0.0.1:1\"\ntoken_file = \"/t\"\n",
            4,
            Some("subscriber[0].token_file"),
            "not even to loopback",
        ),
        (
            "token over plaintext to localhost, among others",
            "[[subscriber]]\nname = \"p\"\nendpoint = [\"http://localhost:1\", \"http://[::1]:2\"]\ntoken_env = \"T\"\n",
            4,
            Some("subscriber[0].token_env"),
            "not even to loopback",
        ),
        (
            "mixed schemes",
            "[[subscriber]]\nname = \"p\"\nendpoint = [\"https://a:1\", \"http://b:1\"]\n",
            3,
            Some("subscriber[0].endpoint"),
            "same scheme",
        ),
        (
            "empty endpoint list",
            "[[subscriber]]\nname = \"p\"\nendpoint = []\n",
            3,
            Some("subscriber[0].endpoint"),
            "list 1 to 16",
        ),
        (
            "tls on a built-in",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\ntoken_env = \"T\"\n",
            4,
            Some("subscriber[0].token_env"),
            "not used by built-in",
        ),
        (
            "bad server name",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"https://a:1\"\ntls_server_name = \"a b\"\n",
            4,
            Some("subscriber[0].tls_server_name"),
            "not a host name",
        ),
        (
            "unknown identity key",
            "[identity]\nmachine = \"x\"\n",
            2,
            Some("machine"),
            "unknown field",
        ),
        (
            "bad label name",
            "[identity]\nlabels = { \"a b\" = \"x\" }\n",
            2,
            Some("identity.labels.a b"),
            "a label is",
        ),
        (
            "control character in origin",
            "[identity]\norigin = \"a\\nb\"\n",
            2,
            Some("identity.origin"),
            "printable",
        ),
    ];
    check(cases);
}

#[test]
fn identity_defaults_to_host_and_user() {
    let config = parse("").unwrap();
    assert_eq!(config.identity, IdentityConfig::default());
    assert!(config.identity.hostname && config.identity.user);
    let config = parse(
        "[identity]\nhostname = false\norigin = \"eu-laptops\"\nlabels = { team = \"pay\" }\n",
    )
    .unwrap();
    assert!(!config.identity.hostname && config.identity.user);
    assert_eq!(config.identity.origin.as_deref(), Some("eu-laptops"));
    assert_eq!(config.identity.labels["team"], "pay");
}

/// The guide's "Secure remote subscribers" example (docs/deployment.md)
/// is a valid config meaning what the text says (its paths are Unix paths).
#[cfg(unix)]
#[test]
fn the_deployment_guide_example_parses() {
    let guide = include_str!("../../../docs/deployment.md");
    let section = guide
        .split("### Secure remote subscribers")
        .nth(1)
        .expect("the guide's section");
    let example = section
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("its toml example");
    let config = parse(example).unwrap();
    let c = match &config.subscribers[0].kind {
        SubscriberKind::Remote { connection, .. } => connection.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(c.endpoints.len(), 2);
    assert!(
        c.tls
            .is_some_and(|t| t.cert_file.is_some() && t.ca_file.is_some())
    );
    assert!(matches!(c.token, Some(TokenSource::File(_))));
    assert_eq!(config.identity.origin.as_deref(), Some("eu-laptops"));
}
