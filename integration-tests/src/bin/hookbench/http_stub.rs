//! The local HTTP endpoint the script baselines post to: answers every
//! request with `{}` and closes, like the smallest possible policy server.
//!
//! It lives in the bench process so its cost is the same for bash, node and
//! python; it counts requests so the bench can check the scripts really
//! posted.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// Largest request accepted (headers and body).
const MAX_REQUEST: usize = 64 * 1024;
/// How long one request may take to arrive.
const READ_DEADLINE: Duration = Duration::from_secs(5);
const REPLY: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";

/// A running stub; stopped on drop.
#[derive(Debug)]
pub(crate) struct HttpStub {
    addr: SocketAddr,
    requests: Arc<AtomicU64>,
    server: JoinHandle<()>,
}

impl HttpStub {
    pub(crate) async fn start() -> anyhow::Result<HttpStub> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .context("binding the HTTP stub")?;
        let addr = listener.local_addr()?;
        let requests = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&requests);
        let server = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let counter = Arc::clone(&counter);
                tokio::spawn(async move {
                    let _ = stream.set_nodelay(true);
                    match tokio::time::timeout(READ_DEADLINE, answer(stream)).await {
                        Ok(Ok(())) => {
                            counter.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(Err(err)) => eprintln!("hookbench: HTTP stub: {err}"),
                        Err(_) => eprintln!("hookbench: HTTP stub: request timed out"),
                    }
                });
            }
        });
        Ok(HttpStub {
            addr,
            requests,
            server,
        })
    }

    pub(crate) fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Requests answered so far.
    pub(crate) fn requests(&self) -> u64 {
        self.requests.load(Ordering::Relaxed)
    }
}

impl Drop for HttpStub {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// Reads one request (headers, then `Content-Length` bytes of body) and
/// answers `{}`.
async fn answer(mut stream: TcpStream) -> anyhow::Result<()> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let (head_end, body_len) = loop {
        let n = stream.read(&mut chunk).await?;
        anyhow::ensure!(n > 0, "connection closed mid-request");
        buf.extend_from_slice(&chunk[..n]);
        anyhow::ensure!(buf.len() <= MAX_REQUEST, "request too large");
        if let Some(end) = find(&buf, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            if head.contains("expect: 100-continue") {
                stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").await?;
            }
            let len = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map(|v| v.trim().parse::<usize>())
                .transpose()
                .context("bad content-length")?
                .unwrap_or(0);
            break (end + 4, len);
        }
    };
    anyhow::ensure!(head_end + body_len <= MAX_REQUEST, "request too large");
    while buf.len() < head_end + body_len {
        let n = stream.read(&mut chunk).await?;
        anyhow::ensure!(n > 0, "connection closed mid-body");
        buf.extend_from_slice(&chunk[..n]);
    }
    stream.write_all(REPLY).await?;
    stream.shutdown().await?;
    Ok(())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
