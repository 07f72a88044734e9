//! The runtime's own part of the socket floor: the bare AF_UNIX exchange
//! (`floor_echo::UnixEcho`) served the way the gateway serves it, on
//! tokio's multi-thread runtime built as the gateway builds it: the
//! accept loop on a worker, a task per connection, a deadline on each
//! read and on the reply, and nothing else. What it adds to the bare echo
//! is the runtime's (readiness, wake-ups, task hand-offs); what the
//! gateway adds to it is the gateway's own work.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use hookgate_wire::{HEADER_LEN, Header, MAX_REQUEST_BODY};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{UnixListener, UnixStream};

/// How long the server waits on a silent client before it drops it.
const READ_DEADLINE: Duration = Duration::from_secs(10);

/// A minimal tokio server of the socket exchange, stopped when dropped.
#[derive(Debug)]
pub(crate) struct TokioEcho {
    path: PathBuf,
    runtime: Option<tokio::runtime::Runtime>,
    _dir: tempfile::TempDir,
}

impl TokioEcho {
    pub(crate) fn start(reply: Vec<u8>) -> anyhow::Result<TokioEcho> {
        let dir = crate::gateway::private_dir("hookbench-tokio-")?;
        let path = dir.path().join("tokio.sock");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_stack_size(hookgate_adapters::STACK_SIZE)
            .build()
            .context("building the tokio echo's runtime")?;
        let listener = {
            let _entered = runtime.enter();
            UnixListener::bind(&path).context("binding the tokio echo")?
        };
        let reply = Arc::new(reply);
        runtime.spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(exchange(stream, Arc::clone(&reply)));
            }
        });
        Ok(TokioEcho {
            path,
            runtime: Some(runtime),
            _dir: dir,
        })
    }

    pub(crate) fn socket(&self) -> &Path {
        &self.path
    }
}

impl Drop for TokioEcho {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// One request frame read (header, then the body it announces), `reply`
/// written, our side closed; each step under the deadline.
async fn exchange(mut stream: UnixStream, reply: Arc<Vec<u8>>) -> anyhow::Result<()> {
    let mut header = [0u8; HEADER_LEN];
    tokio::time::timeout(READ_DEADLINE, stream.read_exact(&mut header)).await??;
    let header = Header::decode(&header, MAX_REQUEST_BODY)?;
    let mut body = vec![0u8; header.body_len];
    tokio::time::timeout(READ_DEADLINE, stream.read_exact(&mut body)).await??;
    tokio::time::timeout(READ_DEADLINE, async {
        stream.write_all(&reply).await?;
        stream.shutdown().await
    })
    .await??;
    Ok(())
}
