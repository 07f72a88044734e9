//! Typed field access over a parsed payload, shared by every dialect.
//!
//! Agents add fields often, so unknown fields are ignored; a field that is
//! present with the wrong type is an error naming that field (a dotted path
//! such as `tool_call.input`), because silently defaulting it would hide a
//! real protocol change.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::decode::{self, DecodeError};
use crate::{Dialect, ParseError, ParseErrorKind, Reply};

/// Parses `payload` as a JSON object, as leniently as `JSON.parse` would
/// (see `decode`).
pub(crate) fn object(dialect: Dialect, payload: &[u8]) -> Result<Map<String, Value>, ParseError> {
    match decode::decode(payload) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ParseError::new(dialect, ParseErrorKind::NotAnObject)),
        Err(DecodeError::Syntax { line, column }) => Err(ParseError::new(
            dialect,
            ParseErrorKind::NotJson { line, column },
        )),
        Err(DecodeError::TooDeep) => Err(ParseError::new(dialect, ParseErrorKind::TooDeep)),
    }
}

/// A reply object as one line of JSON plus a newline. Keys come out sorted
/// whatever serde_json features the build enables, so replies are
/// byte-stable (golden tests pin them).
fn reply_line(reply: &BTreeMap<&'static str, Value>) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(reply).unwrap_or_else(|_| b"{}".to_vec());
    bytes.push(b'\n');
    bytes
}

/// A reply given only as `reply_line(reply)` on stdout: nothing on stderr,
/// exit 0. Cline and Cursor read every answer from stdout JSON (and Cursor
/// drops it on exit 2), so their replies all take this form.
pub(crate) fn stdout_reply(reply: &BTreeMap<&'static str, Value>) -> Reply {
    Reply {
        stdout: reply_line(reply),
        stderr: Vec::new(),
        exit_code: 0,
    }
}

/// A JSON-only reply (nothing on stderr, exit 0): `output` as one line of
/// JSON when it says anything (`says`), else empty stdout, the neutral
/// reply. Gemini CLI and Codex take every answer this way.
pub(crate) fn json_only_reply(output: &impl serde::Serialize, says: bool) -> Reply {
    let mut stdout = Vec::new();
    if says {
        // Serializing plain structs of strings and `Value`s cannot fail.
        stdout = serde_json::to_vec(output).unwrap_or_default();
        stdout.push(b'\n');
    }
    Reply {
        stdout,
        stderr: Vec::new(),
        exit_code: 0,
    }
}

/// A JSON object with the path that leads to it, for error messages.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields<'a> {
    dialect: Dialect,
    path: &'a str,
    map: &'a Map<String, Value>,
}

impl<'a> Fields<'a> {
    /// The top-level object of a payload.
    pub(crate) fn root(dialect: Dialect, map: &'a Map<String, Value>) -> Self {
        Fields {
            dialect,
            path: "",
            map,
        }
    }

    /// An object not reachable by key from the root (a decoded JSON
    /// string, an object nested two levels deep), named `path` in errors.
    pub(crate) fn at(dialect: Dialect, path: &'a str, map: &'a Map<String, Value>) -> Self {
        Fields { dialect, path, map }
    }

    fn error(&self, key: &str, kind: impl FnOnce(String) -> ParseErrorKind) -> ParseError {
        let field = if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        };
        ParseError::new(self.dialect, kind(field))
    }

    /// The error for `key` present with the wrong type (for shapes the
    /// typed getters do not cover, such as "an object or a JSON string").
    pub(crate) fn wrong_type(&self, key: &str, expected: &'static str) -> ParseError {
        self.error(key, |field| ParseErrorKind::WrongType { field, expected })
    }

    /// The raw value of `key`, if present and not null.
    pub(crate) fn value(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|value| !value.is_null())
    }

    /// A string field that must be present.
    pub(crate) fn req_str(&self, key: &str) -> Result<&'a str, ParseError> {
        self.opt_str(key)?
            .ok_or_else(|| self.error(key, ParseErrorKind::MissingField))
    }

    /// A string field that may be absent or null.
    pub(crate) fn opt_str(&self, key: &str) -> Result<Option<&'a str>, ParseError> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.wrong_type(key, "a string")),
        }
    }

    /// Like [`Fields::opt_str`], owned; empty strings count as absent.
    pub(crate) fn opt_string(&self, key: &str) -> Result<Option<String>, ParseError> {
        Ok(self
            .opt_str(key)?
            .filter(|s| !s.is_empty())
            .map(str::to_owned))
    }

    /// A non-negative integer field (floats with no fraction are accepted).
    pub(crate) fn opt_u64(&self, key: &str) -> Result<Option<u64>, ParseError> {
        self.opt_count(key, "a non-negative integer", |f| {
            (f.fract() == 0.0).then_some(f)
        })
    }

    /// A duration in milliseconds, fractions rounded (Cursor sends
    /// `"duration": 728.221`).
    pub(crate) fn opt_millis(&self, key: &str) -> Result<Option<u64>, ParseError> {
        self.opt_count(key, "a non-negative number", |f| {
            f.is_finite().then(|| f.round())
        })
    }

    /// A number field as a `u64`: an integer as it is; any other number in
    /// `u64`'s range through `whole` (`None`: not `expected`).
    fn opt_count(
        &self,
        key: &str,
        expected: &'static str,
        whole: fn(f64) -> Option<f64>,
    ) -> Result<Option<u64>, ParseError> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_u64()
                .or_else(|| {
                    n.as_f64()
                        .filter(|f| *f >= 0.0 && *f <= u64::MAX as f64)
                        .and_then(whole)
                        .map(|f| f as u64)
                })
                .map(Some)
                .ok_or_else(|| self.wrong_type(key, expected)),
            Some(_) => Err(self.wrong_type(key, "a number")),
        }
    }

    /// A boolean field; absent means false.
    pub(crate) fn flag(&self, key: &str) -> Result<bool, ParseError> {
        match self.value(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.wrong_type(key, "a boolean")),
        }
    }

    /// An array of strings; absent means empty.
    pub(crate) fn str_list(&self, key: &str) -> Result<Vec<String>, ParseError> {
        match self.value(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(self.wrong_type(key, "an array of strings")),
                })
                .collect(),
            Some(_) => Err(self.wrong_type(key, "an array of strings")),
        }
    }

    /// A nested object, if present.
    pub(crate) fn opt_object(&self, key: &'a str) -> Result<Option<Fields<'a>>, ParseError> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Object(map)) => Ok(Some(Fields {
                dialect: self.dialect,
                path: key,
                map,
            })),
            Some(_) => Err(self.wrong_type(key, "an object")),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Fields;
    use crate::Dialect;

    /// (value, `opt_u64`, `opt_millis`); `Err` is a wrong-type error.
    #[test]
    fn counts_and_durations() {
        let table = [
            (json!(7), Ok(Some(7)), Ok(Some(7))),
            (json!(7.0), Ok(Some(7)), Ok(Some(7))),
            (json!(728.221), Err(()), Ok(Some(728))),
            (json!(0.5), Err(()), Ok(Some(1))),
            (json!(-0.4), Err(()), Err(())),
            (json!(-3), Err(()), Err(())),
            (json!(1e30), Err(()), Err(())),
            (json!("7"), Err(()), Err(())),
            (json!(null), Ok(None), Ok(None)),
        ];
        for (value, count, millis) in table {
            let map = json!({ "n": value }).as_object().cloned().unwrap();
            let fields = Fields::root(Dialect::ClaudeCode, &map);
            assert_eq!(fields.opt_u64("n").map_err(|_| ()), count, "{value}");
            assert_eq!(fields.opt_millis("n").map_err(|_| ()), millis, "{value}");
        }
    }
}
