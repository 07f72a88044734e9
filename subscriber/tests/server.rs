//! The server side done for the author, through a real tonic client:
//! dispatch, message limits, deadlines, health, token, TLS, Unix sockets.

#![allow(
    clippy::disallowed_methods,
    reason = "tests: a plain handler that blocks on purpose (on the blocking pool), a file made"
)]

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hookgate_proto::v1;
use hookgate_proto::v1::subscriber_client::SubscriberClient;
use hookgate_subscriber::{
    Event, Kind, ServeOptions, Server, Subscriber, Tls, context, deny, none, rewrite,
};
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};
use tonic::{Code, Request};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};

fn pre_tool_use(command: &str) -> v1::HookEvent {
    v1::HookEvent {
        id: "01TEST".into(),
        agent: v1::Agent::ClaudeCode as i32,
        kind: v1::EventKind::PreToolUse as i32,
        native_event: "PreToolUse".into(),
        tool: Some(v1::Tool {
            name: "Bash".into(),
            class: v1::ToolClass::Shell as i32,
            input_json: serde_json::json!({ "command": command }).to_string(),
            command: Some(command.into()),
            ..v1::Tool::default()
        }),
        ..v1::HookEvent::default()
    }
}

async fn start(app: Subscriber, options: ServeOptions) -> Server {
    app.start("127.0.0.1:0", options).await.expect("serve")
}

async fn client(server: &Server) -> SubscriberClient<Channel> {
    let channel = Endpoint::from_shared(server.endpoint().to_owned())
        .expect("an endpoint")
        .connect()
        .await
        .expect("connect");
    SubscriberClient::new(channel)
        .max_encoding_message_size(64 << 20)
        .max_decoding_message_size(64 << 20)
}

#[tokio::test]
async fn each_kind_goes_to_its_handler_and_the_rest_to_the_catch_all() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (a, b) = (Arc::clone(&seen), Arc::clone(&seen));
    let app = Subscriber::new()
        .on_pre_tool_use(move |e| {
            a.lock().unwrap().push(("pre", e.kind));
            deny(format!("no {}", e.command().unwrap_or_default()))
        })
        .on_event_async(move |e: Event| {
            let b = Arc::clone(&b);
            async move {
                b.lock().unwrap().push(("any", e.kind));
                context("from the catch-all")
            }
        });
    let server = start(app, ServeOptions::default()).await;
    let mut client = client(&server).await;
    let reply = client
        .on_event(pre_tool_use("rm -rf /"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reply.permission(), v1::Permission::Deny);
    assert_eq!(reply.reason, "no rm -rf /");
    let stop = v1::HookEvent {
        kind: v1::EventKind::Stop as i32,
        ..v1::HookEvent::default()
    };
    let reply = client.on_event(stop).await.unwrap().into_inner();
    assert_eq!(reply.additional_context, "from the catch-all");
    assert_eq!(
        *seen.lock().unwrap(),
        [("pre", Kind::PreToolUse), ("any", Kind::Stop)]
    );
    // No handler at all: no opinion.
    let bare = start(
        Subscriber::new().on_stop(|_| none()),
        ServeOptions::default(),
    )
    .await;
    let reply = client_on(&bare, pre_tool_use("ls")).await.unwrap();
    assert_eq!(reply, v1::Decision::default());
    server.stop().await.unwrap();
    bare.stop().await.unwrap();
}

async fn client_on(server: &Server, event: v1::HookEvent) -> Result<v1::Decision, tonic::Status> {
    client(server)
        .await
        .on_event(event)
        .await
        .map(|r| r.into_inner())
}

#[tokio::test]
async fn rewrites_keep_the_agents_shape() {
    let app = Subscriber::new().on_pre_tool_use(|e| {
        let mut input = e.tool.as_ref().and_then(|t| t.input()).unwrap();
        input["command"] = format!("{} --dry-run", e.command().unwrap()).into();
        rewrite(input.as_object().unwrap().clone())
    });
    let server = start(app, ServeOptions::default()).await;
    let reply = client_on(&server, pre_tool_use("terraform apply"))
        .await
        .unwrap();
    assert_eq!(
        reply.updated_input_json,
        r#"{"command":"terraform apply --dry-run"}"#
    );
    server.stop().await.unwrap();
}

#[test]
#[should_panic(expected = "a handler for stop is already registered")]
fn one_handler_per_kind() {
    let _ = Subscriber::new()
        .on_stop(|_| none())
        .on(Kind::Stop, |_| none());
}

#[tokio::test]
async fn a_20_mib_write_reaches_the_handler_and_past_32_mib_is_refused() {
    let sizes = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&sizes);
    let app = Subscriber::new().on_pre_tool_use(move |e| {
        let input = e.tool.as_ref().and_then(|t| t.input()).unwrap();
        seen.lock()
            .unwrap()
            .push(input["content"].as_str().unwrap().len());
        none()
    });
    let server = start(app, ServeOptions::default()).await;
    let mut write = pre_tool_use("");
    let tool = write.tool.as_mut().unwrap();
    tool.name = "Write".into();
    tool.command = None;
    tool.input_json =
        serde_json::json!({ "file_path": "big.txt", "content": "x".repeat(20 << 20) }).to_string();
    client_on(&server, write.clone()).await.unwrap();
    assert_eq!(*sizes.lock().unwrap(), [20 << 20]);
    write.tool.as_mut().unwrap().input_json =
        serde_json::json!({ "content": "x".repeat(33 << 20) }).to_string();
    let refused = client_on(&server, write).await.unwrap_err();
    assert_eq!(refused.code(), Code::OutOfRange, "{refused}");
    assert_eq!(
        *sizes.lock().unwrap(),
        [20 << 20],
        "never reached the handler"
    );
    server.stop().await.unwrap();
}

/// The call carries `grpc-timeout` but the client does not enforce it:
/// what comes back, and when, is the server's doing.
#[tokio::test]
async fn the_deadline_is_exposed_and_a_late_handler_answers_nothing() {
    let left = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&left);
    let app = Subscriber::new().on_pre_tool_use(move |e| {
        seen.lock().unwrap().push(e.time_left());
        if e.command() == Some("slow") {
            std::thread::sleep(Duration::from_millis(1500));
        }
        deny("too late to matter")
    });
    let server = start(app, ServeOptions::default()).await;
    let mut client = client(&server).await;
    let mut fast = Request::new(pre_tool_use("fast"));
    fast.set_timeout(Duration::from_secs(5));
    client.on_event(fast).await.unwrap();
    let first = left.lock().unwrap()[0].expect("a deadline");
    assert!(
        first > Duration::ZERO && first <= Duration::from_secs(5),
        "{first:?}"
    );
    let mut slow = Request::new(pre_tool_use("slow"));
    slow.set_timeout(Duration::from_millis(300));
    let late = client.on_event(slow).await.unwrap_err();
    assert!(
        matches!(late.code(), Code::DeadlineExceeded | Code::Cancelled),
        "no decision, only the deadline's status: {late}"
    );
    // Counted when gRPC drops the call (at once after the status, which
    // may already be on its way).
    let counted = async {
        while server.stats().late.load(Ordering::Relaxed) == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), counted)
        .await
        .expect("the unanswered call is counted");
    server.stop().await.unwrap();
}

#[tokio::test]
async fn a_handler_that_panics_fails_the_call() {
    let app = Subscriber::new().on_pre_tool_use(|_| panic!("boom"));
    let server = start(app, ServeOptions::default()).await;
    let failed = client_on(&server, pre_tool_use("ls")).await.unwrap_err();
    assert_eq!(failed.code(), Code::Internal);
    assert!(!failed.message().contains("boom"));
    assert_eq!(
        *server.stats().errors.lock().unwrap(),
        [("01TEST".to_owned(), "the handler panicked".to_owned())]
    );
    server.stop().await.unwrap();
}

async fn health(channel: Channel, service: &str) -> ServingStatus {
    let reply = HealthClient::new(channel)
        .check(HealthCheckRequest {
            service: service.into(),
        })
        .await
        .expect("a health check")
        .into_inner();
    reply.status()
}

#[tokio::test]
async fn health_is_served_and_a_token_is_required_when_set() {
    let app = Subscriber::new().on_event(|_| context("ok"));
    let options = ServeOptions::default()
        .token("old-secret")
        .token("new-secret");
    let server = start(app, options).await;
    let channel = Endpoint::from_shared(server.endpoint().to_owned())
        .unwrap()
        .connect()
        .await
        .unwrap();
    for service in ["", "hookgate.v1.Subscriber"] {
        assert_eq!(
            health(channel.clone(), service).await,
            ServingStatus::Serving,
            "no token needed"
        );
    }
    let mut client = SubscriberClient::new(channel);
    for sent in [None, Some("Bearer wrong"), Some("old-secret")] {
        let mut request = Request::new(pre_tool_use("ls"));
        if let Some(sent) = sent {
            request
                .metadata_mut()
                .insert("authorization", sent.parse().unwrap());
        }
        let refused = client.on_event(request).await.unwrap_err();
        assert_eq!(refused.code(), Code::Unauthenticated, "{sent:?}");
    }
    for token in ["old-secret", "new-secret"] {
        let mut request = Request::new(pre_tool_use("ls"));
        let value = format!("Bearer {token}").parse().unwrap();
        request.metadata_mut().insert("authorization", value);
        let reply = client.on_event(request).await.unwrap().into_inner();
        assert_eq!(reply.additional_context, "ok");
    }
    assert_eq!(server.stats().unauthenticated.load(Ordering::Relaxed), 3);
    server.stop().await.unwrap();
}

#[tokio::test]
async fn tls_and_mutual_tls() {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let leaf = |names: Vec<String>| {
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(names)
            .unwrap()
            .signed_by(&key, &issuer)
            .unwrap();
        (cert.pem(), key.serialize_pem())
    };
    let (server_cert, server_key) = leaf(vec!["localhost".into()]);
    let (client_cert, client_key) = leaf(vec!["client".into()]);
    let tls = Tls {
        cert_pem: server_cert.into_bytes(),
        key_pem: server_key.into_bytes(),
        client_ca_pem: None,
    };
    let app = Subscriber::new().on_event(|_| context("over tls"));
    let trust = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(ca.pem()))
        .domain_name("localhost");
    for mutual in [false, true] {
        let mut tls = tls.clone();
        if mutual {
            tls.client_ca_pem = Some(ca.pem().into_bytes());
        }
        let server = start(app.clone(), ServeOptions::default().tls(tls)).await;
        assert!(server.endpoint().starts_with("https://127.0.0.1:"));
        let endpoint = Endpoint::from_shared(server.endpoint().to_owned()).unwrap();
        let anonymous = endpoint
            .clone()
            .tls_config(trust.clone())
            .unwrap()
            .connect()
            .await;
        match anonymous {
            Ok(channel) => {
                let reply = SubscriberClient::new(channel)
                    .on_event(pre_tool_use("ls"))
                    .await;
                assert_eq!(reply.is_ok(), !mutual, "{reply:?}");
            }
            Err(err) => assert!(mutual, "plain TLS must connect: {err}"),
        }
        let known = trust
            .clone()
            .identity(Identity::from_pem(&client_cert, &client_key));
        let channel = endpoint.tls_config(known).unwrap().connect().await.unwrap();
        let reply = SubscriberClient::new(channel)
            .on_event(pre_tool_use("ls"))
            .await
            .unwrap();
        assert_eq!(reply.into_inner().additional_context, "over tls");
        server.stop().await.unwrap();
    }
}

#[cfg(unix)]
#[tokio::test]
async fn unix_sockets_stale_live_and_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sock");
    // A socket file nobody listens on, as a killed server leaves.
    drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    let address = format!("unix:{}", path.display());
    let server = Subscriber::new()
        .start(&address, ServeOptions::default())
        .await
        .unwrap();
    assert_eq!(server.endpoint(), format!("unix://{}", path.display()));
    assert_eq!(
        std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert!(std::os::unix::net::UnixStream::connect(&path).is_ok());
    let taken = Subscriber::new()
        .start(&address, ServeOptions::default())
        .await
        .unwrap_err();
    assert!(
        taken.to_string().contains("another server is listening"),
        "{taken}"
    );
    server.stop().await.unwrap();
    assert!(!path.exists(), "removed at a stop");
    std::fs::write(dir.path().join("file"), "not a socket").unwrap();
    let file = format!("unix:{}", dir.path().join("file").display());
    let refused = Subscriber::new()
        .start(&file, ServeOptions::default())
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("not a socket"), "{refused}");
}

#[tokio::test]
async fn a_tcp_port_is_not_shared() {
    let server = start(Subscriber::new(), ServeOptions::default()).await;
    let taken = Subscriber::new()
        .start(server.address(), ServeOptions::default())
        .await;
    assert!(taken.is_err());
    server.stop().await.unwrap();
}
