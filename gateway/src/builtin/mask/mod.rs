//! Masking of secrets before anything reaches the audit log.
//!
//! Hook payloads carry shell commands, file contents (Cursor's
//! `beforeReadFile`, a Write tool's content, tool outputs) and environment
//! dumps; an audit log that stores API keys verbatim is a leak waiting to
//! happen. Every string of the line goes through [`mask_str`]: a maintained
//! set of provider token shapes, key blocks, URL credentials, password
//! options and headers (`patterns`), then `NAME=value` assignments whose
//! name says secret or whose value looks random (`entropy`). It is a net
//! for known shapes, not a guarantee: the log file is also created 0600.
//! Masking works on parsed JSON strings, so it never breaks the line.

mod entropy;
mod names;
mod patterns;

#[cfg(test)]
mod tests;

use std::borrow::Cow;

use serde_json::Value;

pub use names::secret_name;

/// What a masked secret is replaced with.
pub const MASK: &str = "[REDACTED]";

/// `text` with every recognized secret replaced by [`MASK`].
pub fn mask_str(text: &str) -> String {
    let mut out = Cow::Borrowed(text);
    for (pattern, replacement) in patterns::PATTERNS.iter() {
        if let Cow::Owned(replaced) = pattern.replace_all(&out, *replacement) {
            out = Cow::Owned(replaced);
        }
    }
    let masked = patterns::ASSIGNMENT.replace_all(&out, |caps: &regex::Captures<'_>| {
        let value = &caps[3];
        if value.contains(MASK) || !assignment_is_secret(&caps[2], value) {
            caps[0].to_owned()
        } else {
            format!("{}{MASK}", &caps[1])
        }
    });
    masked.into_owned()
}

/// An assignment's value is secret when its name says so, or when it
/// looks like a random key and its name is not an id, hash or path.
fn assignment_is_secret(name: &str, value: &str) -> bool {
    let value = value.trim_matches(['"', '\'']);
    if value.is_empty() {
        return false;
    }
    secret_name(name) || (entropy::looks_random(value) && !names::plain_name(name))
}

/// A string that is itself JSON (Cline's stringified mirror, Cursor's MCP
/// `tool_input`) masked as JSON, so its escaped quotes and newlines do not
/// hide an assignment; `None` when it is not JSON.
fn mask_embedded_json(text: &str) -> Option<String> {
    let trimmed = text.trim_start();
    if !trimmed.starts_with(['{', '[']) {
        return None;
    }
    let original: Value = serde_json::from_str(text).ok()?;
    let mut masked = original.clone();
    mask_json(&mut masked);
    // Untouched JSON keeps its exact text (spacing, escapes).
    Some(if masked == original {
        text.to_owned()
    } else {
        masked.to_string()
    })
}

/// Masks every string in a JSON value, in place; a value under a key that
/// names a secret (`"api_key": "..."`, `"credential": {...}`) is masked
/// whole.
pub fn mask_json(value: &mut Value) {
    match value {
        Value::String(s) => {
            let masked = mask_embedded_json(s).unwrap_or_else(|| mask_str(s));
            if masked != *s {
                *s = masked;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask_json),
        Value::Object(map) => {
            for (key, item) in map.iter_mut() {
                let whole = matches!(item, Value::String(_) | Value::Number(_))
                    || (matches!(item, Value::Object(_) | Value::Array(_))
                        && names::secret_container(key));
                if whole && names::secret_key(key) {
                    *item = Value::String(MASK.to_owned());
                } else {
                    mask_json(item);
                }
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}
