//! The server in-process on the real transport (a Unix socket, a named pipe
//! on Windows): a request and its reply, bad frames, a full gateway, read
//! deadlines, and shutdown.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hookgate_wire::{HEADER_LEN, Header, MAX_REPLY_BODY, Reply};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::config::{Config, Env};
use crate::metrics::{Metrics, Refusal};
use crate::testing::{claude_payload, request};
use crate::transport::{ClientStream, Listener, connect};

struct Running {
    _dir: tempfile::TempDir,
    path: PathBuf,
    metrics: Arc<Metrics>,
    shutdown: CancellationToken,
    task: JoinHandle<anyhow::Result<()>>,
}

async fn start(server_toml: &str) -> Running {
    let dir = crate::testing::private_tempdir();
    let path = crate::testing::socket_path(&dir, "gateway.sock");
    let config = Config::parse(
        "test.toml",
        &format!("[server]\n{server_toml}\n"),
        &Env::default(),
    )
    .unwrap();
    let listener = Listener::bind(&path).await.unwrap();
    let metrics = Arc::new(Metrics::default());
    let shutdown = CancellationToken::new();
    let task = tokio::spawn(crate::serve(
        config,
        listener,
        shutdown.clone(),
        Arc::clone(&metrics),
        crate::Options::default(),
    ));
    Running {
        _dir: dir,
        path,
        metrics,
        shutdown,
        task,
    }
}

/// Everything the gateway sends before closing. A reset (the gateway
/// closed with our bytes unread) counts as a close.
async fn read_all(stream: &mut ClientStream) -> Vec<u8> {
    let mut out = Vec::new();
    match stream.read_to_end(&mut out).await {
        Ok(_) => out,
        Err(err) if err.kind() == std::io::ErrorKind::ConnectionReset => out,
        Err(err) => panic!("reading the reply: {err}"),
    }
}

fn decode_reply(bytes: &[u8]) -> Reply {
    let header: [u8; HEADER_LEN] = bytes[..HEADER_LEN].try_into().unwrap();
    let header = Header::decode(&header, MAX_REPLY_BODY).unwrap();
    assert_eq!(bytes.len(), HEADER_LEN + header.body_len);
    Reply::decode(&bytes[HEADER_LEN..]).unwrap()
}

async fn ask(path: &Path, frame: &[u8]) -> Vec<u8> {
    let mut stream = connect(path).await.unwrap();
    // The gateway may close before reading everything; that is its answer.
    let _ = stream.write_all(frame).await;
    read_all(&mut stream).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_a_request_then_shuts_down_and_removes_the_socket() {
    let gw = start("").await;
    let payload = claude_payload("UserPromptSubmit", |_| {});
    let bytes = ask(&gw.path, &request("claude-code", payload).encode()).await;
    let reply = decode_reply(&bytes);
    assert_eq!(reply.exit_code, 0);
    assert_eq!(gw.metrics.snapshot().total_events(), 1);

    gw.shutdown.cancel();
    gw.task.await.unwrap().unwrap();
    assert_nothing_listens(&gw.path).await;
}

/// Once `serve` has returned, nothing answers and the name is gone: at
/// once on Unix (the socket file is removed with the listener). On
/// Windows the listening pipe instance closes when the runtime sees its
/// pending connect cancelled (mio closes a pipe handle only once its
/// cancelled I/O has completed), just after `serve` drops it; a client
/// that gets in before that is closed unanswered.
async fn assert_nothing_listens(path: &Path) {
    #[cfg(unix)]
    assert!(!path.exists(), "socket removed on shutdown");
    // A hang guard, not a measurement: generous, so a busy machine cannot
    // trip it.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let attempt = tokio::time::timeout_at(deadline, connect(path)).await;
        match attempt.expect("the pipe outlived `serve` by 30 s") {
            Err(err) => {
                assert_eq!(err.kind(), std::io::ErrorKind::NotFound, "nothing listens");
                return;
            }
            Ok(mut late) => {
                if cfg!(unix) {
                    panic!("the Unix socket accepted a connection after shutdown");
                }
                let answer = tokio::time::timeout_at(deadline, read_all(&mut late));
                assert!(answer.await.expect("held open").is_empty(), "answered");
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_frames_are_closed_unanswered_and_counted() {
    let gw = start("").await;
    assert!(ask(&gw.path, b"GET / HTTP/1.1\r\n\r\n").await.is_empty());

    // A valid header announcing a body over the limit.
    let mut huge = request("claude-code", Vec::new()).encode();
    huge[6..10].copy_from_slice(&u32::MAX.to_be_bytes());
    assert!(ask(&gw.path, &huge[..HEADER_LEN]).await.is_empty());

    // A connection that says nothing at all is not an error.
    drop(connect(&gw.path).await.unwrap());

    // The gateway still serves afterwards.
    let ok = ask(&gw.path, &request("claude-code", b"{}".to_vec()).encode()).await;
    assert_eq!(decode_reply(&ok).exit_code, 0);
    let snap = gw.metrics.snapshot();
    assert_eq!(snap.refusals(Refusal::BadFrame), 1);
    assert_eq!(snap.refusals(Refusal::Oversize), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_gateway_closes_new_connections_unanswered() {
    let gw = start("max_connections = 1\nqueue_wait_ms = 50\nread_timeout_ms = 30000").await;
    // Holds the only slot: connected, request not sent yet.
    let mut first = connect(&gw.path).await.unwrap();
    first.write_all(b"HK").await.unwrap();

    let mut second = connect(&gw.path).await.unwrap();
    assert!(read_all(&mut second).await.is_empty());
    assert_eq!(gw.metrics.snapshot().refusals(Refusal::Busy), 1);

    // The first one is still served in full.
    let frame = request("claude-code", claude_payload("UserPromptSubmit", |_| {})).encode();
    first.write_all(&frame[2..]).await.unwrap();
    assert_eq!(decode_reply(&read_all(&mut first).await).exit_code, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_sender_hits_the_read_deadline() {
    let gw = start("read_timeout_ms = 100").await;
    let mut stream = connect(&gw.path).await.unwrap();
    stream.write_all(b"HKG").await.unwrap();
    assert!(read_all(&mut stream).await.is_empty());
    assert_eq!(gw.metrics.snapshot().refusals(Refusal::ReadTimeout), 1);
}
