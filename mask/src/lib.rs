//! Masking of secrets before anything reaches the audit log or an OTLP
//! payload attribute.
//!
//! Hook payloads carry shell commands, file contents (Cursor's
//! `beforeReadFile`, a Write tool's content, tool outputs) and environment
//! dumps; an audit log that stores API keys verbatim is a leak waiting to
//! happen. Every string of the line, JSON object keys included, goes
//! through [`mask_str`], three passes each linear in the text:
//! - the rules of `patterns`, run as one `RegexSet` (`rules`): provider
//!   token shapes, key blocks, credential headers and cookies, URL
//!   credentials and signed URLs, credential-file lines, password options
//!   and arguments of command lines;
//! - `NAME=value` assignments whose name says secret (`names`) or whose
//!   value looks random (`entropy`);
//! - random-looking words standing alone as arguments (`positional`).
//!
//! It is a net for known shapes, not a guarantee: the log file is also
//! created 0600. Masking works on parsed JSON strings (`json`), so it never
//! breaks the line.

mod entropy;
mod json;
mod names;
mod patterns;
mod positional;
mod rule;
mod rules;

#[cfg(test)]
mod tests;

use std::borrow::Cow;

pub use json::mask_json;
pub use names::secret_name;

/// What a masked secret is replaced with.
pub const MASK: &str = "[REDACTED]";

/// Compiles the patterns every string goes through now (a rule's own
/// regex waits for its first match). The audit writer calls it when it
/// starts, so the first record is not held back by the compilation (and
/// lost if the gateway is killed meanwhile).
pub fn prepare() {
    rules::prepare();
    std::sync::LazyLock::force(&patterns::ASSIGNMENT);
    positional::prepare();
    entropy::prepare();
}

/// `text` with every recognized secret replaced by [`MASK`].
pub fn mask_str(text: &str) -> String {
    let out = rules::apply(text);
    let masked = patterns::ASSIGNMENT.replace_all(&out, |caps: &regex::Captures<'_>| {
        let value = &caps[3];
        // A value the rules masked already (`[REDACTED]`, cut at its `]`).
        if value.contains(&MASK[..MASK.len() - 1]) || !assignment_is_secret(&caps[2], value) {
            caps[0].to_owned()
        } else {
            format!("{}{MASK}", &caps[1])
        }
    });
    match positional::mask(&masked) {
        Cow::Borrowed(_) => masked.into_owned(),
        Cow::Owned(masked) => masked,
    }
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
