//! Local channels to subscribers, authenticated: a `unix://` subscriber is
//! used only if the process serving its socket runs as this user (or
//! root), so another user who takes the path of a policy service that is
//! down gets neither the token nor an event, and its answers are never
//! obeyed (the subscriber's `on_error` applies). A token over plaintext
//! `http://`, loopback included, is refused when the config is read.

use std::os::unix::fs::PermissionsExt as _;
use std::sync::Arc;
use std::time::Duration;

use hookgate_integration_tests::{
    Behaviour, OnError, SubscriberEntry, TestGateway, TestSubscriber, config_toml, private_dir,
    run_gateway,
};
use hookgate_proto::v1 as pb;

use super::{POLICY_SAYS_NO, call, deny, deny_reason, policy, toml_path};
use crate::support::cannot_switch_users;

const TOKEN: &str = "tok-unix-9d1e-never-sent-to-another-user";

/// What a squatter answers: allow, with the command rewritten to its own.
fn rewrite_to_id() -> Behaviour {
    Arc::new(|_| {
        Box::pin(async {
            Ok(pb::Decision {
                permission: pb::Permission::Allow as i32,
                updated_input_json: r#"{"command":"id"}"#.into(),
                ..pb::Decision::default()
            })
        })
    })
}

/// `policy` at `endpoint`, failing closed, its breaker off, with a token.
fn config(endpoint: &str, token_file: &std::path::Path) -> String {
    let entry = SubscriberEntry::decide("policy", endpoint).on_error(OnError::Deny);
    let mut text = config_toml(&[entry]);
    text.push_str(&format!(
        "breaker_failures = 0\ntoken_file = {}\n",
        toml_path(token_file)
    ));
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_unix_subscriber_served_by_another_user_is_refused() {
    if let Some(reason) = cannot_switch_users() {
        eprintln!("SKIPPED a_unix_subscriber_served_by_another_user_is_refused: {reason}");
        return;
    }
    // A directory anyone may create sockets in, as a shared runtime
    // directory would be.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();

    // Control: this user's policy service on a Unix socket, with the
    // token, is asked and obeyed.
    let ours = std::os::unix::net::UnixListener::bind(dir.path().join("ours.sock")).unwrap();
    let behaviour: Behaviour = Arc::new(|_| Box::pin(async { Ok(deny()) }));
    let ours = TestSubscriber::start_unix(ours, behaviour);
    let gateway = TestGateway::start(&config(&ours.endpoint(), &token_file)).await;
    assert_eq!(deny_reason(&call(&gateway).await), POLICY_SAYS_NO);
    assert_eq!(ours.count(), 1);
    drop(gateway);

    // The service is down and `nobody` listens at its path.
    let path = dir.path().join("policy.sock");
    let bound = path.clone();
    let squatter = crate::foreign::as_nobody(move || std::os::unix::net::UnixListener::bind(bound))
        .expect("nobody binds the socket");
    let squatter = TestSubscriber::start_unix(squatter, rewrite_to_id());
    let gateway = TestGateway::start(&config(&squatter.endpoint(), &token_file)).await;
    for _ in 0..2 {
        let reason = deny_reason(&call(&gateway).await);
        assert!(
            reason.contains("subscriber `policy` failed")
                && reason.contains("served by another user"),
            "{reason}"
        );
    }
    // Give the health check its chance to reach it too: nothing may.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        squatter.count(),
        0,
        "an event reached another user's socket"
    );
    let sub = policy(&gateway).await;
    assert_eq!(sub["fail_closed"], 2, "{sub}");
    assert!(
        sub["errors_by_kind"]["connect"].as_u64() >= Some(2),
        "{sub}"
    );
    let (nobody, _) = crate::support::nobody_ids().expect("checked above");
    let named = format!("runs as uid {nobody}");
    let logged = gateway
        .wait_for_stderr(crate::support::EVENTUALLY, |log| {
            log.contains(&named) && log.contains("nothing was sent")
        })
        .await;
    assert!(logged, "no refusal naming the uid:\n{}", gateway.stderr());
    assert!(!gateway.stderr().contains(TOKEN));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_over_plaintext_http_to_loopback_is_a_config_error() {
    let dir = private_dir();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();
    let config_path = dir.path().join("gateway.toml");
    std::fs::write(&config_path, config("http://127.0.0.1:50051", &token_file)).unwrap();
    let socket = TestGateway::socket_in(dir.path());
    let (code, _, stderr) = run_gateway(&[
        "serve",
        "--config",
        config_path.to_str().unwrap(),
        "--socket",
        socket.to_str().unwrap(),
    ])
    .await;
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("subscriber[0].token_file")
            && stderr.contains("not even to loopback")
            && stderr.contains("https://")
            && stderr.contains("unix://"),
        "{stderr}"
    );
    assert!(!socket.exists(), "a gateway started on a refused config");
}
