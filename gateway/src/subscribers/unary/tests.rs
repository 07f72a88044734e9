use std::time::Duration;

use hookgate_proto::v1;
use http::{HeaderMap, HeaderValue, StatusCode};
use prost::Message as _;
use prost::bytes::Bytes;
use tonic::Code;

use super::grpc::{code_of_http, code_of_reset, grpc_timeout, percent_decode};
use super::*;
use crate::testing::fake_subscriber;

const PATH: &str = "/hookgate.v1.Subscriber/OnEvent";
const TIMEOUT: Duration = Duration::from_secs(10);

fn client(endpoint: &str) -> UnaryClient {
    UnaryClient::new(endpoint, TIMEOUT, 1024 * 1024).unwrap()
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
    let reply = client.call(PATH, event(id), TIMEOUT).await?;
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
async fn concurrent_calls_share_one_connection() {
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

/// What the raw HTTP/2 server below answers to every request.
#[derive(Debug, Clone, Default)]
struct Reply {
    status: u16,
    headers: Vec<(&'static str, &'static str)>,
    body: Option<Vec<u8>>,
    trailers: Vec<(&'static str, &'static str)>,
}

fn framed(compressed: u8, announced: u32, message: &[u8]) -> Vec<u8> {
    let mut out = vec![compressed];
    out.extend_from_slice(&announced.to_be_bytes());
    out.extend_from_slice(message);
    out
}

fn ok_reply(body: Vec<u8>) -> Reply {
    Reply {
        status: 200,
        body: Some(body),
        trailers: vec![("grpc-status", "0")],
        ..Reply::default()
    }
}

fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
    pairs
        .iter()
        .map(|(k, v)| {
            (
                http::HeaderName::from_static(k),
                HeaderValue::from_static(v),
            )
        })
        .collect()
}

/// A bare `h2` server answering `reply`; with `one_per_connection` it
/// closes each connection after its first request.
async fn raw_server(reply: Reply, one_per_connection: bool) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let reply = reply.clone();
            tokio::spawn(async move {
                let Ok(mut conn) = h2::server::handshake(socket).await else {
                    return;
                };
                while let Some(Ok((request, respond))) = conn.accept().await {
                    tokio::spawn(answer(request, respond, reply.clone()));
                    if one_per_connection {
                        conn.graceful_shutdown();
                    }
                }
            });
        }
    });
    format!("http://{addr}")
}

async fn answer(
    request: http::Request<h2::RecvStream>,
    mut respond: h2::server::SendResponse<Bytes>,
    reply: Reply,
) {
    let mut body = request.into_body();
    while let Some(Ok(chunk)) = body.data().await {
        let _ = body.flow_control().release_capacity(chunk.len());
    }
    let mut response = http::Response::new(());
    *response.status_mut() = StatusCode::from_u16(reply.status).unwrap();
    *response.headers_mut() = headers(&reply.headers);
    let ends = reply.body.is_none() && reply.trailers.is_empty();
    let Ok(mut send) = respond.send_response(response, ends) else {
        return;
    };
    if let Some(data) = reply.body {
        let _ = send.send_data(Bytes::from(data), reply.trailers.is_empty());
    }
    if !reply.trailers.is_empty() {
        let _ = send.send_trailers(headers(&reply.trailers));
    }
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
        let client = UnaryClient::new(&raw_server(reply, false).await, TIMEOUT, 1024).unwrap();
        let got = client.call(PATH, event("x"), TIMEOUT).await;
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
    let client = UnaryClient::new(&fake_subscriber(echo_id()).await, TIMEOUT, 16).unwrap();
    let big = Bytes::from(vec![0u8; 17]);
    assert!(matches!(
        client.call(PATH, big, TIMEOUT).await,
        Err(CallError::Protocol(_))
    ));
}

#[tokio::test]
async fn a_closed_connection_is_reopened_by_the_next_call() {
    let message = b"\x1a\x02ok".to_vec();
    let endpoint = raw_server(ok_reply(framed(0, 4, &message)), true).await;
    let client = client(&endpoint);
    for round in 0..3 {
        let reply = client.call(PATH, event("x"), TIMEOUT).await;
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
            UnaryClient::new(endpoint, TIMEOUT, 1).is_err(),
            "{endpoint}"
        );
    }
    assert!(UnaryClient::new("http://localhost", TIMEOUT, 1).is_ok());
}

#[test]
fn grpc_timeout_is_whole_milliseconds_rounded_up() {
    let cases = [
        (Duration::from_secs(1), "1000m"),
        (Duration::from_nanos(1), "1m"),
        (Duration::from_micros(1500), "2m"),
        (Duration::from_secs(1_000_000), "99999999m"),
    ];
    for (timeout, want) in cases {
        assert_eq!(grpc_timeout(timeout), want, "{timeout:?}");
    }
}

#[test]
fn grpc_message_is_percent_decoded() {
    let cases: [(&[u8], &str); 5] = [
        (b"plain", "plain"),
        (b"a%20b%25", "a b%"),
        (b"%C3%BC", "ü"),
        (b"100%", "100%"),
        (b"%zz%4", "%zz%4"),
    ];
    for (raw, want) in cases {
        assert_eq!(percent_decode(raw), want);
    }
}

#[test]
fn http_errors_map_to_grpc_codes() {
    let cases = [
        (400, Code::Internal),
        (401, Code::Unauthenticated),
        (403, Code::PermissionDenied),
        (404, Code::Unimplemented),
        (503, Code::Unavailable),
        (500, Code::Unknown),
    ];
    for (status, code) in cases {
        assert_eq!(code_of_http(StatusCode::from_u16(status).unwrap()), code);
    }
}

#[tokio::test]
async fn replies_larger_than_the_flow_control_windows_get_through() {
    // 3 MiB replies, four times on one connection: more than the stream
    // (2 MiB) and connection (5 MiB) windows, so capacity must be released.
    let big = vec![7u8; 3 * 1024 * 1024];
    let endpoint = raw_server(ok_reply(framed(0, big.len() as u32, &big)), false).await;
    let client = UnaryClient::new(&endpoint, TIMEOUT, 4 * 1024 * 1024).unwrap();
    for round in 0..4 {
        let reply = client.call(PATH, event("x"), TIMEOUT).await;
        assert_eq!(reply.unwrap().len(), big.len(), "round {round}");
    }
}

#[tokio::test]
async fn a_request_larger_than_the_subscribers_window_gets_through() {
    let message = b"\x1a\x02ok".to_vec();
    let endpoint = raw_server(ok_reply(framed(0, 4, &message)), false).await;
    let client = UnaryClient::new(&endpoint, TIMEOUT, 4 * 1024 * 1024).unwrap();
    // The bare h2 server's windows are h2's default 64 KiB.
    let big = Bytes::from(vec![0u8; 1024 * 1024]);
    let reply = client.call(PATH, big, TIMEOUT).await;
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

/// A bare h2 server that resets every stream with `reason`.
async fn resetting_server(reason: h2::Reason) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let Ok(mut conn) = h2::server::handshake(socket).await else {
                    return;
                };
                while let Some(Ok((_request, mut respond))) = conn.accept().await {
                    respond.send_reset(reason);
                }
            });
        }
    });
    format!("http://{addr}")
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
        match (client.call(PATH, event("x"), TIMEOUT).await, code) {
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

#[test]
fn stream_resets_map_to_grpc_codes_as_tonic_maps_them() {
    let cases = [
        (h2::Reason::CANCEL, Code::Cancelled),
        (h2::Reason::INTERNAL_ERROR, Code::Internal),
        (h2::Reason::REFUSED_STREAM, Code::Unavailable),
        (h2::Reason::ENHANCE_YOUR_CALM, Code::ResourceExhausted),
        (h2::Reason::from(0xff), Code::Unknown),
    ];
    for (reason, code) in cases {
        assert_eq!(code_of_reset(reason), code, "{reason:?}");
    }
}

/// A bare h2 server that refuses the first `refusals` streams it gets
/// (REFUSED_STREAM: not processed) and answers the rest with `reply`;
/// counts the streams it saw.
async fn refusing_server(
    refusals: usize,
    reply: Reply,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::Ordering;
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let counter = std::sync::Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (counter, reply) = (std::sync::Arc::clone(&counter), reply.clone());
            tokio::spawn(async move {
                let Ok(mut conn) = h2::server::handshake(socket).await else {
                    return;
                };
                while let Some(Ok((request, mut respond))) = conn.accept().await {
                    if counter.fetch_add(1, Ordering::SeqCst) < refusals {
                        respond.send_reset(h2::Reason::REFUSED_STREAM);
                    } else {
                        tokio::spawn(answer(request, respond, reply.clone()));
                    }
                }
            });
        }
    });
    (format!("http://{addr}"), seen)
}

#[tokio::test]
async fn a_refused_request_is_sent_once_more() {
    let message = b"\x1a\x02ok".to_vec();
    let (endpoint, seen) = refusing_server(1, ok_reply(framed(0, 4, &message))).await;
    let reply = client(&endpoint).call(PATH, event("x"), TIMEOUT).await;
    assert_eq!(&reply.unwrap()[..], &message[..]);
    assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), 2);

    // Refused twice: one retry only, then the failure is reported.
    let (endpoint, seen) = refusing_server(2, ok_reply(framed(0, 4, &message))).await;
    let reply = client(&endpoint).call(PATH, event("x"), TIMEOUT).await;
    assert!(matches!(reply, Err(CallError::Transport(_))), "{reply:?}");
    assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), 2);
}
