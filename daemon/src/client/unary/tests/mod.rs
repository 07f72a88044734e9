//! Tests of the unary gRPC client against real tonic servers: replies,
//! concurrency, Unix endpoints and error statuses.

use std::time::Duration;

use hookgate_proto::v1;
use prost::Message as _;
use prost::bytes::Bytes;
use tonic::Code;

use super::*;
use crate::testing::fake_subscriber;
use servers::{Reply, framed, ok_reply, raw_server, refusing_server, resetting_server};

mod servers;

const PATH: &str = "/hookgate.v1.Subscriber/OnEvent";
const TIMEOUT: Duration = Duration::from_secs(10);

fn client(endpoint: &str) -> UnaryClient {
    UnaryClient::new(endpoint, PATH, TIMEOUT, 1024 * 1024).unwrap()
}

fn event(id: &str) -> Bytes {
    Bytes::from(
        v1::HookEvent {
            id: id.to_owned(),
            ..v1::HookEvent::default()
        }
        .encode_to_vec(),
    )
}

/// Answers with the event's id as the reason: proof the request arrived
/// whole and the reply came back from this call.
fn echo_id() -> crate::testing::Behaviour {
    std::sync::Arc::new(|event: v1::HookEvent| {
        Box::pin(async move {
            Ok(v1::Decision {
                reason: event.id,
                ..v1::Decision::default()
            })
        })
    })
}

async fn decision(client: &UnaryClient, id: &str) -> Result<v1::Decision, CallError> {
    let reply = client.call(event(id)).await?;
    Ok(v1::Decision::decode(reply).expect("a Decision"))
}

#[tokio::test]
async fn a_tonic_subscriber_answers_each_call() {
    let client = client(&fake_subscriber(echo_id()).await);
    for id in ["first", "second", "third"] {
        assert_eq!(decision(&client, id).await.unwrap().reason, id);
    }
}

#[tokio::test]
async fn concurrent_calls_each_get_their_own_reply() {
    let client = client(&fake_subscriber(echo_id()).await);
    let ids: Vec<String> = (0..20).map(|i| format!("event-{i}")).collect();
    let calls = ids.iter().map(|id| decision(&client, id));
    let replies = futures_util::future::join_all(calls).await;
    for (id, reply) in ids.iter().zip(replies) {
        assert_eq!(&reply.unwrap().reason, id);
    }
}

#[cfg(unix)]
#[tokio::test]
async fn unix_endpoints_work() {
    let dir = tempfile::tempdir().unwrap();
    let endpoint =
        crate::testing::fake_unix_subscriber(echo_id(), &dir.path().join("s.sock")).await;
    assert_eq!(decision(&client(&endpoint), "u").await.unwrap().reason, "u");
}

#[tokio::test]
async fn an_error_status_keeps_its_code_and_message() {
    let refuse: crate::testing::Behaviour = std::sync::Arc::new(|_| {
        Box::pin(async { Err(tonic::Status::permission_denied("no: 100% sure, ünïcode")) })
    });
    let client = client(&fake_subscriber(refuse).await);
    match decision(&client, "x").await {
        Err(CallError::Status { code, message }) => {
            assert_eq!(code, Code::PermissionDenied);
            assert_eq!(message, "no: 100% sure, ünïcode");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn nothing_listening_is_a_connect_error() {
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let client = client(&format!("http://{free}"));
    assert!(matches!(
        decision(&client, "x").await,
        Err(CallError::Connect(_))
    ));
}

#[tokio::test]
async fn replies_are_checked_against_the_grpc_protocol() {
    let message = b"\x1a\x02ok".to_vec();
    let trailers_only = |trailers: Vec<(&'static str, &'static str)>| Reply {
        status: 200,
        headers: trailers,
        ..Reply::default()
    };
    // (case, reply, the message or what the error must say)
    type Case<'a> = (&'a str, Reply, Result<&'a [u8], &'a str>);
    let cases: Vec<Case<'_>> = vec![
        (
            "a message and status 0",
            ok_reply(framed(0, 4, &message)),
            Ok(&message),
        ),
        (
            "HTTP 503",
            Reply {
                status: 503,
                ..Reply::default()
            },
            Err("status Unavailable"),
        ),
        (
            "HTTP 500 carrying a grpc-status: the grpc-status wins",
            Reply {
                status: 500,
                headers: vec![("grpc-status", "8"), ("grpc-message", "busy")],
                ..Reply::default()
            },
            Err("status ResourceExhausted: busy"),
        ),
        (
            "trailers-only error",
            trailers_only(vec![("grpc-status", "5"), ("grpc-message", "not%20here")]),
            Err("status NotFound: not here"),
        ),
        (
            "trailers-only OK has no message",
            trailers_only(vec![("grpc-status", "0")]),
            Err("protocol"),
        ),
        (
            "error status in the trailers after a message",
            Reply {
                trailers: vec![("grpc-status", "13")],
                ..ok_reply(framed(0, 4, &message))
            },
            Err("status Internal"),
        ),
        (
            "a compressed message",
            ok_reply(framed(1, 4, &message)),
            Err("protocol"),
        ),
        (
            "a short message",
            ok_reply(framed(0, 9, &message)),
            Err("protocol"),
        ),
        (
            "two messages",
            ok_reply([framed(0, 4, &message), framed(0, 4, &message)].concat()),
            Err("protocol"),
        ),
        ("a truncated prefix", ok_reply(vec![0, 0]), Err("protocol")),
        (
            "no trailers",
            Reply {
                trailers: Vec::new(),
                ..ok_reply(framed(0, 4, &message))
            },
            Err("protocol"),
        ),
        (
            "a status that is not a number",
            Reply {
                trailers: vec![("grpc-status", "ok")],
                ..ok_reply(framed(0, 4, &message))
            },
            Err("protocol"),
        ),
        (
            "a reply over the limit",
            ok_reply(framed(0, 2000, &[0; 2000])),
            Err("protocol"),
        ),
    ];
    for (name, reply, expected) in cases {
        let client =
            UnaryClient::new(&raw_server(reply, false).await, PATH, TIMEOUT, 1024).unwrap();
        let got = client.call(event("x")).await;
        match (expected, got) {
            (Ok(want), Ok(got)) => assert_eq!(&got[..], want, "{name}"),
            (Err("protocol"), Err(CallError::Protocol(_))) => {}
            (Err(want), Err(err @ CallError::Status { .. })) => {
                assert!(err.to_string().contains(want), "{name}: {err}");
            }
            (want, got) => panic!("{name}: expected {want:?}, got {got:?}"),
        }
    }
}

#[tokio::test]
async fn a_request_over_the_limit_is_not_sent() {
    let client = UnaryClient::new(&fake_subscriber(echo_id()).await, PATH, TIMEOUT, 16).unwrap();
    let big = Bytes::from(vec![0u8; 17]);
    assert!(matches!(
        client.call(big).await,
        Err(CallError::Protocol(_))
    ));
}

#[tokio::test]
async fn a_closed_connection_is_reopened_by_the_next_call() {
    let message = b"\x1a\x02ok".to_vec();
    let endpoint = raw_server(ok_reply(framed(0, 4, &message)), true).await;
    let client = client(&endpoint);
    for round in 0..3 {
        let reply = client.call(event("x")).await;
        assert_eq!(&reply.unwrap()[..], &message[..], "round {round}");
        // The server closes after each request; wait until the client has
        // seen it, so the next call must reconnect (not race the close).
        let deadline = tokio::time::Instant::now() + TIMEOUT;
        while !client.connection_closed().await {
            assert!(tokio::time::Instant::now() < deadline, "never closed");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

#[test]
fn bad_endpoints_are_refused() {
    for endpoint in ["https://x:1", "ftp://x", "http://", "not a uri"] {
        assert!(
            UnaryClient::new(endpoint, PATH, TIMEOUT, 1).is_err(),
            "{endpoint}"
        );
    }
    assert!(UnaryClient::new("http://localhost", PATH, TIMEOUT, 1).is_ok());
}

#[tokio::test]
async fn replies_larger_than_the_flow_control_windows_get_through() {
    // 3 MiB replies, four times on one connection: more than the stream
    // (2 MiB) and connection (5 MiB) windows, so capacity must be released.
    let big = vec![7u8; 3 * 1024 * 1024];
    let endpoint = raw_server(ok_reply(framed(0, big.len() as u32, &big)), false).await;
    let client = UnaryClient::new(&endpoint, PATH, TIMEOUT, 4 * 1024 * 1024).unwrap();
    for round in 0..4 {
        let reply = client.call(event("x")).await;
        assert_eq!(reply.unwrap().len(), big.len(), "round {round}");
    }
}

#[tokio::test]
async fn a_request_larger_than_the_subscribers_window_gets_through() {
    let message = b"\x1a\x02ok".to_vec();
    let endpoint = raw_server(ok_reply(framed(0, 4, &message)), false).await;
    let client = UnaryClient::new(&endpoint, PATH, TIMEOUT, 4 * 1024 * 1024).unwrap();
    // The bare h2 server's windows are h2's default 64 KiB.
    let big = Bytes::from(vec![0u8; 1024 * 1024]);
    let reply = client.call(big).await;
    assert_eq!(&reply.unwrap()[..], &message[..]);
}

#[tokio::test]
async fn calls_dropped_at_their_deadline_leave_the_connection_usable() {
    let behaviour: crate::testing::Behaviour = std::sync::Arc::new(|event: v1::HookEvent| {
        Box::pin(async move {
            if event.id == "hang" {
                std::future::pending::<()>().await;
            }
            Ok(v1::Decision {
                reason: event.id,
                ..v1::Decision::default()
            })
        })
    });
    let client = client(&fake_subscriber(behaviour).await);
    assert_eq!(decision(&client, "a").await.unwrap().reason, "a");
    for _ in 0..50 {
        let call = decision(&client, "hang");
        assert!(
            tokio::time::timeout(Duration::from_millis(20), call)
                .await
                .is_err()
        );
    }
    assert_eq!(decision(&client, "b").await.unwrap().reason, "b");
    assert!(!client.connection_closed().await);
}

#[tokio::test]
async fn a_stream_reset_is_the_subscribers_answer_unless_it_refused_the_stream() {
    let cases = [
        (h2::Reason::CANCEL, Some(Code::Cancelled)),
        (h2::Reason::INTERNAL_ERROR, Some(Code::Internal)),
        // Refused (nothing was processed): sent once more, then it is as if
        // the subscriber could not be reached.
        (h2::Reason::REFUSED_STREAM, None),
    ];
    for (reason, code) in cases {
        let client = client(&resetting_server(reason).await);
        match (client.call(event("x")).await, code) {
            (Err(CallError::Status { code: got, .. }), Some(want)) => {
                assert_eq!(got, want, "{reason:?}");
            }
            (Err(CallError::Transport(_)), None) => {}
            (other, _) => panic!("{reason:?}: {other:?}"),
        }
        assert!(!client.connection_closed().await, "{reason:?}");
    }
}

#[tokio::test]
async fn an_endpoint_with_user_info_dials_its_host() {
    let endpoint = fake_subscriber(echo_id()).await;
    let with_user = endpoint.replace("http://", "http://user@");
    assert_eq!(
        decision(&client(&with_user), "u").await.unwrap().reason,
        "u"
    );
}

#[tokio::test]
async fn a_refused_request_is_sent_once_more() {
    let message = b"\x1a\x02ok".to_vec();
    let (endpoint, seen) = refusing_server(1, ok_reply(framed(0, 4, &message))).await;
    let reply = client(&endpoint).call(event("x")).await;
    assert_eq!(&reply.unwrap()[..], &message[..]);
    assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), 2);

    // Refused twice: one retry only, then the failure is reported.
    let (endpoint, seen) = refusing_server(2, ok_reply(framed(0, 4, &message))).await;
    let reply = client(&endpoint).call(event("x")).await;
    assert!(matches!(reply, Err(CallError::Transport(_))), "{reply:?}");
    assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), 2);
}
