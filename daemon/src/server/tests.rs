//! The server in-process on the real transport (a Unix socket, a named pipe
//! on Windows): a request and its reply, bad frames, a full gateway, read
//! deadlines, and shutdown.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hookgate_wire::{HEADER_LEN, Header, MAX_REPLY_BODY, Reply, ReplyFrame as _};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::metrics::{Metrics, Refusal};
use crate::testing::{claude_payload, request};
use hookgate_config::{Config, Env};
use hookgate_transport::{ClientStream, Listener, connect};

struct Running {
    _dir: tempfile::TempDir,
    path: PathBuf,
    metrics: Arc<Metrics>,
    shutdown: CancellationToken,
    task: JoinHandle<anyhow::Result<()>>,
}

async fn start(server_toml: &str) -> Running {
    start_with(server_toml, "").await
}

/// [`start`] with `subscribers_toml` after the `[server]` table.
async fn start_with(server_toml: &str, subscribers_toml: &str) -> Running {
    let dir = crate::testing::private_tempdir();
    let path = crate::testing::socket_path(&dir, "gateway.sock");
    let config = Config::parse(
        "test.toml",
        &format!("[server]\n{server_toml}\n{subscribers_toml}"),
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

    // Bytes after the request, before any reply: not a shim's.
    let mut trailing = request("claude-code", b"{}".to_vec()).encode();
    trailing.extend_from_slice(b"HKGT");
    assert!(ask(&gw.path, &trailing).await.is_empty());

    // The gateway still serves afterwards, a request past its first read
    // too.
    let ok = ask(&gw.path, &request("claude-code", b"{}".to_vec()).encode()).await;
    assert_eq!(decode_reply(&ok).exit_code, 0);
    let long = claude_payload("UserPromptSubmit", |p| {
        p["prompt"] = serde_json::Value::String("x".repeat(3 * super::FIRST_READ));
    });
    let ok = ask(&gw.path, &request("claude-code", long).encode()).await;
    assert_eq!(decode_reply(&ok).exit_code, 0);
    let snap = gw.metrics.snapshot();
    assert_eq!(snap.refusals(Refusal::BadFrame), 2);
    assert_eq!(snap.refusals(Refusal::Oversize), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_gateway_answers_busy_and_idle_connections_take_no_slot() {
    // One evaluation slot, held by a request whose subscriber hangs until
    // its deadline.
    let hang: crate::testing::Behaviour =
        Arc::new(|_event| futures_util::FutureExt::boxed(futures_util::future::pending()));
    let endpoint = crate::testing::fake_subscriber(hang).await;
    let gw = start_with(
        "max_connections = 1\nqueue_wait_ms = 50\nread_timeout_ms = 30000",
        &format!("[[subscriber]]\nname = \"slow\"\nendpoint = \"{endpoint}\"\ntimeout_ms = 1500\n"),
    )
    .await;
    // Idle: connected, request not sent. It holds no slot.
    let mut idle = connect(&gw.path).await.unwrap();
    idle.write_all(b"HK").await.unwrap();

    let frame = request("claude-code", claude_payload("UserPromptSubmit", |_| {})).encode();
    let mut first = connect(&gw.path).await.unwrap();
    first.write_all(&frame).await.unwrap();
    // Until the gateway has the first request, the second might win.
    while gw.metrics.snapshot().total_events() == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut second = connect(&gw.path).await.unwrap();
    second.write_all(&frame).await.unwrap();
    let busy = read_all(&mut second).await;
    assert_eq!(
        busy,
        hookgate_wire::FrameKind::busy_frame(),
        "busy, at once"
    );
    assert_eq!(gw.metrics.snapshot().refusals(Refusal::Busy), 1);

    // The first is answered in full (its subscriber timed out: no opinion),
    // and so is the idle one once it sends the rest.
    assert_eq!(decode_reply(&read_all(&mut first).await).exit_code, 0);
    idle.write_all(&frame[2..]).await.unwrap();
    assert_eq!(decode_reply(&read_all(&mut idle).await).exit_code, 0);
}

/// A request larger than the memory budget has room for is answered busy
/// before its body is read, and counted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_over_the_memory_budget_is_answered_busy() {
    let gw = start("memory_budget_mib = 64\nread_timeout_ms = 30000").await;
    // Announce an 8 MiB body and send none of it: its reservation alone
    // (the body times the cost factor) is more than 64 MiB can hold
    // eight times.
    let body = hookgate_wire::MAX_STDIN as u32;
    let mut header = b"HKGT\x01\x01".to_vec();
    header.extend_from_slice(&body.to_be_bytes());
    let mut held = Vec::new();
    let mut answers = Vec::new();
    for _ in 0..3 {
        let mut stream = connect(&gw.path).await.unwrap();
        stream.write_all(&header).await.unwrap();
        held.push(stream);
    }
    for stream in &mut held {
        let mut buf = [0u8; HEADER_LEN];
        let got =
            tokio::time::timeout(Duration::from_millis(300), stream.read_exact(&mut buf)).await;
        answers.push(got.is_ok());
    }
    assert_eq!(
        answers.iter().filter(|busy| **busy).count(),
        2,
        "{answers:?}"
    );
    assert_eq!(gw.metrics.snapshot().refusals(Refusal::OverBudget), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_sender_hits_the_read_deadline() {
    let gw = start("read_timeout_ms = 100").await;
    let mut stream = connect(&gw.path).await.unwrap();
    stream.write_all(b"HKG").await.unwrap();
    assert!(read_all(&mut stream).await.is_empty());
    assert_eq!(gw.metrics.snapshot().refusals(Refusal::ReadTimeout), 1);
}
