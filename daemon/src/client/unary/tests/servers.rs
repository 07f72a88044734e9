//! Bare `h2` servers that answer what a test tells them to, malformed
//! replies included (a tonic server cannot be made to send those).

use http::{HeaderMap, HeaderValue, StatusCode};
use prost::bytes::Bytes;

/// What a server here answers to every request.
#[derive(Debug, Clone, Default)]
pub(super) struct Reply {
    pub(super) status: u16,
    pub(super) headers: Vec<(&'static str, &'static str)>,
    pub(super) body: Option<Vec<u8>>,
    pub(super) trailers: Vec<(&'static str, &'static str)>,
}

pub(super) fn framed(compressed: u8, announced: u32, message: &[u8]) -> Vec<u8> {
    let mut out = vec![compressed];
    out.extend_from_slice(&announced.to_be_bytes());
    out.extend_from_slice(message);
    out
}

pub(super) fn ok_reply(body: Vec<u8>) -> Reply {
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
pub(super) async fn raw_server(reply: Reply, one_per_connection: bool) -> String {
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

/// A bare h2 server that resets every stream with `reason`.
pub(super) async fn resetting_server(reason: h2::Reason) -> String {
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

/// A bare h2 server that refuses the first `refusals` streams it gets
/// (REFUSED_STREAM: not processed) and answers the rest with `reply`;
/// counts the streams it saw.
pub(super) async fn refusing_server(
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
