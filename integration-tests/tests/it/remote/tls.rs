//! A tonic subscriber behind TLS with a test CA, requiring a client
//! certificate and a bearer token: answered through the real gateway and
//! shim, refused for each missing piece (its `on_error` then applies, and
//! is counted), and a rotated token file picked up without a reload.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookgate_integration_tests::{
    OnError, Security, SubscriberEntry, TestGateway, TestSubscriber, config_toml,
};

use super::pki::Pki;
use super::{POLICY_SAYS_NO, call, deny, deny_reason, policy, toml_path};

const TOKEN: &str = "tok-7f3a9c-do-not-log";
const WAIT: Duration = Duration::from_secs(30);

/// A subscriber that answers deny over TLS (mTLS with `pki`'s CA),
/// accepting `tokens`.
async fn central_policy(pki: &Pki, tokens: Arc<Mutex<Vec<String>>>) -> TestSubscriber {
    let behaviour: hookgate_integration_tests::Behaviour =
        Arc::new(|_| Box::pin(async { Ok(deny()) }));
    let security = Security {
        identity: Some((pki.server_cert_pem.clone(), pki.server_key_pem.clone())),
        client_ca: Some(pki.ca_pem.clone()),
        tokens: Some(tokens),
    };
    TestSubscriber::start_secure(behaviour, security).await
}

/// What the gateway is given to reach the subscriber.
struct Client<'a> {
    ca: &'a Path,
    cert: Option<(&'a Path, &'a Path)>,
    token_file: &'a Path,
}

impl<'a> Client<'a> {
    /// The right CA and client certificate of `pki`, and `token_file`.
    fn trusted(pki: &'a Pki, token_file: &'a Path) -> Client<'a> {
        Client {
            ca: &pki.ca,
            cert: Some((&pki.client_cert, &pki.client_key)),
            token_file,
        }
    }
}

/// The gateway config: one decide subscriber `policy` at `endpoint`
/// (`https://127.0.0.1:PORT`, its certificate is for `localhost`), failing
/// closed, its breaker off (every call is tried), and `extra` after it.
fn config(endpoint: &str, client: &Client<'_>, extra: &str) -> String {
    let entry = SubscriberEntry::decide("policy", endpoint).on_error(OnError::Deny);
    let mut text = config_toml(&[entry]);
    text.push_str("breaker_failures = 0\ntls_server_name = \"localhost\"\n");
    text.push_str(&format!("tls_ca_file = {}\n", toml_path(client.ca)));
    if let Some((cert, key)) = client.cert {
        text.push_str(&format!(
            "tls_cert_file = {}\ntls_key_file = {}\n",
            toml_path(cert),
            toml_path(key)
        ));
    }
    text.push_str(&format!("token_file = {}\n", toml_path(client.token_file)));
    text.push_str(extra);
    text
}

fn write_token(dir: &Path, token: &str) -> PathBuf {
    let path = dir.join("token");
    // Renamed over the old one, as rotation tools do.
    let next = dir.join("token.next");
    std::fs::write(&next, format!("{token}\n")).expect("write the token");
    std::fs::rename(&next, &path).expect("rename the token");
    path
}

fn n(sub: &serde_json::Value, key: &str) -> u64 {
    sub[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} in {sub}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mtls_subscriber_with_a_token_answers_and_learns_who_called() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pki = Pki::new(dir.path());
    let subscriber = central_policy(&pki, Arc::new(Mutex::new(vec![TOKEN.into()]))).await;
    let token_file = write_token(dir.path(), TOKEN);
    let client = Client::trusted(&pki, &token_file);
    let identity = "\n[identity]\norigin = \"it-fleet\"\nlabels = { team = \"qa\" }\n";
    let config = config(&subscriber.endpoint(), &client, identity);
    // Debug level: even there no secret may show.
    let gateway = TestGateway::start_with_env(&config, &[("RUST_LOG", "debug")]).await;

    let out = call(&gateway).await;
    assert_eq!(deny_reason(&out), POLICY_SAYS_NO, "{out}");
    let events = subscriber.wait_for(1, WAIT).await;
    let caller = events[0]
        .caller
        .clone()
        .expect("the event names its caller");
    assert_eq!(caller.origin.as_deref(), Some("it-fleet"));
    assert_eq!(caller.labels.get("team").map(String::as_str), Some("qa"));
    assert!(caller.hostname.is_some_and(|h| !h.is_empty()));
    assert!(caller.user.is_some_and(|u| !u.is_empty()));

    // The health check went through the same TLS and token: the server
    // answered it (UNIMPLEMENTED: it has no health service), so the state
    // follows the calls; a refused handshake would have made it `down`.
    let mut sub = policy(&gateway).await;
    while sub["state_source"] == "none" {
        tokio::time::sleep(Duration::from_millis(50)).await;
        sub = policy(&gateway).await;
    }
    assert_eq!(sub["state_source"], "last_call", "{sub}");
    assert_eq!(sub["state"], "up", "{sub}");
    assert_eq!(n(&sub, "fail_closed"), 0, "{sub}");

    let log = gateway.stderr();
    assert!(!log.contains(TOKEN), "the token was logged:\n{log}");
    let key_line = pki.client_key_pem.lines().nth(1).expect("a key body line");
    assert!(!log.contains(key_line), "the key was logged:\n{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_ca_a_missing_certificate_or_a_wrong_token_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pki = Pki::new(dir.path());
    let right = write_token(dir.path(), TOKEN);
    let wrong_dir = tempfile::tempdir().expect("tempdir");
    let wrong = write_token(wrong_dir.path(), "tok-guessed");
    let cert = Some((pki.client_cert.as_path(), pki.client_key.as_path()));
    // (what, client settings, error kind counted, in the gateway's log)
    let cases = [
        (
            "wrong CA",
            Client {
                ca: &pki.other_ca,
                cert,
                token_file: &right,
            },
            "connect",
            "certificate verify failed for `localhost`",
        ),
        (
            "no client certificate",
            Client {
                ca: &pki.ca,
                cert: None,
                token_file: &right,
            },
            "connect",
            "refused the TLS connection with `localhost`",
        ),
        (
            "wrong token",
            Client::trusted(&pki, &wrong),
            "status",
            "answered with a gRPC error status: Unauthenticated",
        ),
    ];
    for (what, client, kind, logged) in cases {
        let subscriber = central_policy(&pki, Arc::new(Mutex::new(vec![TOKEN.into()]))).await;
        let gateway = TestGateway::start(&config(&subscriber.endpoint(), &client, "")).await;
        let out = call(&gateway).await;
        let reason = deny_reason(&out);
        assert!(
            reason.contains("subscriber `policy` failed") && reason.contains("on_error"),
            "{what}: on_error = deny applies: {out}"
        );
        assert_eq!(subscriber.count(), 0, "{what}: no call got through");
        let sub = policy(&gateway).await;
        assert_eq!(n(&sub, "fail_closed"), 1, "{what}: {sub}");
        assert_eq!(sub["errors_by_kind"][kind], 1, "{what}: {sub}");
        assert!(
            gateway
                .wait_for_stderr(WAIT, |log| log.contains(logged))
                .await,
            "{what}: `{logged}` not in the gateway's log"
        );
        assert!(
            !gateway.stderr().contains(TOKEN),
            "{what}: the token was logged"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_token_file_is_used_without_a_reload() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pki = Pki::new(dir.path());
    let tokens = Arc::new(Mutex::new(vec!["tok-old".to_owned()]));
    let subscriber = central_policy(&pki, Arc::clone(&tokens)).await;
    let token_file = write_token(dir.path(), "tok-old");
    let client = Client::trusted(&pki, &token_file);
    let gateway = TestGateway::start(&config(&subscriber.endpoint(), &client, "")).await;
    assert_eq!(deny_reason(&call(&gateway).await), POLICY_SAYS_NO);

    // The service now accepts only the new token; the file gets it.
    *tokens.lock().expect("tokens") = vec!["tok-new".to_owned()];
    write_token(dir.path(), "tok-new");
    let mut refused = 0;
    loop {
        let reason = deny_reason(&call(&gateway).await);
        if reason == POLICY_SAYS_NO {
            break;
        }
        assert!(reason.contains("subscriber `policy` failed"), "{reason}");
        refused += 1;
        // Bounds a hang only (the file is checked every second).
        assert!(refused < 200, "the new token was never sent");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        subscriber.count(),
        2,
        "the first call and the one after the rotation"
    );
    assert!(
        gateway
            .wait_for_stderr(WAIT, |log| log.contains("token file changed"))
            .await
    );
    let log = gateway.stderr();
    assert!(
        !log.contains("tok-old") && !log.contains("tok-new"),
        "{log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_sends_the_new_identity_and_refuses_an_unusable_ca_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pki = Pki::new(dir.path());
    let subscriber = central_policy(&pki, Arc::new(Mutex::new(vec![TOKEN.into()]))).await;
    let token_file = write_token(dir.path(), TOKEN);
    let client = Client::trusted(&pki, &token_file);
    let endpoint = subscriber.endpoint();
    let identity = |origin: &str| format!("\n[identity]\norigin = \"{origin}\"\n");
    let gateway = TestGateway::start(&config(&endpoint, &client, &identity("first"))).await;
    assert_eq!(deny_reason(&call(&gateway).await), POLICY_SAYS_NO);

    gateway.write_config(&config(&endpoint, &client, &identity("second")));
    let (code, stdout, stderr) = gateway.reload().await;
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(deny_reason(&call(&gateway).await), POLICY_SAYS_NO);
    let origins: Vec<Option<String>> = subscriber
        .wait_for(2, WAIT)
        .await
        .into_iter()
        .map(|e| e.caller.and_then(|c| c.origin))
        .collect();
    assert_eq!(origins, [Some("first".into()), Some("second".into())]);

    // A CA file that is gone refuses the reload, naming it; the running
    // subscriber stays as it was.
    let missing = dir.path().join("gone-ca.pem");
    let broken = Client {
        ca: &missing,
        ..client
    };
    gateway.write_config(&config(&endpoint, &broken, &identity("third")));
    let (code, _stdout, stderr) = gateway.reload().await;
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot read CA bundle") && stderr.contains("gone-ca.pem"),
        "{stderr}"
    );
    assert_eq!(deny_reason(&call(&gateway).await), POLICY_SAYS_NO);
    let last = subscriber.wait_for(3, WAIT).await.pop().expect("an event");
    assert_eq!(
        last.caller.and_then(|c| c.origin).as_deref(),
        Some("second")
    );
}
