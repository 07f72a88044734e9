//! Malformed-payload checks shared by the dialect tests: the expected
//! error for a field of the wrong type, and the sweep that truncates and
//! retypes every fixture to prove a parser never panics.

use serde_json::{Value, json};

use super::{edited_fixture, fixtures};
use crate::{HookEvent, ParseError, ParseErrorKind};

/// The error for `field` holding something other than `expected`.
pub(crate) fn wrong(field: &str, expected: &'static str) -> ParseErrorKind {
    ParseErrorKind::WrongType {
        field: field.into(),
        expected,
    }
}

/// Every truncation of every fixture of `agent`, and every field (top level
/// and one level down) replaced by each JSON type in turn: `parse(stem,
/// payload)` returns, `Ok` or `Err`, and never panics.
pub(crate) fn never_panics_on_truncated_or_retyped_fields(
    agent: &str,
    parse: impl Fn(&str, &[u8]) -> Result<HookEvent, ParseError>,
) {
    let replacements = [
        json!(null),
        json!(1.5),
        json!(-3),
        json!(true),
        json!("x"),
        json!([1]),
        json!({"a": 1}),
    ];
    for (stem, bytes) in fixtures(agent) {
        let rel = format!("{agent}/{stem}.json");
        for end in 0..bytes.len() {
            let _ = parse(&stem, &bytes[..end]);
        }
        let value: Value = serde_json::from_slice(&bytes).expect("fixture is JSON");
        for (key, inner) in value.as_object().expect("fixture is a JSON object") {
            for replacement in &replacements {
                let payload = edited_fixture(&rel, |m| {
                    m.insert(key.clone(), replacement.clone());
                });
                let _ = parse(&stem, &payload);
                let Value::Object(inner) = inner else {
                    continue;
                };
                for inner_key in inner.keys() {
                    let payload = edited_fixture(&rel, |m| {
                        m[key.as_str()][inner_key.as_str()] = replacement.clone();
                    });
                    let _ = parse(&stem, &payload);
                }
            }
        }
    }
}
