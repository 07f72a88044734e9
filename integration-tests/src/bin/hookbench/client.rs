//! In-process hook clients: speak the shim's frame format (`hookgate-wire`)
//! straight to the gateway's socket, so fan-out, throughput and memory
//! figures carry no process-spawn noise.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use anyhow::{Context as _, bail};
use hookgate_wire::{
    FrameKind, HEADER_LEN, Header, MAX_REPLY_BODY, Reply, ReplyFrame as _, Request,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixStream;

/// How long one call may take before the bench calls it a failure.
const CALL_DEADLINE: Duration = Duration::from_secs(10);

/// The request a Claude Code `PreToolUse` hook call makes, encoded.
pub(crate) fn request_frame(payload: &[u8]) -> Vec<u8> {
    Request {
        args: vec!["claude-code".to_owned()],
        cwd: "/home/dev/acme-api".to_owned(),
        env: vec![(
            "CLAUDE_PROJECT_DIR".to_owned(),
            "/home/dev/acme-api".to_owned(),
        )],
        stdin: payload.to_vec(),
    }
    .encode()
}

/// One hook call: connect, send `frame`, read the reply. Fails unless the
/// gateway answered with exit code 0 and no deny (every bench subscriber
/// allows, so anything else means the measurement is of an error path).
pub(crate) async fn call(socket: &Path, frame: &[u8]) -> anyhow::Result<Reply> {
    let exchange = async {
        let mut stream = UnixStream::connect(socket)
            .await
            .context("connecting to the gateway")?;
        stream.write_all(frame).await.context("sending")?;
        let mut header = [0u8; HEADER_LEN];
        stream
            .read_exact(&mut header)
            .await
            .context("reading the reply header")?;
        let header = Header::decode(&header, MAX_REPLY_BODY)?.expect(FrameKind::Reply)?;
        let mut body = vec![0u8; header.body_len];
        stream
            .read_exact(&mut body)
            .await
            .context("reading the reply body")?;
        anyhow::Ok(Reply::decode(&body)?)
    };
    let reply = tokio::time::timeout(CALL_DEADLINE, exchange)
        .await
        .context("no reply within 10 s")??;
    check(&reply)?;
    Ok(reply)
}

/// [`call`] with blocking I/O on the calling thread, as the shim does: the
/// thread that waits is the one the reply wakes, with no runtime between.
/// For the fan-out section, whose one-at-a-time calls spend most of their
/// time waiting.
pub(crate) fn call_blocking(socket: &Path, frame: &[u8]) -> anyhow::Result<Reply> {
    use std::io::{Read as _, Write as _};
    let mut stream =
        std::os::unix::net::UnixStream::connect(socket).context("connecting to the gateway")?;
    stream.set_read_timeout(Some(CALL_DEADLINE))?;
    stream.set_write_timeout(Some(CALL_DEADLINE))?;
    stream.write_all(frame).context("sending")?;
    let mut header = [0u8; HEADER_LEN];
    stream
        .read_exact(&mut header)
        .context("reading the reply header")?;
    let header = Header::decode(&header, MAX_REPLY_BODY)?.expect(FrameKind::Reply)?;
    let mut body = vec![0u8; header.body_len];
    stream
        .read_exact(&mut body)
        .context("reading the reply body")?;
    let reply = Reply::decode(&body)?;
    check(&reply)?;
    Ok(reply)
}

/// The reply every bench call expects: allow (exit 0, no deny).
pub(crate) fn check(reply: &Reply) -> anyhow::Result<()> {
    let stdout = String::from_utf8_lossy(&reply.stdout);
    if reply.exit_code != 0 || stdout.contains("deny") {
        bail!(
            "unexpected reply: exit {} stdout {stdout:?} stderr {:?}",
            reply.exit_code,
            String::from_utf8_lossy(&reply.stderr)
        );
    }
    Ok(())
}

/// Runs `clients` concurrent loops of calls until `stop` is set or
/// `budget` calls have been started (shared), returning how many completed.
pub(crate) async fn load(
    socket: &Path,
    frames: Arc<Vec<Vec<u8>>>,
    clients: usize,
    budget: Option<u64>,
    stop: Arc<AtomicBool>,
) -> anyhow::Result<u64> {
    let started = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::with_capacity(clients);
    for _ in 0..clients {
        let socket = socket.to_path_buf();
        let frames = Arc::clone(&frames);
        let started = Arc::clone(&started);
        let stop = Arc::clone(&stop);
        tasks.push(tokio::spawn(async move {
            let mut done = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let ticket = started.fetch_add(1, Ordering::Relaxed);
                if budget.is_some_and(|b| ticket >= b) {
                    break;
                }
                let frame = &frames[(ticket as usize) % frames.len()];
                call(&socket, frame).await?;
                done += 1;
            }
            anyhow::Ok(done)
        }));
    }
    let mut total = 0;
    for task in tasks {
        total += task.await.context("client task panicked")??;
    }
    Ok(total)
}
