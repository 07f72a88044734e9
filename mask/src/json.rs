//! Masking a JSON value in place: every string through `mask_str`, and
//! what only the structure tells: a value under a key that names a secret
//! (`"api_key": ...`), the `value` of a `{"name": "DB_PASSWORD", "value":
//! ...}` entry, the word after `--password` in an argument list, and keys
//! that are themselves secrets (`{"ghp_...": 1}`).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{MASK, entropy, mask_str, names};

/// Longest value masked for looking random alone: a key or token's
/// length. A longer run under `content` or `command` is data (a base64
/// file), and is masked only for what it contains.
const MAX_RANDOM_VALUE_LEN: usize = 64;

/// Masks every string in a JSON value, in place; a value under a key that
/// names a secret (`"api_key": "..."`, `"credential": {...}`) is masked
/// whole.
pub fn mask_json(value: &mut Value) {
    match value {
        Value::String(s) => mask_string(s),
        Value::Array(items) => mask_array(items),
        Value::Object(map) => mask_object(map),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn mask_string(s: &mut String) {
    let masked = mask_embedded_json(s).unwrap_or_else(|| mask_str(s));
    if masked != *s {
        *s = masked;
    }
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

/// An argument list: the word after a secret option (`["--token", "x"]`)
/// and random-looking words (`["deploy", "q8Xz..."]`) are masked whole.
fn mask_array(items: &mut [Value]) {
    let mut after_secret_option = false;
    for item in items.iter_mut() {
        let secret = match item {
            Value::String(s) => after_secret_option || entropy::looks_generated(s),
            _ => false,
        };
        after_secret_option = matches!(item, Value::String(s) if names::secret_option(s));
        if secret {
            *item = Value::String(MASK.to_owned());
        } else {
            mask_json(item);
        }
    }
}

fn mask_object(map: &mut Map<String, Value>) {
    let named_secret = names_a_secret(map);
    for (key, item) in map.iter_mut() {
        let secret_key = names::secret_key(key) || (named_secret && names::value_key(key));
        match item {
            Value::String(s) if secret_key || random_setting(key, s) => {
                *item = Value::String(MASK.to_owned());
            }
            Value::Number(_) if secret_key => *item = Value::String(MASK.to_owned()),
            Value::Object(_) | Value::Array(_) if secret_key && names::secret_container(key) => {
                *item = Value::String(MASK.to_owned());
            }
            // A list under a secret key is a list of secrets; an object
            // (`"auth": {"type": ...}`) is walked field by field.
            Value::Array(items) if secret_key => {
                for element in items.iter_mut() {
                    if matches!(element, Value::String(_) | Value::Number(_)) {
                        *element = Value::String(MASK.to_owned());
                    } else {
                        mask_json(element);
                    }
                }
            }
            _ => mask_json(item),
        }
    }
    mask_keys(map);
}

/// A value that is a random-looking key under a key that is not an id,
/// hash or path: `{"setting": "q8Xz..."}` as `setting=q8Xz...` would be.
fn random_setting(key: &str, value: &str) -> bool {
    value.len() <= MAX_RANDOM_VALUE_LEN && entropy::looks_random(value) && !names::plain_name(key)
}

/// Does `map` name a secret in a `name`/`key` field, so that its `value`
/// field holds it?
fn names_a_secret(map: &Map<String, Value>) -> bool {
    map.iter()
        .any(|(key, value)| names::name_key(key) && value.as_str().is_some_and(names::secret_name))
}

/// Keys that are secrets (a provider token, a random-looking word) are
/// replaced by the mask; keys that collide once masked get `#2`, `#3` ...
fn mask_keys(map: &mut Map<String, Value>) {
    let masked: Vec<Option<String>> = map.keys().map(|key| masked_key(key)).collect();
    if masked.iter().all(Option::is_none) {
        return;
    }
    let old = std::mem::take(map);
    let mut next: HashMap<String, usize> = HashMap::new();
    for ((key, value), masked) in old.into_iter().zip(masked) {
        let base = masked.unwrap_or(key);
        let mut unique = base.clone();
        while map.contains_key(&unique) {
            let n = next.entry(base.clone()).or_insert(1);
            *n += 1;
            unique = format!("{base}#{n}");
        }
        map.insert(unique, value);
    }
}

/// The masked form of a key, or `None` when it carries no secret.
fn masked_key(key: &str) -> Option<String> {
    if entropy::looks_generated(key) {
        return Some(MASK.to_owned());
    }
    let masked = mask_str(key);
    (masked != key).then_some(masked)
}
