//! The accept loop and one connection's life: peer check (the
//! transport's, counted here), a slot, one request read under a deadline,
//! one reply.
//!
//! Bounded everywhere: at most `max_connections` connections are served at
//! once; a new one waits up to `queue_wait` for a slot *in the accept loop*
//! (so waiting costs nothing but kernel backlog), then is closed unanswered
//! and counted. Closing unanswered is deliberate: the shim then applies the
//! fail mode its user chose (open or closed), which the gateway cannot know.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use hookgate_wire::{FrameKind, HEADER_LEN, Header, MAX_REQUEST_BODY, Request, WireError};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::ServerConfig;
use crate::metrics::{Metrics, Refusal};
use crate::pipeline::Pipeline;
use crate::transport::{AcceptError, Connection, Listener, Refused};

/// What the accept loop needs.
#[derive(Debug)]
pub struct Server {
    pub pipeline: Arc<Pipeline>,
    pub metrics: Arc<Metrics>,
    pub config: ServerConfig,
}

impl Server {
    /// Accepts until `shutdown` fires; each connection runs on `connections`.
    pub async fn accept_loop(
        &self,
        listener: &Listener,
        shutdown: &CancellationToken,
        connections: &TaskTracker,
    ) {
        let slots = Arc::new(Semaphore::new(self.config.max_connections));
        loop {
            let accepted = tokio::select! {
                biased;
                () = shutdown.cancelled() => return,
                accepted = listener.accept() => accepted,
            };
            let stream = match accepted {
                Ok(stream) => stream,
                Err(AcceptError::Io(err)) => {
                    // Typically EMFILE: back off instead of spinning.
                    tracing::warn!(error = %err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
                Err(AcceptError::Refused(refused)) => {
                    self.count_refused(&refused);
                    continue;
                }
            };
            let permit = match Arc::clone(&slots).try_acquire_owned() {
                Ok(permit) => permit,
                Err(_) => {
                    let waited = tokio::select! {
                        biased;
                        () = shutdown.cancelled() => return,
                        waited = tokio::time::timeout(self.config.queue_wait, Arc::clone(&slots).acquire_owned()) => waited,
                    };
                    match waited {
                        Ok(Ok(permit)) => permit,
                        _ => {
                            self.metrics.refused(Refusal::Busy);
                            tracing::warn!(
                                max_connections = self.config.max_connections,
                                "all connection slots busy; connection closed unanswered"
                            );
                            continue;
                        }
                    }
                }
            };
            connections.spawn(connection(
                stream,
                permit,
                Arc::clone(&self.pipeline),
                Arc::clone(&self.metrics),
                self.config.read_timeout,
            ));
        }
    }

    /// Only our own user may talk to us: the transport checked the peer
    /// (uid on Unix, user SID on Windows); a refusal is counted here.
    fn count_refused(&self, refused: &Refused) {
        match refused {
            Refused::ForeignPeer(peer) => {
                self.metrics.refused(Refusal::ForeignUid);
                tracing::warn!(%peer, "refused a connection from another user");
            }
            Refused::NoPeerIdentity(err) => {
                self.metrics.refused(Refusal::NoPeerCred);
                tracing::warn!(error = %err, "refused a connection: peer credentials unavailable");
            }
        }
    }
}

/// Why no request could be read.
#[derive(Debug, thiserror::Error)]
enum ReadError {
    /// The peer connected and left without a byte (e.g. a liveness probe).
    #[error("closed before sending anything")]
    Empty,
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error(transparent)]
    Wire(#[from] WireError),
}

async fn read_request(stream: &mut Connection) -> Result<Request, ReadError> {
    let mut header = [0u8; HEADER_LEN];
    let mut filled = 0;
    while filled < HEADER_LEN {
        match stream.read(&mut header[filled..]).await? {
            0 if filled == 0 => return Err(ReadError::Empty),
            0 => return Err(io::Error::from(io::ErrorKind::UnexpectedEof).into()),
            n => filled += n,
        }
    }
    let header = Header::decode(&header, MAX_REQUEST_BODY)?.expect(FrameKind::Request)?;
    let mut body = vec![0u8; header.body_len];
    stream.read_exact(&mut body).await?;
    Ok(Request::decode(&body)?)
}

async fn connection(
    mut stream: Connection,
    _permit: OwnedSemaphorePermit,
    pipeline: Arc<Pipeline>,
    metrics: Arc<Metrics>,
    deadline: Duration,
) {
    let request = match tokio::time::timeout(deadline, read_request(&mut stream)).await {
        Ok(Ok(request)) => request,
        Ok(Err(ReadError::Empty)) => {
            tracing::debug!("connection closed before a request");
            return;
        }
        Ok(Err(err @ ReadError::Wire(WireError::TooLarge { .. }))) => {
            metrics.refused(Refusal::Oversize);
            tracing::warn!(error = %err, "request frame too large; connection closed");
            return;
        }
        Ok(Err(err)) => {
            metrics.refused(Refusal::BadFrame);
            tracing::warn!(error = %err, "bad request frame; connection closed");
            return;
        }
        Err(_elapsed) => {
            metrics.refused(Refusal::ReadTimeout);
            tracing::warn!(
                ?deadline,
                "request not received within the read deadline; connection closed"
            );
            return;
        }
    };
    let reply = pipeline.handle(request).await;
    let frame = reply.encode();
    let written = tokio::time::timeout(deadline, async {
        stream.write_all(&frame).await?;
        stream.shutdown().await
    })
    .await;
    match written {
        Ok(Ok(())) => {}
        Ok(Err(err)) => {
            metrics.refused(Refusal::WriteFailed);
            tracing::warn!(error = %err, "reply could not be written (shim gone?)");
        }
        Err(_elapsed) => {
            metrics.refused(Refusal::WriteFailed);
            tracing::warn!("reply not taken within the deadline");
        }
    }
}

#[cfg(test)]
mod tests;
