//! The frames gateway-shim and the gateway exchange over the local socket.
//!
//! Defined once, here, with no dependencies: the shim must stay free of
//! tokio and serde, and the gateway must not guess at the shim's bytes.
//! The crate is sans-I/O at its core ([`Header::decode`], [`Request::decode`],
//! [`Reply::decode`] work on byte slices) and needs only `alloc`, so the
//! shim (a `no_std` binary) shares it. The default `std` feature adds small
//! blocking helpers over `std::io` and the socket path as a `PathBuf`; the
//! gateway reads with tokio and decodes here.
//!
//! A frame is a 10-byte header followed by a body:
//!
//! ```text
//! magic "HKGT" | version u8 | kind u8 | body length u32 (big endian)
//! ```
//!
//! Bodies are sequences of fields; a byte string is a u32 length and the
//! bytes, a list is a u32 count and its items. One connection carries one
//! request and one reply.

#![cfg_attr(not(any(feature = "std", test)), no_std)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
#[cfg(feature = "std")]
use std::io::{self, Read, Write};

pub mod socket;

/// First bytes of every frame, so a stray client fails fast and clearly.
pub const MAGIC: [u8; 4] = *b"HKGT";
/// Bumped on any incompatible change of the body layout.
pub const PROTOCOL_VERSION: u8 = 1;
/// Size of the fixed frame header.
pub const HEADER_LEN: usize = 10;
/// The most stdin the shim forwards. Claude Code sends whole file contents
/// in `Write` tool inputs, so this is generous; the rest is bounded by it.
pub const MAX_STDIN: usize = 8 * 1024 * 1024;
/// Largest request body: stdin plus argv, cwd and environment.
pub const MAX_REQUEST_BODY: usize = MAX_STDIN + 256 * 1024;
/// Largest reply body. Replies carry at most a rewritten tool input and
/// context (agents cap context at 10,000–50,000 characters).
pub const MAX_REPLY_BODY: usize = MAX_STDIN + 64 * 1024;
/// Most argv entries or environment variables in a request.
pub const MAX_LIST_ITEMS: usize = 1024;

/// Which way a frame goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    Request = 1,
    Reply = 2,
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
    /// The shim's working directory.
    pub cwd: String,
    /// The agent-related environment variables (name, value).
    pub env: Vec<(String, String)>,
    /// The payload the agent wrote to the hook's stdin.
    pub stdin: Vec<u8>,
}

/// What the shim must write and exit with.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    pub exit_code: i32,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// A frame that does not follow this format. Never carries frame content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    BadMagic,
    UnsupportedVersion(u8),
    UnknownKind(u8),
    UnexpectedKind(FrameKind),
    TooLarge { len: usize, max: usize },
    Truncated,
    TrailingBytes,
    TooManyItems(usize),
    NotUtf8,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::BadMagic => f.write_str("not a hookgate frame (bad magic)"),
            WireError::UnsupportedVersion(v) => write!(
                f,
                "frame protocol version {v}, this side speaks {PROTOCOL_VERSION}"
            ),
            WireError::UnknownKind(k) => write!(f, "unknown frame kind {k}"),
            WireError::UnexpectedKind(k) => write!(f, "unexpected {k:?} frame"),
            WireError::TooLarge { len, max } => {
                write!(f, "frame body of {len} bytes exceeds the limit of {max}")
            }
            WireError::Truncated => f.write_str("frame body ends early"),
            WireError::TrailingBytes => f.write_str("frame body has trailing bytes"),
            WireError::TooManyItems(n) => {
                write!(f, "{n} list items exceed the limit of {MAX_LIST_ITEMS}")
            }
            WireError::NotUtf8 => f.write_str("a text field is not UTF-8"),
        }
    }
}

impl core::error::Error for WireError {}

#[cfg(feature = "std")]
impl From<WireError> for io::Error {
    fn from(err: WireError) -> Self {
        io::Error::new(io::ErrorKind::InvalidData, err)
    }
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
        let mut cursor = Cursor(body);
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

    /// Writes the request frame to a blocking writer.
    #[cfg(feature = "std")]
    pub fn write_to(&self, writer: &mut impl Write) -> io::Result<()> {
        writer.write_all(&self.encode())?;
        writer.flush()
    }
}

impl Reply {
    /// Encodes the whole frame (header and body).
    pub fn encode(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.stdout.len() + self.stderr.len() + 12);
        body.extend_from_slice(&self.exit_code.to_be_bytes());
        put_bytes(&mut body, &self.stdout);
        put_bytes(&mut body, &self.stderr);
        frame(FrameKind::Reply, body)
    }

    /// Decodes a reply body (the bytes after the header).
    pub fn decode(body: &[u8]) -> Result<Reply, WireError> {
        let mut cursor = Cursor(body);
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

    /// Reads one reply frame from a blocking reader.
    #[cfg(feature = "std")]
    pub fn read_from(reader: &mut impl Read) -> io::Result<Reply> {
        let mut header = [0u8; HEADER_LEN];
        reader.read_exact(&mut header)?;
        let header = Header::decode(&header, MAX_REPLY_BODY)?.expect(FrameKind::Reply)?;
        let mut body = alloc::vec![0u8; header.body_len];
        reader.read_exact(&mut body)?;
        Ok(Reply::decode(&body)?)
    }
}

fn frame(kind: FrameKind, body: Vec<u8>) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(&MAGIC);
    out.push(PROTOCOL_VERSION);
    out.push(kind as u8);
    out.extend_from_slice(&len_u32(body.len()).to_be_bytes());
    out.extend_from_slice(&body);
    out
}

/// Lengths are bounded far below `u32::MAX` by the caps above; saturate
/// rather than wrap so an impossible length fails decoding, not silently.
fn len_u32(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_be_bytes());
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_u32(out, len_u32(bytes.len()));
    out.extend_from_slice(bytes);
}

fn put_list<'a>(out: &mut Vec<u8>, items: impl ExactSizeIterator<Item = &'a [u8]>) {
    put_u32(out, len_u32(items.len()));
    for item in items {
        put_bytes(out, item);
    }
}

/// Reads fields off the front of a body.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if self.0.len() < n {
            return Err(WireError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, WireError> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn bytes(&mut self) -> Result<&'a [u8], WireError> {
        let len = self.u32()? as usize;
        self.take(len)
    }

    fn string(&mut self) -> Result<String, WireError> {
        let bytes = self.bytes()?;
        String::from_utf8(bytes.to_vec()).map_err(|_| WireError::NotUtf8)
    }

    fn list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, WireError>,
    ) -> Result<Vec<T>, WireError> {
        let count = self.u32()? as usize;
        if count > MAX_LIST_ITEMS {
            return Err(WireError::TooManyItems(count));
        }
        (0..count).map(|_| item(self)).collect()
    }

    fn finish(&self) -> Result<(), WireError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(WireError::TrailingBytes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header_of(frame: &[u8]) -> [u8; HEADER_LEN] {
        let mut header = [0u8; HEADER_LEN];
        header.copy_from_slice(&frame[..HEADER_LEN]);
        header
    }

    fn sample_request() -> Request {
        Request {
            args: vec!["claude-code".into()],
            cwd: "/home/dev/acme".into(),
            env: vec![("CLAUDE_PROJECT_DIR".into(), "/home/dev/acme".into())],
            stdin: br#"{"hook_event_name":"PreToolUse"}"#.to_vec(),
        }
    }

    #[test]
    fn request_round_trips() {
        let request = sample_request();
        let frame = request.encode();
        let header = Header::decode(&header_of(&frame), MAX_REQUEST_BODY).unwrap();
        assert_eq!(header.kind, FrameKind::Request);
        assert_eq!(header.body_len, frame.len() - HEADER_LEN);
        assert_eq!(Request::decode(&frame[HEADER_LEN..]).unwrap(), request);
    }

    #[cfg(feature = "std")]
    #[test]
    fn reply_round_trips_through_a_reader() {
        let reply = Reply {
            exit_code: 2,
            stdout: b"{}".to_vec(),
            stderr: b"denied".to_vec(),
        };
        let frame = reply.encode();
        assert_eq!(Reply::read_from(&mut frame.as_slice()).unwrap(), reply);
    }

    #[test]
    fn negative_exit_codes_survive() {
        let reply = Reply {
            exit_code: -1,
            ..Reply::default()
        };
        let frame = reply.encode();
        assert_eq!(Reply::decode(&frame[HEADER_LEN..]).unwrap().exit_code, -1);
    }

    #[test]
    fn bad_headers_are_rejected() {
        let frame = sample_request().encode();
        let mut header = header_of(&frame);
        header[0] = b'X';
        assert_eq!(
            Header::decode(&header, MAX_REQUEST_BODY),
            Err(WireError::BadMagic)
        );

        let mut header = header_of(&frame);
        header[4] = 9;
        assert_eq!(
            Header::decode(&header, MAX_REQUEST_BODY),
            Err(WireError::UnsupportedVersion(9))
        );

        let mut header = header_of(&frame);
        header[5] = 7;
        assert_eq!(
            Header::decode(&header, MAX_REQUEST_BODY),
            Err(WireError::UnknownKind(7))
        );

        let header = header_of(&frame);
        assert!(matches!(
            Header::decode(&header, 4),
            Err(WireError::TooLarge { max: 4, .. })
        ));
        assert_eq!(
            Header::decode(&header, MAX_REQUEST_BODY)
                .unwrap()
                .expect(FrameKind::Reply),
            Err(WireError::UnexpectedKind(FrameKind::Request))
        );
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let frame = sample_request().encode();
        let body = &frame[HEADER_LEN..];
        for cut in 0..body.len() {
            assert!(Request::decode(&body[..cut]).is_err(), "cut at {cut}");
        }
        let mut long = body.to_vec();
        long.push(0);
        assert_eq!(Request::decode(&long), Err(WireError::TrailingBytes));
    }

    #[test]
    fn huge_claimed_lengths_do_not_allocate() {
        let mut body = Vec::new();
        put_u32(&mut body, u32::MAX);
        assert_eq!(
            Request::decode(&body),
            Err(WireError::TooManyItems(u32::MAX as usize))
        );
        let mut body = Vec::new();
        put_u32(&mut body, 0);
        put_u32(&mut body, u32::MAX);
        assert_eq!(Request::decode(&body), Err(WireError::Truncated));
    }

    #[test]
    fn non_utf8_text_is_rejected() {
        let mut body = Vec::new();
        put_u32(&mut body, 1);
        put_bytes(&mut body, &[0xff, 0xfe]);
        assert_eq!(Request::decode(&body), Err(WireError::NotUtf8));
    }
}
