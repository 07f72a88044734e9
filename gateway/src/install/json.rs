//! An order-preserving JSON tree for editing agents' config files.
//!
//! serde_json's `Map` sorts keys unless its `preserve_order` feature is on,
//! and that feature is workspace-wide (feature unification): it would change
//! the key order of every JSON the gateway and the adapters produce. So the
//! installer reads configs into this small tree instead, which keeps every
//! object's keys in file order, and writes them back pretty-printed with
//! two-space indentation (the layout the agents themselves write).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// A JSON value whose objects keep their keys in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An empty object.
    pub(crate) fn object() -> Json {
        Json::Object(Vec::new())
    }

    /// A string value.
    pub(crate) fn str(text: &str) -> Json {
        Json::String(text.to_owned())
    }

    /// A non-negative integer value.
    pub(crate) fn uint(n: u64) -> Json {
        Json::Number(n.into())
    }

    /// The member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `key` of an object, mutably.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut Json> {
        match self {
            Json::Object(members) => members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `key`, added at the end (set to `default`) when absent.
    /// `None` when `self` is not an object.
    pub(crate) fn entry(&mut self, key: &str, default: Json) -> Option<&mut Json> {
        let Json::Object(members) = self else {
            return None;
        };
        let at = match members.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                members.push((key.to_owned(), default));
                members.len() - 1
            }
        };
        members.get_mut(at).map(|(_, v)| v)
    }

    /// Removes the member `key` of an object.
    pub(crate) fn remove(&mut self, key: &str) {
        if let Json::Object(members) = self {
            members.retain(|(k, _)| k != key);
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this is an empty object or array.
    pub(crate) fn is_empty_container(&self) -> bool {
        match self {
            Json::Object(members) => members.is_empty(),
            Json::Array(items) => items.is_empty(),
            _ => false,
        }
    }

    /// Parses a config file's text. Empty (or blank) text is an empty
    /// object: agents treat an empty settings file as no settings.
    pub(crate) fn parse(text: &str) -> Result<Json, serde_json::Error> {
        if text.trim().is_empty() {
            return Ok(Json::object());
        }
        serde_json::from_str(text)
    }

    /// The file text: pretty-printed, two-space indent, final newline.
    pub(crate) fn render(&self) -> String {
        // Serializing this tree into a String cannot fail: every key is a
        // string and every number came from serde_json.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// The key serde_json's `arbitrary_precision` numbers arrive under.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
        serde_json::Number::from_f64(n)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members: Vec<(String, Json)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            // serde_json's `arbitrary_precision` (on in this workspace
            // through feature unification) hands numbers over as a map
            // with this one key and the number's text as its value.
            if members.is_empty() && key == NUMBER_TOKEN {
                let text: String = map.next_value()?;
                return text
                    .parse::<serde_json::Number>()
                    .map(Json::Number)
                    .map_err(de::Error::custom);
            }
            let value: Json = map.next_value()?;
            // A repeated key: the last one counts, as in serde_json.
            members.retain(|(k, _)| *k != key);
            members.push((key, value));
        }
        Ok(Json::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_and_pretty_text_round_trips() {
        let cases = [
            "{\n  \"zeta\": 1,\n  \"alpha\": [\n    true,\n    null,\n    \"x\"\n  ],\n  \"mid\": {\n    \"b\": 2.5,\n    \"a\": -3\n  }\n}\n",
            "{}\n",
            "[]\n",
        ];
        for text in cases {
            assert_eq!(Json::parse(text).unwrap().render(), text);
        }
    }

    #[test]
    fn blank_text_is_an_empty_object_and_bad_text_an_error() {
        assert_eq!(Json::parse("  \n").unwrap(), Json::object());
        assert!(Json::parse("{\"a\": ").is_err());
        assert!(Json::parse("// comment\n{}").is_err());
    }

    #[test]
    fn entry_appends_missing_keys_at_the_end() {
        let mut value = Json::parse(r#"{"b": 1}"#).unwrap();
        value.entry("a", Json::uint(2));
        value.entry("b", Json::uint(9));
        assert_eq!(value.render(), "{\n  \"b\": 1,\n  \"a\": 2\n}\n");
        assert!(Json::Null.clone().entry("a", Json::Null).is_none());
    }
}
