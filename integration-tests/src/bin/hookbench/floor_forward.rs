//! The throughput floor's one gRPC call per event: the cheapest client of
//! `hookgate.v1.Subscriber/OnEvent` there is, HTTP/2 straight over `h2` as
//! the gateway's own client speaks it (one connection, the request's head
//! built once, the message in one DATA frame), with nothing else: no
//! breaker, no deadline per call beyond the floor's, no conversion of the
//! payload (the event carries it raw). What the gateway does per event
//! beyond this call and the socket exchange is its own work.

use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context as _, bail};
use h2::client::SendRequest;
use hookgate_proto::v1::{Decision, HookEvent, Permission};
use http::{Method, Request};
use prost::Message as _;
use prost::bytes::{BufMut as _, Bytes, BytesMut};

const PATH: &str = "/hookgate.v1.Subscriber/OnEvent";
/// A gRPC message's prefix: a compressed flag and the big-endian length.
const PREFIX: usize = 5;

/// One HTTP/2 connection to a subscriber, driven by a task on the
/// current runtime.
#[derive(Debug)]
pub(crate) struct Forward {
    send: SendRequest<Bytes>,
    head: http::request::Parts,
    ids: AtomicU64,
}

impl Forward {
    /// Connects to `endpoint` (`http://127.0.0.1:PORT` or `unix:///path`).
    pub(crate) async fn connect(endpoint: &str) -> anyhow::Result<Forward> {
        let (send, origin) = if let Some(path) = endpoint.strip_prefix("unix://") {
            let io = tokio::net::UnixStream::connect(path)
                .await
                .with_context(|| format!("connecting to {endpoint}"))?;
            (handshake(io).await?, "http://localhost".to_owned())
        } else {
            let address = endpoint
                .strip_prefix("http://")
                .context("not an http:// or unix:// endpoint")?;
            let io = tokio::net::TcpStream::connect(address)
                .await
                .with_context(|| format!("connecting to {endpoint}"))?;
            io.set_nodelay(true)?;
            (handshake(io).await?, endpoint.to_owned())
        };
        let (head, ()) = Request::builder()
            .method(Method::POST)
            .uri(format!("{origin}{PATH}"))
            .header(http::header::CONTENT_TYPE, "application/grpc")
            .header(http::header::TE, "trailers")
            .body(())?
            .into_parts();
        Ok(Forward {
            send,
            head,
            ids: AtomicU64::new(0),
        })
    }

    /// Asks the subscriber about one request body; an answer other than
    /// `allow` is an error (the bench's subscribers allow everything).
    pub(crate) async fn ask(&self, body: &[u8]) -> anyhow::Result<()> {
        let event = HookEvent {
            id: format!("floor-{}", self.ids.fetch_add(1, Ordering::Relaxed)),
            raw_json: String::from_utf8_lossy(body).into_owned(),
            ..HookEvent::default()
        };
        let mut message = BytesMut::with_capacity(PREFIX + event.encoded_len());
        message.put_u8(0);
        message.put_u32(u32::try_from(event.encoded_len())?);
        event.encode(&mut message)?;

        let mut send = self.send.clone().ready().await?;
        let request = Request::from_parts(self.head.clone(), ());
        let (response, mut stream) = send.send_request(request, false)?;
        stream.send_data(message.freeze(), true)?;
        let mut reply = response.await?.into_body();
        let mut data = BytesMut::new();
        while let Some(chunk) = reply.data().await {
            let chunk = chunk?;
            let _ = reply.flow_control().release_capacity(chunk.len());
            data.extend_from_slice(&chunk);
        }
        let trailers = reply
            .trailers()
            .await?
            .context("a reply without trailers")?;
        if trailers.get("grpc-status").map(|s| s.as_bytes()) != Some(b"0") {
            bail!("the subscriber answered {trailers:?}");
        }
        let decision = Decision::decode(data.get(PREFIX..).context("a short reply")?)?;
        if decision.permission != Permission::Allow as i32 {
            bail!("the subscriber did not allow: {decision:?}");
        }
        Ok(())
    }
}

async fn handshake<T>(io: T) -> anyhow::Result<SendRequest<Bytes>>
where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (send, connection) = h2::client::handshake(io)
        .await
        .context("HTTP/2 handshake with the subscriber")?;
    tokio::spawn(async move {
        if let Err(err) = connection.await {
            eprintln!("hookbench: the floor's subscriber connection ended: {err}");
        }
    });
    Ok(send)
}
