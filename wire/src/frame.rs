//! The frame types (header, request, reply) and the layout of each body.
//!
//! The field-level encoding they share lives in `codec`; this module says
//! which fields each frame has and in what order.

use alloc::string::String;
use alloc::vec::Vec;

use crate::codec::{Cursor, len_u32, put_bytes, put_list, put_u32};
pub use hookgate_dialect::Reply;

use crate::{HEADER_LEN, MAGIC, PROTOCOL_VERSION, WireError};

/// Which way a frame goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    Request = 1,
    Reply = 2,
    /// The gateway's answer when it has no connection slot for the request
    /// within its queue wait: empty body; the shim applies its fail mode
    /// and records `busy`, at once instead of at its deadline.
    Busy = 3,
    /// The shim's word that it wrote the reply for the agent: empty body,
    /// sent after the reply by shims that announce their deadline
    /// (`DEADLINE_VAR`), so the decision log can say the agent got it.
    Ack = 4,
    /// The gateway's word that the call is held (for a person to decide):
    /// the body is one u32, how many more milliseconds from now the shim
    /// should wait for the reply ([`Hold`]). Sent only to shims that
    /// announce their hold limit ([`crate::HOLD_UNTIL_VAR`]); a shim never
    /// waits past that limit, whatever the frame says. It may come more than
    /// once before the reply (a keep-alive); each replaces the last.
    Hold = 5,
}

/// The body of a [`FrameKind::Hold`] frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hold {
    /// How long from its receipt the shim should wait for the reply.
    pub wait_ms: u32,
}

/// A whole frame: the header (magic, version, kind, body length), then
/// `body`.
fn frame(kind: FrameKind, body: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(&MAGIC);
    out.push(PROTOCOL_VERSION);
    out.push(kind as u8);
    out.extend_from_slice(&len_u32(body.len()).to_be_bytes());
    out.extend_from_slice(&body);
    out
}

/// A decoded frame header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub kind: FrameKind,
    pub body_len: usize,
}

/// One hook call, as the shim saw it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Request {
    /// The shim's arguments after the program name (e.g. `["claude-code"]`).
    pub args: Vec<String>,
    /// The shim's working directory: the event's when its payload names
    /// none.
    pub cwd: String,
    /// The agent-related environment variables: agents' by name (empty
    /// values), hookgate's own (`HOOKGATE_*`) with their values.
    pub env: Vec<(String, String)>,
    /// The payload the agent wrote to the hook's stdin.
    pub stdin: Vec<u8>,
}

impl Header {
    /// Decodes and validates a header; `max_body` bounds the body length so
    /// a reader never allocates what a peer merely claims.
    pub fn decode(bytes: &[u8; HEADER_LEN], max_body: usize) -> Result<Header, WireError> {
        if bytes[..4] != MAGIC {
            return Err(WireError::BadMagic);
        }
        if bytes[4] != PROTOCOL_VERSION {
            return Err(WireError::UnsupportedVersion(bytes[4]));
        }
        let kind = match bytes[5] {
            1 => FrameKind::Request,
            2 => FrameKind::Reply,
            3 => FrameKind::Busy,
            4 => FrameKind::Ack,
            5 => FrameKind::Hold,
            other => return Err(WireError::UnknownKind(other)),
        };
        let body_len = u32::from_be_bytes([bytes[6], bytes[7], bytes[8], bytes[9]]) as usize;
        if body_len > max_body {
            return Err(WireError::TooLarge {
                len: body_len,
                max: max_body,
            });
        }
        Ok(Header { kind, body_len })
    }

    /// Checks the header announces `kind`.
    pub fn expect(self, kind: FrameKind) -> Result<Header, WireError> {
        if self.kind == kind {
            Ok(self)
        } else {
            Err(WireError::UnexpectedKind(self.kind))
        }
    }
}

impl FrameKind {
    /// The whole "busy" frame: a header with an empty body.
    pub fn busy_frame() -> Vec<u8> {
        frame(FrameKind::Busy, Vec::new())
    }

    /// The whole acknowledgement frame: a header with an empty body.
    pub fn ack_frame() -> Vec<u8> {
        frame(FrameKind::Ack, Vec::new())
    }
}

impl Hold {
    /// The length of a hold frame's body.
    pub const BODY_LEN: usize = 4;

    /// Encodes the whole frame (header and body).
    pub fn encode(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(Self::BODY_LEN);
        put_u32(&mut body, self.wait_ms);
        frame(FrameKind::Hold, body)
    }

    /// Decodes a hold body (the bytes after the header).
    pub fn decode(body: &[u8]) -> Result<Hold, WireError> {
        let mut cursor = Cursor::new(body);
        let wait_ms = cursor.u32()?;
        cursor.finish()?;
        Ok(Hold { wait_ms })
    }
}

impl Request {
    /// Encodes the whole frame (header and body).
    pub fn encode(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.stdin.len() + 256);
        put_list(&mut body, self.args.iter().map(String::as_bytes));
        put_bytes(&mut body, self.cwd.as_bytes());
        put_u32(&mut body, len_u32(self.env.len()));
        for (name, value) in &self.env {
            put_bytes(&mut body, name.as_bytes());
            put_bytes(&mut body, value.as_bytes());
        }
        put_bytes(&mut body, &self.stdin);
        frame(FrameKind::Request, body)
    }

    /// Decodes a request body (the bytes after the header).
    pub fn decode(body: &[u8]) -> Result<Request, WireError> {
        let mut cursor = Cursor::new(body);
        let args = cursor.list(|c| c.string())?;
        let cwd = cursor.string()?;
        let env = cursor.list(|c| Ok((c.string()?, c.string()?)))?;
        let stdin = cursor.bytes()?.to_vec();
        cursor.finish()?;
        Ok(Request {
            args,
            cwd,
            env,
            stdin,
        })
    }
}

/// The reply frame: what the shim must write and exit with is the hook
/// command's [`Reply`] (`hookgate_dialect`'s, the one type for it in every
/// crate); its layout on the wire is this crate's.
pub trait ReplyFrame: Sized {
    /// The length of this reply's encoded body (what the shim checks
    /// against `MAX_REPLY_BODY`): exit code, then stdout and stderr, each
    /// with its length.
    fn body_len(&self) -> usize;
    /// Encodes the whole frame (header and body).
    fn encode(&self) -> Vec<u8>;
    /// Decodes a reply body (the bytes after the header).
    fn decode(body: &[u8]) -> Result<Self, WireError>;
}

impl ReplyFrame for Reply {
    fn body_len(&self) -> usize {
        4 + 4 + self.stdout.len() + 4 + self.stderr.len()
    }

    fn encode(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.stdout.len() + self.stderr.len() + 12);
        body.extend_from_slice(&self.exit_code.to_be_bytes());
        put_bytes(&mut body, &self.stdout);
        put_bytes(&mut body, &self.stderr);
        frame(FrameKind::Reply, body)
    }

    fn decode(body: &[u8]) -> Result<Reply, WireError> {
        let mut cursor = Cursor::new(body);
        let exit_code = cursor.u32()? as i32;
        let stdout = cursor.bytes()?.to_vec();
        let stderr = cursor.bytes()?.to_vec();
        cursor.finish()?;
        Ok(Reply {
            exit_code,
            stdout,
            stderr,
        })
    }
}
