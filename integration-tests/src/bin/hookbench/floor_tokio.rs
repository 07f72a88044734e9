//! The runtime's own part of the socket floor: the bare AF_UNIX exchange
//! (`floor_echo::UnixEcho`) served the way the gateway serves it, on
//! tokio's multi-thread runtime built as the gateway builds it: the
//! accept loop on a worker, a task per connection, a deadline on each
//! read and on the reply, and nothing else. What it adds to the bare echo
//! is the runtime's (readiness, wake-ups, task hand-offs); what the
//! gateway adds to it is the gateway's own work.
//!
//! The throughput section also runs it forwarding each request to a gRPC
//! subscriber (`floor_forward`) before replying: the floor of an event
//! with one subscriber.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use hookgate_wire::{HEADER_LEN, Header, MAX_REQUEST_BODY};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{UnixListener, UnixStream};

use crate::floor_forward::Forward;
use crate::gateway::cpu_time;

/// How long the server waits on a silent client (or subscriber) before
/// it drops it.
const READ_DEADLINE: Duration = Duration::from_secs(10);

/// Servers started so far: each names its runtime's threads apart.
static SERVERS: AtomicUsize = AtomicUsize::new(0);

/// A minimal tokio server of the socket exchange, stopped when dropped.
#[derive(Debug)]
pub(crate) struct TokioEcho {
    path: PathBuf,
    /// Its runtime's threads' name (at most 15 bytes, as Linux keeps it),
    /// which tells their CPU time from the rest of the bench's.
    threads: String,
    runtime: Option<tokio::runtime::Runtime>,
    _dir: tempfile::TempDir,
}

impl TokioEcho {
    pub(crate) fn start(reply: Vec<u8>) -> anyhow::Result<TokioEcho> {
        TokioEcho::serve(reply, None)
    }

    /// The same server asking the subscriber at `endpoint` about each
    /// request before it replies.
    pub(crate) fn forwarding(reply: Vec<u8>, endpoint: &str) -> anyhow::Result<TokioEcho> {
        TokioEcho::serve(reply, Some(endpoint))
    }

    fn serve(reply: Vec<u8>, endpoint: Option<&str>) -> anyhow::Result<TokioEcho> {
        let dir = crate::gateway::private_dir("hookbench-tokio-")?;
        let path = dir.path().join("tokio.sock");
        let threads = format!("hb-floor-{}", SERVERS.fetch_add(1, Ordering::Relaxed));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_stack_size(hookgate_adapters::STACK_SIZE)
            .thread_name(threads.clone())
            .build()
            .context("building the tokio echo's runtime")?;
        let listener = {
            let _entered = runtime.enter();
            UnixListener::bind(&path).context("binding the tokio echo")?
        };
        let forward = match endpoint {
            Some(endpoint) => Some(Arc::new(runtime.block_on(Forward::connect(endpoint))?)),
            None => None,
        };
        let reply = Arc::new(reply);
        runtime.spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (reply, forward) = (Arc::clone(&reply), forward.clone());
                tokio::spawn(async move {
                    if let Err(err) = exchange(stream, reply, forward).await {
                        eprintln!("hookbench: the tokio floor dropped a call: {err:#}");
                    }
                });
            }
        });
        Ok(TokioEcho {
            path,
            threads,
            runtime: Some(runtime),
            _dir: dir,
        })
    }

    pub(crate) fn socket(&self) -> &Path {
        &self.path
    }

    /// The CPU time its runtime's threads have used.
    pub(crate) fn cpu_time(&self) -> anyhow::Result<Duration> {
        let mut total = Duration::ZERO;
        for task in std::fs::read_dir("/proc/self/task").context("listing the bench's threads")? {
            let tid = task?.file_name();
            let tid = tid.to_string_lossy();
            // A thread may end between the listing and the reads.
            let Ok(comm) = std::fs::read_to_string(format!("/proc/self/task/{tid}/comm")) else {
                continue;
            };
            if comm.trim_end() == self.threads {
                total += cpu_time(&format!("self/task/{tid}")).unwrap_or_default();
            }
        }
        Ok(total)
    }
}

impl Drop for TokioEcho {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// One request frame read (header, then the body it announces), the
/// subscriber asked (if any), `reply` written, our side closed; each step
/// under the deadline.
async fn exchange(
    mut stream: UnixStream,
    reply: Arc<Vec<u8>>,
    forward: Option<Arc<Forward>>,
) -> anyhow::Result<()> {
    let mut header = [0u8; HEADER_LEN];
    tokio::time::timeout(READ_DEADLINE, stream.read_exact(&mut header)).await??;
    let header = Header::decode(&header, MAX_REQUEST_BODY)?;
    let mut body = vec![0u8; header.body_len];
    tokio::time::timeout(READ_DEADLINE, stream.read_exact(&mut body)).await??;
    if let Some(forward) = forward {
        tokio::time::timeout(READ_DEADLINE, forward.ask(&body)).await??;
    }
    tokio::time::timeout(READ_DEADLINE, async {
        stream.write_all(&reply).await?;
        stream.shutdown().await
    })
    .await??;
    Ok(())
}
