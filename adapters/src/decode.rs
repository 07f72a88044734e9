//! Payload bytes to a JSON value, accepting what the agents' own parsers
//! accept.
//!
//! Every agent here is JavaScript or writes JSON that `JSON.parse` reads,
//! and a model controls much of what goes into a payload (tool arguments,
//! prompts). serde_json is stricter than `JSON.parse` in ways a model can
//! trigger on purpose, and a payload hookgate cannot read is one it cannot
//! guard. So this module accepts:
//!
//! - lone UTF-16 surrogate escapes (`"\ud800"`), which `JSON.stringify`
//!   emits for any string holding an unpaired surrogate: decoded as U+FFFD;
//! - invalid UTF-8 bytes (a writer that split a character): U+FFFD;
//! - nesting up to [`MAX_DEPTH`] levels (serde_json stops at 128), parsed on
//!   a growing heap stack so a deep payload cannot overflow the thread's;
//! - numbers beyond `f64` (`1e400`), kept as their text (serde_json's
//!   `arbitrary_precision`);
//! - a leading UTF-8 byte-order mark.
//!
//! Well-formed payloads take the fast path (one serde_json pass); only a
//! payload it rejects is scanned and repaired, in one linear pass. The
//! repair never changes the payload the gateway forwards (`raw_json` stays
//! byte-exact): it only affects the parsed view.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;

/// The deepest nesting accepted. `JSON.stringify` itself gives up (stack
/// overflow) around ten thousand levels, so no agent sends more; deeper
/// input is refused before it is parsed, which bounds the stack every later
/// recursive walk (serialize, drop, mask) needs.
pub const MAX_DEPTH: usize = 16_384;

/// The stack a thread needs to walk a value of [`MAX_DEPTH`] levels
/// recursively (serde_json's drop, serialize and compare all recurse), with
/// room to spare even in a debug build. The gateway's threads get this
/// much; it is address space, touched only as deep as a payload goes.
pub const STACK_SIZE: usize = 64 << 20;

/// Why a payload is not JSON even by `JSON.parse`'s rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DecodeError {
    /// A syntax error at this position (of the repaired text, which has the
    /// same line structure as the payload).
    Syntax { line: usize, column: usize },
    /// Nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

/// Parses `payload` as one JSON document, as leniently as described above.
pub(crate) fn decode(payload: &[u8]) -> Result<Value, DecodeError> {
    match serde_json::from_slice(payload) {
        Ok(value) => Ok(value),
        Err(_) => decode_repaired(payload),
    }
}

/// The slow path: strip a BOM, check the depth, repair escapes and UTF-8,
/// then parse without serde_json's recursion limit on a growing stack.
fn decode_repaired(payload: &[u8]) -> Result<Value, DecodeError> {
    let payload = payload.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(payload);
    let scan = scan(payload);
    if scan.max_depth > MAX_DEPTH {
        return Err(DecodeError::TooDeep);
    }
    let repaired: Cow<'_, [u8]> = if scan.lone_surrogates.is_empty() {
        Cow::Borrowed(payload)
    } else {
        let mut bytes = payload.to_vec();
        for at in scan.lone_surrogates {
            // `\uD800` and `\uFFFD` are both six bytes: positions, lines
            // and columns stay as they were.
            if let Some(escape) = bytes.get_mut(at..at + 6) {
                escape.copy_from_slice(b"\\uFFFD");
            }
        }
        Cow::Owned(bytes)
    };
    let text: Cow<'_, str> = String::from_utf8_lossy(&repaired);
    let mut de = serde_json::Deserializer::from_str(&text);
    de.disable_recursion_limit();
    let value = Value::deserialize(serde_stacker::Deserializer::new(&mut de))
        .and_then(|value| de.end().map(|()| value))
        .map_err(|err| DecodeError::Syntax {
            line: err.line(),
            column: err.column(),
        })?;
    Ok(value)
}

/// What one pass over the bytes found.
#[derive(Debug, Default, PartialEq, Eq)]
struct Scan {
    /// The deepest `[`/`{` nesting outside strings.
    max_depth: usize,
    /// Offsets of `\uXXXX` escapes of a surrogate that has no partner.
    lone_surrogates: Vec<usize>,
}

/// One linear pass: nesting depth and unpaired surrogate escapes. It does
/// not validate: serde_json does that afterwards.
fn scan(bytes: &[u8]) -> Scan {
    let mut scan = Scan::default();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        if in_string {
            match byte {
                b'"' => in_string = false,
                b'\\' => {
                    if bytes.get(i + 1) == Some(&b'u') {
                        i += surrogate_escape(bytes, i, &mut scan.lone_surrogates);
                        continue;
                    }
                    i += 1;
                }
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'[' | b'{' => {
                    depth += 1;
                    scan.max_depth = scan.max_depth.max(depth);
                }
                b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        i += 1;
    }
    scan
}

/// For the `\u` escape at `at`: records it when it is a surrogate without
/// its partner and returns how many bytes it (and a valid partner) take.
fn surrogate_escape(bytes: &[u8], at: usize, lone: &mut Vec<usize>) -> usize {
    let Some(unit) = hex_unit(bytes, at) else {
        return 2; // not four hex digits: serde_json reports it
    };
    match unit {
        0xD800..=0xDBFF => {
            let paired =
                hex_unit(bytes, at + 6).is_some_and(|next| (0xDC00..=0xDFFF).contains(&next));
            if paired {
                12
            } else {
                lone.push(at);
                6
            }
        }
        0xDC00..=0xDFFF => {
            lone.push(at);
            6
        }
        _ => 6,
    }
}

/// The code unit of a `\uXXXX` escape starting at `at`.
fn hex_unit(bytes: &[u8], at: usize) -> Option<u16> {
    let escape = bytes.get(at..at + 6)?;
    if escape.get(..2)? != b"\\u" {
        return None;
    }
    let hex = std::str::from_utf8(escape.get(2..)?).ok()?;
    u16::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
mod tests;
