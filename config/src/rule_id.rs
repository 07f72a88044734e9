//! A guard rule's id: written (`id = "env-read"`), or derived from the
//! rule's content, so every rule is named the same way in the decision
//! log, the per-rule counters and `gateway config show`, across restarts
//! and as long as the rule itself is unchanged. Layers use it to tell a
//! rule that replaces or removes a lower layer's from one that adds.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use sha2::{Digest as _, Sha256};
use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::raw::RawRule;

/// Keys that say how a rule is layered, not what it matches.
const NOT_CONTENT: [&str; 3] = ["id", "enabled", "locked"];
/// Longest id accepted.
const MAX_ID: usize = 64;

/// The rule's id: its `id` key, else `auto-` and 12 hex digits of the
/// SHA-256 of its content (its keys but `id`, `enabled` and `locked`,
/// serialized in key order).
pub(super) fn rule_id(rule: &toml::Table) -> String {
    if let Some(id) = rule.get("id").and_then(toml::Value::as_str) {
        return id.to_owned();
    }
    let digest = Sha256::digest(content_key(rule).as_bytes());
    let hex: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!("auto-{hex}")
}

/// What the rule matches and does, as one comparable string: two rules
/// with the same content key are the same rule, whatever their ids.
pub(super) fn content_key(rule: &toml::Table) -> String {
    let content: toml::Table = rule
        .iter()
        .filter(|(k, _)| !NOT_CONTENT.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    // A table of plain values always serializes; an empty key then only
    // means "no content", which no real rule has.
    toml::to_string(&content).unwrap_or_default()
}

/// Earlier versions of the default guard's rules, by content key: the id
/// of the default rule each became (`superseded.toml`).
static SUPERSEDED: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    let file: toml::Table = toml::from_str(include_str!("superseded.toml")).unwrap_or_default();
    file.get("rule")
        .and_then(toml::Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(toml::Value::as_table)
        .map(|rule| (content_key(rule), rule_id(rule)))
        .collect()
});

/// The id of the default rule that `rule` (without an id) is an earlier
/// version of, word for word; `None` for any other rule.
pub(super) fn superseded_by(rule: &toml::Table) -> Option<&'static str> {
    if rule.contains_key("id") {
        return None;
    }
    SUPERSEDED.get(&content_key(rule)).map(String::as_str)
}

/// Whether an earlier default had a rule `id` (one added since is not
/// "left out" by an old copy of the default, which could not name it).
pub(super) fn in_earlier_default(id: &str) -> bool {
    SUPERSEDED.values().any(|known| known == id)
}

/// An `id` as written: 1-64 of `a-z 0-9 - _ .` (a derived id, `auto-…`,
/// may be written to replace or remove that rule).
pub(super) fn check_id(
    at: &Locator<'_>,
    id: &Spanned<String>,
    key: &str,
) -> Result<String, ConfigError> {
    let value = id.get_ref();
    let well_formed = !value.is_empty()
        && value.len() <= MAX_ID
        && value
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_.".contains(c));
    if !well_formed {
        return Err(at.error(
            id.span(),
            key,
            format!("a rule id is 1-{MAX_ID} characters of a-z 0-9 - _ ."),
        ));
    }
    Ok(value.clone())
}

/// An `enabled = false` entry: the `id` of the rule it removes and
/// nothing else.
pub(super) fn disabling_entry(
    at: &Locator<'_>,
    rule: &RawRule,
    enabled: &Spanned<bool>,
    key: &str,
) -> Result<(), ConfigError> {
    if rule.id.is_none() {
        return Err(at.error(
            enabled.span(),
            format!("{key}.enabled"),
            "`enabled = false` removes a lower layer's rule by its `id`: add the `id`",
        ));
    }
    let written = other_spans(rule);
    if let Some(span) = written.into_iter().next() {
        return Err(at.error(
            span,
            key,
            "an `enabled = false` entry has only the `id` of the rule it removes",
        ));
    }
    Ok(())
}

/// Where the rule is: its first key written, else `all` (the rules'
/// array), for errors about the rule as a whole.
pub(super) fn rule_span(rule: &RawRule, all: &Range<usize>) -> Range<usize> {
    rule.id
        .as_ref()
        .map(Spanned::span)
        .or_else(|| rule.enabled.as_ref().map(Spanned::span))
        .or_else(|| other_spans(rule).into_iter().next())
        .unwrap_or_else(|| all.clone())
}

/// The spans of the keys that say what a rule matches and does.
fn other_spans(rule: &RawRule) -> Vec<Range<usize>> {
    fn at<T>(field: &Option<Spanned<T>>) -> Option<Range<usize>> {
        field.as_ref().map(Spanned::span)
    }
    let mut spans: Vec<Range<usize>> = [
        at(&rule.locked),
        at(&rule.shell),
        at(&rule.file_path),
        at(&rule.mcp_tool),
        at(&rule.command),
        at(&rule.subcommand),
        at(&rule.flags),
        at(&rule.operand),
        at(&rule.path),
        at(&rule.unless),
        at(&rule.access),
        at(&rule.fetch),
        at(&rule.into),
        at(&rule.action),
        at(&rule.reason),
    ]
    .into_iter()
    .flatten()
    .collect();
    spans.sort_by_key(|s| s.start);
    spans
}
