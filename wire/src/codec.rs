//! The field encoding every body uses: big-endian u32s, length-prefixed
//! byte strings and count-prefixed lists, and a cursor that decodes them
//! without ever allocating what a peer merely claims.

use alloc::string::String;
use alloc::vec::Vec;

use crate::{MAX_LIST_ITEMS, WireError};

/// Lengths are bounded far below `u32::MAX` by the caps above; saturate
/// rather than wrap so an impossible length fails decoding, not silently.
pub(crate) fn len_u32(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

pub(crate) fn put_u32(out: &mut Vec<u8>, value: u32) {
    out.extend_from_slice(&value.to_be_bytes());
}

pub(crate) fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_u32(out, len_u32(bytes.len()));
    out.extend_from_slice(bytes);
}

pub(crate) fn put_list<'a>(out: &mut Vec<u8>, items: impl ExactSizeIterator<Item = &'a [u8]>) {
    put_u32(out, len_u32(items.len()));
    for item in items {
        put_bytes(out, item);
    }
}

/// Reads fields off the front of a body.
pub(crate) struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    /// A cursor at the start of `body`.
    pub(crate) fn new(body: &'a [u8]) -> Self {
        Cursor(body)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if self.0.len() < n {
            return Err(WireError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    pub(crate) fn u32(&mut self) -> Result<u32, WireError> {
        let b = self.take(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], WireError> {
        let len = self.u32()? as usize;
        self.take(len)
    }

    pub(crate) fn string(&mut self) -> Result<String, WireError> {
        let bytes = self.bytes()?;
        String::from_utf8(bytes.to_vec()).map_err(|_| WireError::NotUtf8)
    }

    pub(crate) fn list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, WireError>,
    ) -> Result<Vec<T>, WireError> {
        let count = self.u32()? as usize;
        if count > MAX_LIST_ITEMS {
            return Err(WireError::TooManyItems(count));
        }
        (0..count).map(|_| item(self)).collect()
    }

    pub(crate) fn finish(&self) -> Result<(), WireError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(WireError::TrailingBytes)
        }
    }
}
