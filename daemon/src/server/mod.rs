//! The accept loop and one connection's life: peer check (the
//! transport's, counted here), the request read under a deadline and the
//! memory budget, a slot to evaluate it, one reply.
//!
//! Bounded everywhere, and the accept loop never waits:
//! - at most [`Server::max_open`] connections are open at once (reading,
//!   waiting or being answered); past it a new one is answered "busy" on
//!   the spot;
//! - a request's bytes are reserved from the memory budget before its body
//!   is allocated; a request that does not fit is answered "busy" and
//!   counted `over_budget`;
//! - at most `max_connections` requests are evaluated at once; a request
//!   read in full waits up to `queue_wait` for a slot, then is answered
//!   "busy" (the shim applies its fail mode at once, instead of at its
//!   deadline) and counted;
//! - a request that waited for a slot and whose shim hung up meanwhile (it
//!   gave up and answered on its own) is dropped before the fan-out and
//!   counted `shim_gone`;
//! - a call a built-in holds for a person gets hold frames before its
//!   reply (`crate::hold`), only when its shim takes them;
//! - after the reply, a shim that announced its deadline acknowledges it
//!   (waited for at most the read deadline, with no slot held), and the
//!   audit record says what became of the reply (`crate::delivery`).
//!
//! Idle connections cost a task and a file descriptor until their read
//! deadline, never a slot, so they cannot starve a shim that sends.

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hookgate_wire::{
    FrameKind, HEADER_LEN, Header, Hold, MAX_REPLY_BODY, MAX_REQUEST_BODY, ReplyFrame as _,
    Request, WireError,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::admission::Admission;
use crate::budget::{Budget, Reservation};
use crate::delivery::{Delivery, Handover, classify};
use crate::hold::HoldLine;
use crate::hook_call::HookCall;
use crate::metrics::Refusal;
use crate::pipeline::Answer;
use crate::warnings::{self, Warning};
use hookgate_transport::{AcceptError, Connection, Listener, Refused};

/// Connections open at once, per evaluation slot: room for shims whose
/// requests are still arriving or waiting, and for idle connections.
const OPEN_PER_SLOT: usize = 16;

/// What the accept loop needs.
#[derive(Debug)]
pub(crate) struct Server {
    pub admission: Arc<Admission>,
}

impl Server {
    /// The most connections open at once.
    pub(crate) fn max_open(&self) -> usize {
        self.admission
            .max_evaluations()
            .saturating_mul(OPEN_PER_SLOT)
    }

    /// Accepts until `shutdown` fires; each connection runs on `connections`.
    pub(crate) async fn accept_loop(
        &self,
        listener: &Listener,
        shutdown: &CancellationToken,
        connections: &TaskTracker,
    ) {
        let open = Arc::new(Semaphore::new(self.max_open()));
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
                    warnings::warn(Warning::Connection, format_args!("accept failed: {err}"));
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
                Err(AcceptError::Refused(refused)) => {
                    self.count_refused(&refused);
                    continue;
                }
            };
            let Ok(open_permit) = Arc::clone(&open).try_acquire_owned() else {
                self.admission.metrics.refused(Refusal::Busy);
                warnings::warn(
                    Warning::Connection,
                    format_args!("{} connections open; answered busy", self.max_open()),
                );
                busy_now(&stream);
                continue;
            };
            connections.spawn(connection(stream, open_permit, Arc::clone(&self.admission)));
        }
    }

    /// Only our own user may talk to us: the transport checked the peer
    /// (uid on Unix, user SID on Windows); a refusal is counted here.
    fn count_refused(&self, refused: &Refused) {
        match refused {
            Refused::ForeignPeer(peer) => {
                self.admission.metrics.refused(Refusal::ForeignUid);
                warnings::warn(
                    Warning::Connection,
                    format_args!("refused a connection from another user ({peer})"),
                );
            }
            Refused::NoPeerIdentity(err) => {
                self.admission.metrics.refused(Refusal::NoPeerCred);
                warnings::warn(
                    Warning::Connection,
                    format_args!("refused a connection: peer credentials unavailable: {err}"),
                );
            }
        }
    }
}

/// Writes the "busy" frame if the socket takes it at once, and closes.
fn busy_now(stream: &Connection) {
    let _ = stream.try_write(&FrameKind::busy_frame());
}

/// Why no request could be read.
#[derive(Debug, thiserror::Error)]
enum ReadError {
    /// The peer connected and left without a byte (e.g. a liveness probe).
    #[error("closed before sending anything")]
    Empty,
    /// The body does not fit in the memory budget now.
    #[error("a request of {0} bytes does not fit in the memory budget now")]
    OverBudget(usize),
    /// Bytes past the request frame before the reply.
    #[error("bytes after the request frame")]
    Trailing,
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error(transparent)]
    Wire(#[from] WireError),
}

/// Bytes asked of the first read: most requests (an agent's payload and
/// the shim's few fields) arrive whole in one read. A connection's fixed
/// cost, bounded by [`Server::max_open`]; the body's bytes are still
/// reserved from the budget before the request is decoded or its buffer
/// grown.
const FIRST_READ: usize = 4096;

/// Reads one request, reserving its cost from `budget` before the body is
/// allocated.
async fn read_request(
    stream: &mut Connection,
    budget: &Budget,
) -> Result<(Request, Reservation), ReadError> {
    let mut buf = Vec::with_capacity(FIRST_READ);
    while buf.len() < HEADER_LEN {
        match stream.read_buf(&mut buf).await? {
            0 if buf.is_empty() => return Err(ReadError::Empty),
            0 => return Err(io::Error::from(io::ErrorKind::UnexpectedEof).into()),
            _ => {}
        }
    }
    let head = buf
        .first_chunk::<HEADER_LEN>()
        .ok_or_else(|| io::Error::from(io::ErrorKind::UnexpectedEof))?;
    let header = Header::decode(head, MAX_REQUEST_BODY)?.expect(FrameKind::Request)?;
    let reservation = budget
        .try_reserve_request(header.body_len)
        .ok_or(ReadError::OverBudget(header.body_len))?;
    let frame_len = HEADER_LEN + header.body_len;
    if buf.len() > frame_len {
        // The shim sends nothing more before the reply.
        return Err(ReadError::Trailing);
    }
    let read = buf.len();
    buf.resize(frame_len, 0);
    stream.read_exact(&mut buf[read..]).await?;
    Ok((Request::decode(&buf[HEADER_LEN..])?, reservation))
}

async fn connection(mut stream: Connection, _open: OwnedSemaphorePermit, shared: Arc<Admission>) {
    let Some((request, reservation)) = read_or_refuse(&mut stream, &shared).await else {
        return;
    };
    let metrics = &shared.metrics;
    let (slot, waited) = match shared.free_slot() {
        Some(slot) => (Some(slot), false),
        None => (shared.slot().await, true),
    };
    let Some(slot) = slot else {
        metrics.refused(Refusal::Busy);
        warnings::warn(
            Warning::Connection,
            format_args!(
                "no evaluation slot within {:?}; answered busy",
                shared.queue_wait
            ),
        );
        busy_now(&stream);
        return;
    };
    // Only a request that waited: one that found a slot at once was read
    // microseconds ago.
    if waited && stream.peer_gone() {
        metrics.refused(Refusal::ShimGone);
        tracing::debug!("the shim hung up before its request was evaluated; dropped");
        return;
    }
    let call = HookCall::from(request);
    let (hold, holds) = HoldLine::for_shim(call.hold_until_ms, call.terms.deadline);
    // Boxed: the pipeline's future is large, and the connection's (moved
    // into its task when spawned, written over when done) stays small.
    let answering = Box::pin(shared.pipeline.answer_call(call, Some(reservation), &hold));
    let mut answer = match holds {
        None => answering.await,
        Some(holds) => answer_holding(&mut stream, answering, holds, &shared).await,
    };
    drop(slot);
    // A held call's reply is due by the deadline the holds granted.
    answer.terms.deadline = hold.deadline();
    let delivery = deliver(&mut stream, &answer, &shared).await;
    answer.log.finish(delivery);
}

/// Awaits `answering` while writing the hold frames a built-in asks for
/// (`crate::hold`), each under the read deadline; a frame that cannot be
/// written is dropped (the shim then applies its fail mode at its own
/// deadline, which the decision log says).
async fn answer_holding(
    stream: &mut Connection,
    answering: impl Future<Output = Answer>,
    mut holds: mpsc::Receiver<u32>,
    shared: &Admission,
) -> Answer {
    let mut answering = std::pin::pin!(answering);
    let mut open = true;
    loop {
        tokio::select! {
            answer = &mut answering => return answer,
            wait_ms = holds.recv(), if open => match wait_ms {
                Some(wait_ms) => {
                    let frame = Hold { wait_ms }.encode();
                    let written =
                        tokio::time::timeout(shared.read_timeout, stream.write_all(&frame)).await;
                    if !matches!(written, Ok(Ok(()))) {
                        tracing::debug!("a hold frame could not be written (shim gone?)");
                    }
                }
                None => open = false,
            },
        }
    }
}

/// Writes the reply and learns what became of it (`crate::delivery`): a
/// shim that announced its deadline acknowledges the reply once it wrote
/// it for the agent; no acknowledgement within the read deadline, or the
/// connection closing first, means the agent never got it.
async fn deliver(stream: &mut Connection, answer: &Answer, shared: &Admission) -> Delivery {
    let acks = answer.terms.deadline.is_some();
    let written = write_reply(stream, &answer.reply.encode(), acks, shared).await;
    let (acknowledged, closed_at) = match (written, acks) {
        (_, false) => (None, None),
        (false, true) => (Some(false), None),
        (true, true) => {
            let (acked, closed_at) = acknowledgement(stream, shared.read_timeout).await;
            (Some(acked), closed_at)
        }
    };
    let delivery = classify(&Handover {
        deadline: answer.terms.deadline,
        ready: answer.ready,
        written,
        acknowledged,
        closed_at,
    });
    if !delivery.reached_agent() {
        shared.metrics.undelivered(delivery);
        tracing::debug!(
            delivery = delivery.as_str(),
            fail_mode = answer.terms.fail_mode.as_str(),
            "the reply did not reach the agent; the shim answered by its fail mode or was killed"
        );
    }
    delivery
}

/// Reads the shim's acknowledgement, for at most `wait`: whether it came,
/// and when the shim's end closed without it, if it did.
async fn acknowledgement(stream: &mut Connection, wait: Duration) -> (bool, Option<Instant>) {
    let mut header = [0u8; HEADER_LEN];
    match tokio::time::timeout(wait, stream.read_exact(&mut header)).await {
        Ok(Ok(_)) => {
            let ack = Header::decode(&header, 0).and_then(|h| h.expect(FrameKind::Ack));
            (ack.is_ok(), None)
        }
        Ok(Err(_closed)) => (false, Some(Instant::now())),
        Err(_elapsed) => (false, None),
    }
}

/// The request, read under the read deadline and the memory budget; on
/// failure the refusal is counted and said, and the connection answered
/// "busy" where the shim can use that.
async fn read_or_refuse(
    stream: &mut Connection,
    shared: &Admission,
) -> Option<(Request, Reservation)> {
    let metrics = &shared.metrics;
    let read = tokio::time::timeout(shared.read_timeout, read_request(stream, &shared.budget));
    let (refusal, why) = match read.await {
        Ok(Ok(read)) => return Some(read),
        Ok(Err(ReadError::Empty)) => {
            tracing::debug!("connection closed before a request");
            return None;
        }
        Ok(Err(err @ ReadError::OverBudget(_))) => {
            metrics.refused(Refusal::OverBudget);
            warnings::warn(Warning::Budget, format_args!("{err}; answered busy"));
            busy_now(stream);
            return None;
        }
        Ok(Err(err @ ReadError::Wire(WireError::TooLarge { .. }))) => (
            Refusal::Oversize,
            format!("request frame too large ({err}); connection closed"),
        ),
        Ok(Err(err)) => (
            Refusal::BadFrame,
            format!("bad request frame ({err}); connection closed"),
        ),
        Err(_elapsed) => (
            Refusal::ReadTimeout,
            format!(
                "request not received within {:?}; connection closed",
                shared.read_timeout
            ),
        ),
    };
    metrics.refused(refusal);
    warnings::warn(Warning::Connection, format_args!("{why}"));
    None
}

/// Writes the reply frame under the read deadline (a shim that stopped
/// reading must not hold the task); whether it was written whole. Our
/// side is shut for writing only when the connection stays open for the
/// shim's acknowledgement (`half_close`); otherwise closing it says the
/// same, a system call sooner.
async fn write_reply(
    stream: &mut Connection,
    frame: &[u8],
    half_close: bool,
    shared: &Admission,
) -> bool {
    debug_assert!(frame.len() <= HEADER_LEN + MAX_REPLY_BODY);
    let written = tokio::time::timeout(shared.read_timeout, async {
        stream.write_all(frame).await?;
        if half_close {
            stream.shutdown().await?;
        }
        Ok::<_, io::Error>(())
    })
    .await;
    let why = match written {
        Ok(Ok(())) => return true,
        Ok(Err(err)) => format!("reply could not be written (shim gone?): {err}"),
        Err(_elapsed) => "reply not taken within the deadline".to_owned(),
    };
    shared.metrics.refused(Refusal::WriteFailed);
    warnings::warn(Warning::Connection, format_args!("{why}"));
    false
}

#[cfg(test)]
mod tests;
