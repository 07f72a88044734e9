//! What a frame that does not follow the format is, kept apart from the
//! frame types so both the header and the body codec can name it.

use core::fmt;

use crate::frame::FrameKind;
use crate::{MAX_LIST_ITEMS, PROTOCOL_VERSION};

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
