//! One exchange with the gateway, bounded in time whatever the gateway does.
//!
//! The connect may take at most `CONNECT_TIMEOUT` (a connect that waits
//! means a full backlog or every pipe instance busy, i.e. "unreachable");
//! then the request is sent and the reply read, each step bounded by the
//! total deadline. A gateway holding the call for a person says so with
//! hold frames (`FrameKind::Hold`), each moving the reply's deadline to
//! what it asks, never past the hold limit this shim was installed with
//! (`hold_limit`: none, and a hold frame is a bad reply). How a step is bounded is the platform's business
//! (`sys`); the frame logic is here, once. When time is up the shim answers
//! on its own and exits; nothing is left running.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::time::Duration;

use hookgate_wire::{
    FrameKind, HEADER_LEN, Header, Hold, MAX_HOLD_FRAMES, MAX_REPLY_BODY, Reply, ReplyFrame as _,
};

use crate::config::CONNECT_TIMEOUT;
use crate::record::Reason;
use crate::sys::{self, ConnectError, IoError, Stream};

/// Why no usable reply came back. The detail is for `HOOKGATE_DEBUG` only
/// and never holds payload bytes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    Unreachable(String),
    /// The socket or the server behind it is not this user's.
    Untrusted(String),
    /// The gateway said it has no room for this call now.
    Busy,
    Timeout,
    BadReply(String),
    /// No gateway, and autostart could not start one: why (the
    /// start-failure record's reason, shown in a fail-closed reply).
    #[cfg_attr(not(unix), allow(dead_code, reason = "autostart is Unix-only"))]
    AutostartFailed(String),
}

impl Failure {
    pub(crate) fn reason(&self) -> Reason {
        match self {
            Failure::Unreachable(_) => Reason::Unreachable,
            Failure::Untrusted(_) => Reason::Untrusted,
            Failure::Busy => Reason::Busy,
            Failure::Timeout => Reason::Timeout,
            Failure::BadReply(_) => Reason::BadReply,
            Failure::AutostartFailed(_) => Reason::AutostartFailed,
        }
    }

    pub(crate) fn detail(&self) -> &str {
        match self {
            Failure::Unreachable(detail)
            | Failure::Untrusted(detail)
            | Failure::BadReply(detail)
            | Failure::AutostartFailed(detail) => detail,
            Failure::Busy => "the gateway had no connection slot",
            Failure::Timeout => "no reply before the deadline",
        }
    }
}

/// How long the acknowledgement may take to send: a few bytes into a
/// socket that has just been read from, so in practice no wait at all.
const ACK_WAIT: Duration = Duration::from_millis(100);

/// The gateway's reply, and the connection it came on.
pub(crate) struct Answered {
    pub(crate) reply: Reply,
    stream: Stream,
}

impl core::fmt::Debug for Answered {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Answered")
            .field("reply", &self.reply)
            .finish_non_exhaustive()
    }
}

impl Answered {
    /// Tells the gateway the reply was written for the agent
    /// (`FrameKind::Ack`), so its decision log can say so. Best effort: a
    /// gateway that waits for none has closed the connection, and the
    /// failed write changes nothing.
    pub(crate) fn acknowledge(self) {
        let _ = self
            .stream
            .send_all(FrameKind::ack_frame(), sys::now() + ACK_WAIT);
    }
}

/// Sends `frame` (an encoded request) to the gateway at `socket` and returns
/// its reply, whose exit code is guaranteed to be in 0..=255. `deadline` is
/// on the `sys::now` clock, and so is `hold_limit`, the latest a held call
/// may be waited for (`None`: holds are refused).
pub(crate) fn call(
    socket: &str,
    frame: Vec<u8>,
    deadline: Duration,
    hold_limit: Option<Duration>,
) -> Result<Answered, Failure> {
    let connect_deadline = deadline.min(sys::now() + CONNECT_TIMEOUT);
    let stream = match Stream::open(socket, connect_deadline) {
        Ok(stream) => stream,
        Err(ConnectError::Timeout) if connect_deadline < deadline => {
            return Err(Failure::Unreachable("connect timed out".into()));
        }
        Err(ConnectError::Timeout) => return Err(Failure::Timeout),
        Err(ConnectError::Untrusted(detail)) => return Err(Failure::Untrusted(detail)),
        Err(ConnectError::Os(err)) => return Err(Failure::Unreachable(format!("connect: {err}"))),
    };

    if sys::now() >= deadline {
        return Err(Failure::Timeout);
    }
    // No half-close after the request: a gateway watching for EOF to cancel
    // abandoned calls would take it for the shim giving up.
    stream.send_all(frame, deadline).map_err(|err| match err {
        IoError::Timeout => Failure::Timeout,
        err => Failure::Unreachable(format!("send: {err}")),
    })?;
    let reply = read_reply(&stream, deadline, hold_limit)?;
    if !(0..=255).contains(&reply.exit_code) {
        return Err(Failure::BadReply(format!(
            "exit code {} is outside 0..=255",
            reply.exit_code
        )));
    }
    Ok(Answered { reply, stream })
}

fn read_reply(
    stream: &Stream,
    mut deadline: Duration,
    hold_limit: Option<Duration>,
) -> Result<Reply, Failure> {
    let bad = |detail: &dyn core::fmt::Display| Failure::BadReply(format!("reply: {detail}"));
    let recv = |len, deadline| {
        stream.recv_exact(len, deadline).map_err(|err| match err {
            IoError::Timeout => Failure::Timeout,
            err => bad(&err),
        })
    };
    let mut holds = 0;
    let header = loop {
        let header: [u8; HEADER_LEN] = recv(HEADER_LEN, deadline)?
            .try_into()
            .map_err(|_| bad(&"short header"))?;
        let header = Header::decode(&header, MAX_REPLY_BODY).map_err(|err| bad(&err))?;
        if header.kind != FrameKind::Hold {
            break header;
        }
        let Some(limit) = hold_limit else {
            return Err(bad(&"a hold frame, and this shim takes no holds"));
        };
        holds += 1;
        if holds > MAX_HOLD_FRAMES || header.body_len != Hold::BODY_LEN {
            return Err(bad(&"too many or malformed hold frames"));
        }
        let hold = Hold::decode(&recv(Hold::BODY_LEN, deadline)?).map_err(|err| bad(&err))?;
        deadline = held_deadline(deadline, hold, sys::now(), limit);
    };
    if header.kind == FrameKind::Busy {
        return Err(Failure::Busy);
    }
    let header = header.expect(FrameKind::Reply).map_err(|err| bad(&err))?;
    let body = recv(header.body_len, deadline)?;
    Reply::decode(&body).map_err(|err| bad(&err))
}

/// The reply's deadline after `hold`, received at `now`: what it asks,
/// never past `limit` (the shim's own hold maximum) and never sooner than
/// the deadline it had.
fn held_deadline(deadline: Duration, hold: Hold, now: Duration, limit: Duration) -> Duration {
    let asked = now.saturating_add(Duration::from_millis(u64::from(hold.wait_ms)));
    deadline.max(asked.min(limit))
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::net::UnixListener;

    use super::*;

    #[test]
    fn a_hold_extends_up_to_the_limit_and_never_shortens() {
        let ms = Duration::from_millis;
        let hold = |wait_ms| Hold { wait_ms };
        // Asked for 60 s at t=1 s, limit 30 s: the limit.
        assert_eq!(
            held_deadline(ms(5000), hold(60_000), ms(1000), ms(30_000)),
            ms(30_000)
        );
        // Within the limit: what was asked.
        assert_eq!(
            held_deadline(ms(5000), hold(9000), ms(1000), ms(30_000)),
            ms(10_000)
        );
        // Shorter than the deadline it had: unchanged.
        assert_eq!(
            held_deadline(ms(5000), hold(10), ms(1000), ms(30_000)),
            ms(5000)
        );
        // An absurd wait saturates, and the limit still holds.
        assert_eq!(
            held_deadline(ms(5000), hold(u32::MAX), Duration::MAX, ms(30_000)),
            ms(30_000)
        );
    }

    /// A listener that never accepts, with its backlog full: the connect
    /// waits for room, then gives up as "unreachable", not as a timeout.
    #[test]
    fn a_full_backlog_is_unreachable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        let _listener = UnixListener::bind(&path).unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700)).unwrap();
        let path = path.to_str().unwrap();
        let mut queued = Vec::new();
        loop {
            match Stream::connect(path, Duration::from_millis(1)) {
                Ok(stream) => queued.push(stream),
                Err(err) => {
                    assert!(err.would_block(), "{err}");
                    break;
                }
            }
            assert!(queued.len() < 100_000, "the backlog never filled");
        }
        let deadline = sys::now() + Duration::from_secs(30);
        let failure = call(path, b"x".to_vec(), deadline, None).unwrap_err();
        assert_eq!(failure, Failure::Unreachable("connect timed out".into()));
    }
}

/// The exchange against a named pipe served in-process (run under Wine on
/// Linux: see the shim's README, "Windows").
#[cfg(test)]
#[cfg(windows)]
mod windows_tests {
    use std::io::{Read, Write};
    use std::thread::{self, JoinHandle};

    use hookgate_wire::{MAX_REQUEST_BODY, Request};
    use interprocess::os::windows::named_pipe::{PipeListenerOptions, pipe_mode};

    use super::*;

    /// Serves one call on a fresh pipe: reads the request, then answers
    /// `reply` (or nothing, holding the connection open for a while).
    fn gateway(test: &str, reply: Option<Vec<u8>>) -> (String, JoinHandle<Request>) {
        let name = format!(r"\\.\pipe\gateway-shim-call-{}-{test}", std::process::id());
        let listener = PipeListenerOptions::new()
            .path(name.as_str())
            .create_duplex::<pipe_mode::Bytes>()
            .unwrap();
        let server = thread::spawn(move || {
            let mut peer = listener.accept().unwrap();
            let mut header = [0u8; HEADER_LEN];
            peer.read_exact(&mut header).unwrap();
            let header = Header::decode(&header, MAX_REQUEST_BODY).unwrap();
            let mut body = vec![0u8; header.body_len];
            peer.read_exact(&mut body).unwrap();
            match reply {
                Some(frame) => {
                    peer.write_all(&frame).unwrap();
                    peer.flush().unwrap();
                }
                None => thread::sleep(Duration::from_secs(2)),
            }
            Request::decode(&body).unwrap()
        });
        (name, server)
    }

    fn request() -> Request {
        Request {
            args: vec!["claude-code".into()],
            cwd: r"C:\work".into(),
            env: vec![("CLAUDE_PROJECT_DIR".into(), r"C:\work".into())],
            stdin: br#"{"hook_event_name":"PreToolUse"}"#.to_vec(),
        }
    }

    /// Sends `request()` to the pipe `name`, with 10 s to answer and no hold.
    fn call_soon(name: &str) -> Result<Answered, Failure> {
        call(
            name,
            request().encode(),
            sys::now() + Duration::from_secs(10),
            None,
        )
    }

    #[test]
    fn one_request_one_reply() {
        let reply = Reply {
            exit_code: 2,
            stdout: b"{\"decision\":\"block\"}".to_vec(),
            stderr: b"denied\n".to_vec(),
        };
        let (name, server) = gateway("reply", Some(reply.encode()));
        let got = call_soon(&name);
        assert_eq!(got.map(|answered| answered.reply), Ok(reply));
        assert_eq!(server.join().unwrap(), request());
    }

    #[test]
    fn a_silent_gateway_is_a_timeout_at_the_deadline() {
        let (name, _server) = gateway("silent", None);
        let deadline = sys::now() + Duration::from_millis(300);
        let got = call(&name, request().encode(), deadline, None);
        assert!(matches!(got, Err(Failure::Timeout)));
        assert!(sys::now() >= deadline);
    }

    #[test]
    fn bad_replies_are_refused() {
        let out_of_range = Reply {
            exit_code: 256,
            ..Reply::default()
        };
        let (name, _server) = gateway("range", Some(out_of_range.encode()));
        let got = call_soon(&name);
        assert!(matches!(got, Err(Failure::BadReply(_))), "{got:?}");

        let (name, _server) = gateway("garbage", Some(b"not a frame at all".to_vec()));
        let got = call_soon(&name);
        assert!(matches!(got, Err(Failure::BadReply(_))), "{got:?}");
    }

    #[test]
    fn no_gateway_is_unreachable() {
        let name = format!(r"\\.\pipe\gateway-shim-call-{}-absent", std::process::id());
        let got = call_soon(&name);
        assert!(matches!(got, Err(Failure::Unreachable(_))), "{got:?}");
    }
}
