//! A dependency-free scan of a JSON document's top-level object: which keys
//! it has and the string values of a few of them.
//!
//! `detect` and `fallback` run in the shim, which must not pull in serde, so
//! they cannot parse JSON properly. They only need the top level: this
//! scanner walks the document once, tracks nesting and string escapes, and
//! never panics. Work is one linear pass; memory is a span per top-level key,
//! capped at [`MAX_KEYS`].
//!
//! It is a sniffer, not a validator: a truncated or malformed document
//! yields the entries read before the damage (see [`TopLevel::complete`]),
//! because the first keys are usually enough to tell the dialect.

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

/// Top-level keys recorded at most; later keys are skipped (still scanned).
pub const MAX_KEYS: usize = 256;

/// The top-level object of a JSON document, as spans into the payload.
#[derive(Debug, Clone)]
pub struct TopLevel<'a> {
    payload: &'a [u8],
    entries: Vec<Entry>,
    complete: bool,
}

/// One `"key": value` pair. Spans exclude the quotes of strings.
#[derive(Debug, Clone)]
struct Entry {
    key: Range<usize>,
    value: Range<usize>,
    value_is_string: bool,
}

/// Scans `payload`. `None` when it does not start (after whitespace and an
/// optional UTF-8 byte-order mark) with `{`: not a JSON object.
pub fn scan(payload: &[u8]) -> Option<TopLevel<'_>> {
    let mut cursor = Cursor {
        bytes: payload,
        pos: 0,
    };
    if payload.starts_with(b"\xEF\xBB\xBF") {
        cursor.pos = 3;
    }
    cursor.skip_ws();
    if cursor.peek() != Some(b'{') {
        return None;
    }
    cursor.pos += 1;
    let mut top = TopLevel {
        payload,
        entries: Vec::new(),
        complete: false,
    };
    top.complete = cursor.members(&mut top.entries).is_some();
    Some(top)
}

impl TopLevel<'_> {
    /// True when the object was closed and well formed at the top level.
    /// Detection itself uses whatever was read.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// Does the object have `key` (with any value)?
    pub fn has_key(&self, key: &str) -> bool {
        self.entry(key).is_some()
    }

    /// The unescaped value of `key`, if present and a JSON string. Invalid
    /// escapes and invalid UTF-8 become U+FFFD rather than errors.
    pub fn string_value(&self, key: &str) -> Option<String> {
        self.entry(key)
            .filter(|entry| entry.value_is_string)
            .map(|entry| unescape(self.slice(&entry.value)))
    }

    /// The first entry named `key` (duplicate keys: the first wins).
    fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| {
            let raw = self.slice(&entry.key);
            if raw.contains(&b'\\') {
                unescape(raw) == key
            } else {
                raw == key.as_bytes()
            }
        })
    }

    fn slice(&self, range: &Range<usize>) -> &[u8] {
        self.payload.get(range.clone()).unwrap_or_default()
    }
}

/// A read position over the payload. Every method returns `None` at the
/// first byte that cannot continue the document.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek() == Some(byte)).then(|| self.pos += 1)
    }

    /// The members of an object whose `{` was consumed, up to its `}`.
    fn members(&mut self, entries: &mut Vec<Entry>) -> Option<()> {
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Some(());
        }
        loop {
            self.expect(b'"')?;
            let key = self.string_body()?;
            self.expect(b':')?;
            self.skip_ws();
            let (value, value_is_string) = self.value()?;
            if entries.len() < MAX_KEYS {
                entries.push(Entry {
                    key,
                    value,
                    value_is_string,
                });
            }
            self.skip_ws();
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The body of a string whose opening quote was consumed; consumes the
    /// closing quote and returns the span between the quotes.
    fn string_body(&mut self) -> Option<Range<usize>> {
        let start = self.pos;
        loop {
            match self.peek()? {
                b'"' => {
                    self.pos += 1;
                    return Some(start..self.pos - 1);
                }
                b'\\' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
    }

    /// One value; strings are reported by their body span.
    fn value(&mut self) -> Option<(Range<usize>, bool)> {
        let start = self.pos;
        match self.peek()? {
            b'"' => {
                self.pos += 1;
                Some((self.string_body()?, true))
            }
            b'{' | b'[' => {
                self.skip_nested()?;
                Some((start..self.pos, false))
            }
            _ => {
                while let Some(byte) = self.peek() {
                    if matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.pos += 1;
                }
                (self.pos > start && self.peek().is_some()).then_some((start..self.pos, false))
            }
        }
    }

    /// Skips a nested object or array with a depth counter (no recursion,
    /// so hostile nesting cannot overflow the stack).
    fn skip_nested(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        self.pos += 1;
                        return Some(());
                    }
                }
                b'"' => {
                    self.pos += 1;
                    self.string_body()?;
                    continue;
                }
                _ => {}
            }
            self.pos += 1;
        }
    }
}

/// Decodes the body of a JSON string.
fn unescape(raw: &[u8]) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&byte) = raw.get(i) {
        if byte != b'\\' {
            out.push(byte);
            i += 1;
            continue;
        }
        let simple = match raw.get(i + 1) {
            Some(b'"') => Some(b'"'),
            Some(b'\\') => Some(b'\\'),
            Some(b'/') => Some(b'/'),
            Some(b'b') => Some(0x08),
            Some(b'f') => Some(0x0c),
            Some(b'n') => Some(b'\n'),
            Some(b'r') => Some(b'\r'),
            Some(b't') => Some(b'\t'),
            _ => None,
        };
        if let Some(decoded) = simple {
            out.push(decoded);
            i += 2;
            continue;
        }
        let (ch, used) = match raw.get(i + 1) {
            Some(b'u') => unicode_escape(raw, i),
            _ => (char::REPLACEMENT_CHARACTER, 2),
        };
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        i += used;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Decodes `\uXXXX` at `raw[at..]` (with a following low surrogate when
/// the first is a high one). Returns the char and the bytes consumed.
fn unicode_escape(raw: &[u8], at: usize) -> (char, usize) {
    let Some(high) = hex4(raw, at + 2) else {
        return (char::REPLACEMENT_CHARACTER, 2);
    };
    if (0xD800..0xDC00).contains(&high)
        && raw.get(at + 6..at + 8) == Some(b"\\u")
        && let Some(low) = hex4(raw, at + 8).filter(|low| (0xDC00..0xE000).contains(low))
    {
        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
        return (
            char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER),
            12,
        );
    }
    (
        char::from_u32(high).unwrap_or(char::REPLACEMENT_CHARACTER),
        6,
    )
}

fn hex4(raw: &[u8], at: usize) -> Option<u32> {
    let digits = raw.get(at..at + 4)?;
    let text = core::str::from_utf8(digits).ok()?;
    u32::from_str_radix(text, 16)
        .ok()
        .filter(|_| text.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests;
